import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import { audit } from "../db/audit";
import type { PrismaClient } from "../db/generated/client";
import { loadPrincipal } from "./load-principal";

/**
 * Browser sessions are JWTs in a cookie: nothing on the server holds them, so clearing the cookie
 * at sign-out would leave a copy of it working. Each session therefore carries an id and its
 * sign-in time; signing out records the id as revoked, and a session is refused when its id is
 * revoked or its sign-in is older than the absolute lifetime. A revocation is kept exactly that
 * long: after it, every token with that id is refused by its age anyway. Other sessions of the
 * same user are untouched (a session-version bump still ends them all).
 */

/** A session unused for this long ends (Auth.js `maxAge`; each use renews it). */
export const sessionIdleSeconds = 12 * 60 * 60;
/** A session ends this long after sign-in however much it is used. */
export const sessionLifetimeSeconds = 7 * 24 * 60 * 60;

/** What the session cookie says about itself, as the session callback exposes it. */
export const sessionClaimsSchema = z.object({
  userId: z.string().min(1),
  sessionVersion: z.number().int(),
  sessionId: z.uuid(),
  /** Seconds since the epoch. */
  signedInAt: z.number().int().positive(),
});

export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

function lifetimeEnd(claims: SessionClaims): Date {
  return new Date((claims.signedInAt + sessionLifetimeSeconds) * 1000);
}

/**
 * The principal of a browser session, or null when the session is malformed (a cookie from
 * before session ids), past its lifetime, signed out, or its user's version has moved on.
 */
export async function loadSessionPrincipal(prisma: PrismaClient, session: unknown, now = new Date()): Promise<Principal | null> {
  const parsed = sessionClaimsSchema.safeParse(session);
  if (!parsed.success) return null;
  const claims = parsed.data;
  if (lifetimeEnd(claims) <= now || claims.signedInAt * 1000 > now.getTime() + 60_000) return null;
  const [revoked, principal] = await Promise.all([
    prisma.revokedSession.findUnique({ where: { sessionId: claims.sessionId }, select: { userId: true } }),
    loadPrincipal(prisma, claims.userId, claims.sessionVersion, { cached: true }),
  ]);
  return revoked ? null : principal;
}

/**
 * Ends one session for good: its id is refused from now on, until its lifetime is over.
 * Revocations whose lifetime is over are cleared on the way.
 */
export async function revokeSession(prisma: PrismaClient, claims: SessionClaims, now = new Date()): Promise<void> {
  await prisma.$transaction([
    prisma.revokedSession.deleteMany({ where: { expiresAt: { lte: now } } }),
    prisma.revokedSession.upsert({
      where: { sessionId: claims.sessionId },
      create: { sessionId: claims.sessionId, userId: claims.userId, expiresAt: lifetimeEnd(claims) },
      update: {},
    }),
    audit(prisma, { actorId: claims.userId, action: "user.sign_out", targetType: "user", targetId: claims.userId, details: {} }),
  ]);
}
