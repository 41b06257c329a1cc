import "server-only";
import { z } from "zod";
import { audit } from "../db/audit";
import type { PrismaClient } from "../db/generated/client";
import { AppError } from "../errors";
import { throttleKey } from "./client-address";
import { decoyPasswordHash, verifyPassword } from "./passwords";
import {
  type SignInLimits,
  type ThrottleScope,
  type ThrottleState,
  addressAllowanceFactor,
  readThrottleState,
  signInDelaySeconds,
  throttleRefusal,
} from "./sign-in-throttle";

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter the email address of your account.").max(254),
  password: z.string().min(1, "Enter your password.").max(1024, "That password is too long."),
});

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  role: "admin" | "curator" | "researcher";
  sessionVersion: number;
}

/** How an attempt from a client whose address is unknown is recorded (see lib/auth/client-address.ts). */
const unknownAddress = "unknown";

/**
 * Checks a password sign-in, throttled per account × address and per address
 * (lib/auth/sign-in-throttle.ts). The attempt is recorded first, as a failure until the password
 * proves otherwise, so attempts running at the same time count each other and a parallel burst
 * meets the throttle too. A throttled attempt is refused before its password is checked, and is
 * not itself counted. Throttles starting and attempts refused are audited (`sign_in.throttled`,
 * `sign_in.refused`); successes are audited as `user.sign_in`.
 */
export async function authenticateWithPassword(
  prisma: PrismaClient,
  input: { email: string; password: string; address: string | null },
  limits: SignInLimits,
  clock: () => Date = () => new Date(),
): Promise<AuthenticatedUser> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw new AppError("unauthorized", "Incorrect email or password.");
  const { email, password } = parsed.data;
  const addressKnown = Boolean(input.address);
  const address = input.address ? throttleKey(input.address).slice(0, 64) : unknownAddress;
  const now = clock();

  const attempt = await prisma.signInAttempt.create({ data: { email, address, success: false, at: now }, select: { id: true } });
  const state = await readThrottleState(prisma, { email, address, addressKnown, now, exceptAttemptId: attempt.id }, limits);
  const refusal = throttleRefusal(state, now, limits, addressKnown);
  if (refusal) {
    const details = { email, address, scope: refusal.scope, retryAt: refusal.retryAt.toISOString() };
    await prisma.$transaction([
      prisma.signInAttempt.delete({ where: { id: attempt.id } }),
      audit(prisma, { at: now, action: "sign_in.refused", targetType: "sign_in", details }),
    ]);
    const seconds = Math.max(1, Math.ceil((refusal.retryAt.getTime() - now.getTime()) / 1000));
    throw new AppError("rate_limited", `Too many failed sign-in attempts. Try again in ${describeWait(seconds)}.`, { retryAfterSeconds: seconds });
  }

  const user = await prisma.user.findUnique({ where: { email } });
  const passwordHash = user?.passwordHash ?? (await decoyPasswordHash());
  const passwordMatches = await verifyPassword(passwordHash, password);
  const success = Boolean(user && user.active && user.passwordHash && passwordMatches);

  if (!success || !user) {
    await auditThrottlesStarted(prisma, { email, address, addressKnown, now, state }, limits);
    throw new AppError("unauthorized", "Incorrect email or password.");
  }
  await prisma.$transaction([
    prisma.signInAttempt.update({ where: { id: attempt.id }, data: { success: true } }),
    audit(prisma, { at: now, actorId: user.id, action: "user.sign_in", targetType: "user", targetId: user.id, details: { method: "password" } }),
  ]);
  return { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion };
}

/** After a failure: audit each throttle this failure starts or lengthens. */
async function auditThrottlesStarted(
  prisma: PrismaClient,
  input: { email: string; address: string; addressKnown: boolean; now: Date; state: ThrottleState },
  limits: SignInLimits,
): Promise<void> {
  const { email, address, now, state } = input;
  const events: { scope: ThrottleScope; failures: number; retryAt: Date }[] = [];
  const pairFailures = state.pairFailures + 1;
  const delay = signInDelaySeconds(pairFailures, limits);
  if (delay > 0) events.push({ scope: "account_address", failures: pairFailures, retryAt: new Date(now.getTime() + delay * 1000) });
  const addressFailures = state.addressFailures + 1;
  if (input.addressKnown && addressFailures === limits.maxFailures * addressAllowanceFactor) {
    events.push({ scope: "address", failures: addressFailures, retryAt: new Date(now.getTime() + limits.windowMinutes * 60_000) });
  }
  if (events.length === 0) return;
  await prisma.auditEvent.createMany({
    data: events.map((event) => ({
      at: now,
      action: "sign_in.throttled",
      targetType: "sign_in",
      details: { email, address, scope: event.scope, failures: event.failures, retryAt: event.retryAt.toISOString() },
    })),
  });
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
