import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { type Principal, actorIdOf, canEditSomeProject } from "../acl";
import { audit } from "../db/audit";
import { isUuid } from "../ids";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound, parseInput } from "../errors";
import { loadPrincipal } from "./load-principal";
import { type ApiTokenScope, apiTokenScopes, maxTokenNameLength } from "./api-token-limits";

/**
 * Personal API tokens for research tools and agents. The secret is shown once and stored only as
 * its sha256; a token acts as its user with the user's CURRENT permissions (the principal is
 * loaded per request), and stops working when it expires, is revoked, or the user's session
 * version changes (deactivation, password reset). Every token question has one answer for
 * "unknown", "expired", "revoked" and "malformed": null. A token carries scopes (read, or read
 * and write: api-token-limits.ts); what a scope permits is still bounded by the user's access.
 */
export const tokenPrefix = "mnemo_";
const tokenPattern = /^mnemo_[A-Za-z0-9_-]{43}$/;

export const newTokenSchema = z.object({
  name: z.string().trim().min(1, "Name the token, e.g. the tool that will use it.").max(maxTokenNameLength, `At most ${maxTokenNameLength} characters.`),
  expiresInDays: z.coerce.number().int("Whole days.").min(1, "At least one day.").max(365, "At most a year."),
  /** Read only unless write is asked for; read is always included. */
  scopes: z
    .array(z.enum(apiTokenScopes, "A scope is read or write."))
    .max(apiTokenScopes.length, "Name each scope once.")
    .default(["read"])
    .transform((scopes) => apiTokenScopes.filter((scope) => scope === "read" || scopes.includes(scope))),
});

/** Whether the write scope is offered: only to someone who may edit some project (a write token of anyone else could change nothing). */
export function mayHaveWriteTokens(principal: Principal): boolean {
  return canEditSomeProject(principal);
}

export interface ApiTokenSummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: ApiTokenScope[];
  status: "active" | "expired" | "revoked";
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function createApiToken(prisma: PrismaClient, principal: Principal, input: unknown): Promise<{ token: string; summary: ApiTokenSummary }> {
  const data = parseInput(newTokenSchema, input);
  if (data.scopes.includes("write") && !mayHaveWriteTokens(principal)) {
    const message = "You may not edit any project, so a token of yours cannot write. Choose read.";
    throw new AppError("bad_request", message, { fieldErrors: { scopes: [message] } });
  }
  const user = await prisma.user.findUnique({ where: { id: principal.userId } });
  if (!user) throw new AppError("forbidden", "Only signed-in users may create tokens.");
  const token = `${tokenPrefix}${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + data.expiresInDays * 24 * 3600 * 1000);
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        userId: user.id,
        name: data.name,
        tokenHash: hashToken(token),
        prefix: token.slice(0, tokenPrefix.length + 6),
        sessionVersion: user.sessionVersion,
        expiresAt,
        scopes: data.scopes,
      },
    });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "token.create",
      targetType: "api_token",
      targetId: created.id,
      details: { name: created.name, expiresAt: expiresAt.toISOString(), scopes: data.scopes },
    });
    return created;
  });
  return { token, summary: summaryOf(row) };
}

function summaryOf(row: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: ApiTokenScope[];
}): ApiTokenSummary {
  const status = row.revokedAt ? "revoked" : row.expiresAt.getTime() <= Date.now() ? "expired" : "active";
  const scopes = apiTokenScopes.filter((scope) => row.scopes.includes(scope));
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    scopes,
    status,
  };
}

/** The principal's own tokens, newest first; never a hash. */
export async function listApiTokens(prisma: PrismaClient, principal: Principal): Promise<ApiTokenSummary[]> {
  const rows = await prisma.apiToken.findMany({ where: { userId: principal.userId }, orderBy: { createdAt: "desc" } });
  return rows.map(summaryOf);
}

/** Revokes one of the principal's own tokens; anyone else's is not found. */
export async function revokeApiToken(prisma: PrismaClient, principal: Principal, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await prisma.$transaction(async (tx) => {
    const updated = await tx.apiToken.updateMany({ where: { id, userId: principal.userId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (updated.count === 0) throw notFound();
    await audit(tx, { actorId: actorIdOf(principal), action: "token.revoke", targetType: "api_token", targetId: id, details: {} });
  });
}

/**
 * The principal a bearer token stands for, or null. The lookup is by hash whatever the input
 * looks like, so a malformed token costs what an unknown one does.
 */
export async function authenticateApiToken(prisma: PrismaClient, bearer: string | null | undefined): Promise<Principal | null> {
  return (await authenticateApiTokenWithId(prisma, bearer))?.principal ?? null;
}

/** What a valid token stands for: its user's current principal, its id (the key its rate limit is kept under) and its scopes. */
export interface AuthenticatedToken {
  principal: Principal;
  tokenId: string;
  scopes: readonly ApiTokenScope[];
}

/** The same, with the token's id and scopes. */
export async function authenticateApiTokenWithId(prisma: PrismaClient, bearer: string | null | undefined): Promise<AuthenticatedToken | null> {
  const token = (bearer ?? "").replace(/^Bearer\s+/i, "").trim();
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { user: { select: { sessionVersion: true, active: true } } },
  });
  if (!row || !tokenPattern.test(token)) return null;
  if (row.revokedAt || row.expiresAt.getTime() <= Date.now() || !row.user.active || row.user.sessionVersion !== row.sessionVersion) return null;
  const principal = await loadPrincipal(prisma, row.userId, row.sessionVersion, { cached: true });
  if (!principal) return null;
  // Last use, at most once a minute per token.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { principal, tokenId: row.id, scopes: row.scopes };
}
