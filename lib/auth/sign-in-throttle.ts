import "server-only";
import type { PrismaClient } from "../db/generated/client";

/**
 * Sign-in throttling, counted from `sign_in_attempts`:
 * - per account × address: after `maxFailures` failures of one account from one address within
 *   the window (and since that pair's last success), each further attempt from that address
 *   waits `delaySeconds` after the last failure, doubling with every further failure, up to the
 *   window. A stranger's failures slow the stranger: the owner, from another address, is never
 *   held back by them;
 * - per address: `maxFailures × 4` failures from one address, whatever the accounts (a spray
 *   over many accounts), refuse that address for the window. Not applied when the address is
 *   unknown, which would make every such client one bucket.
 */
export interface SignInLimits {
  maxFailures: number;
  windowMinutes: number;
  delaySeconds: number;
}

export type ThrottleScope = "account_address" | "address";

export interface ThrottleState {
  /** Failures of this account from this address in the window since the pair's last success. */
  pairFailures: number;
  lastPairFailureAt: Date | null;
  /** Failures from this address, any account, in the window. */
  addressFailures: number;
}

export interface ThrottleRefusal {
  scope: ThrottleScope;
  retryAt: Date;
}

export const addressAllowanceFactor = 4;

/** The wait after `failures` failures of one pair: none below the limit, then doubling, capped at the window. */
export function signInDelaySeconds(failures: number, limits: SignInLimits): number {
  if (failures < limits.maxFailures) return 0;
  return Math.min(limits.delaySeconds * 2 ** (failures - limits.maxFailures), limits.windowMinutes * 60);
}

export function throttleRefusal(state: ThrottleState, now: Date, limits: SignInLimits, addressKnown: boolean): ThrottleRefusal | null {
  if (addressKnown && state.addressFailures >= limits.maxFailures * addressAllowanceFactor) {
    return { scope: "address", retryAt: new Date(now.getTime() + limits.windowMinutes * 60_000) };
  }
  const delay = signInDelaySeconds(state.pairFailures, limits);
  if (delay > 0 && state.lastPairFailureAt) {
    const retryAt = new Date(state.lastPairFailureAt.getTime() + delay * 1000);
    if (retryAt > now) return { scope: "account_address", retryAt };
  }
  return null;
}

/** What the throttle knows before an attempt; `exceptAttemptId` is the attempt being decided. */
export async function readThrottleState(
  prisma: PrismaClient,
  input: { email: string; address: string; addressKnown: boolean; now: Date; exceptAttemptId: string },
  limits: SignInLimits,
): Promise<ThrottleState> {
  const { email, address, now } = input;
  const since = new Date(now.getTime() - limits.windowMinutes * 60_000);
  const notThis = { not: input.exceptAttemptId };
  const lastSuccess = await prisma.signInAttempt.findFirst({
    where: { email, address, success: true, at: { gte: since }, id: notThis },
    orderBy: { at: "desc" },
    select: { at: true },
  });
  const [pair, addressFailures] = await Promise.all([
    prisma.signInAttempt.aggregate({
      where: { email, address, success: false, at: lastSuccess ? { gt: lastSuccess.at } : { gte: since }, id: notThis },
      _count: { _all: true },
      _max: { at: true },
    }),
    input.addressKnown ? prisma.signInAttempt.count({ where: { address, success: false, at: { gte: since }, id: notThis } }) : Promise.resolve(0),
  ]);
  return { pairFailures: pair._count._all, lastPairFailureAt: pair._max.at, addressFailures };
}
