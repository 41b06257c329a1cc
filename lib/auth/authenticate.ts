import "server-only";
import { z } from "zod";
import type { PrismaClient } from "../db/generated/client";
import { AppError } from "../errors";
import { decoyPasswordHash, verifyPassword } from "./passwords";

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter the email address of your account.").max(254),
  password: z.string().min(1, "Enter your password.").max(1024, "That password is too long."),
});

export interface SignInLimits {
  maxFailures: number;
  windowMinutes: number;
}

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  role: "admin" | "curator" | "researcher";
  sessionVersion: number;
}

/**
 * Checks a password sign-in. Failed attempts are counted per account and per client address
 * over a sliding window; past the limit every attempt is refused (even a correct one) until
 * the window has passed. Every attempt is recorded; successes are audited.
 */
export async function authenticateWithPassword(
  prisma: PrismaClient,
  input: { email: string; password: string; address: string },
  limits: SignInLimits,
): Promise<AuthenticatedUser> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw new AppError("unauthorized", "Incorrect email or password.");
  const { email, password } = parsed.data;
  const address = input.address.slice(0, 64) || "unknown";

  const since = new Date(Date.now() - limits.windowMinutes * 60_000);
  const [accountFailures, addressFailures] = await Promise.all([
    prisma.signInAttempt.count({ where: { email, success: false, at: { gte: since } } }),
    prisma.signInAttempt.count({ where: { address, success: false, at: { gte: since } } }),
  ]);
  // An address may try several accounts (a shared office), so it gets a larger allowance.
  if (accountFailures >= limits.maxFailures || addressFailures >= limits.maxFailures * 4) {
    throw new AppError(
      "rate_limited",
      `Too many failed sign-in attempts. Try again in ${limits.windowMinutes} minutes.`,
      { retryAfterSeconds: limits.windowMinutes * 60 },
    );
  }

  const user = await prisma.user.findUnique({ where: { email } });
  const passwordHash = user?.passwordHash ?? (await decoyPasswordHash());
  const passwordMatches = await verifyPassword(passwordHash, password);
  const success = Boolean(user && user.active && user.passwordHash && passwordMatches);

  await prisma.signInAttempt.create({ data: { email, address, success } });
  if (!success || !user) throw new AppError("unauthorized", "Incorrect email or password.");

  await prisma.auditEvent.create({
    data: { actorId: user.id, action: "user.sign_in", targetType: "user", targetId: user.id, details: { method: "password" } },
  });
  return { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion };
}
