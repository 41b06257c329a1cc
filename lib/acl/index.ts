import { notFound } from "../errors";
import type { Principal } from "./principal";

export type { Principal, UserRole } from "./principal";
export { anonymousUserId, systemPrincipal } from "./principal";
import { anonymousUserId } from "./principal";
export { type EgressPolicy, type EgressReceiver, egressAllowed, egressAllowedSql, egressPolicies, isLoopback, mayLeaveHost, redacted } from "./egress";

/**
 * The only place that decides who may read and edit what. Services scope their queries with
 * these helpers, and gate what they return with canRead before it leaves the server.
 */

export function isAdmin(principal: Pick<Principal, "role">): boolean {
  return principal.role === "admin";
}

/**
 * The administration gate: anyone else gets the same "not found" as a missing page or record,
 * so the administration's existence tells an outsider nothing.
 */
export function assertAdmin(principal: Principal): void {
  if (!isAdmin(principal)) throw notFound();
}

/** The system actor (indexing, seeding, scripts) rather than a person. */
export function isSystem(principal: Principal): boolean {
  return principal.userId === "system";
}

/** The user to record as the actor of a change (audit, authorship): none for the system actor. */
export function actorIdOf(principal: Principal): string | null {
  return isSystem(principal) || principal.userId === anonymousUserId ? null : principal.userId;
}

/**
 * Who reads the routes that serve public projects (IIIF, OAI-PMH, media) without a session or a
 * token: a reader of exactly the projects an admin marked public, who edits nothing. Everything
 * else refuses it as it refuses any visitor without a session.
 */
export function publicReader(publicProjectIds: readonly string[]): Principal {
  return { userId: anonymousUserId, email: "", name: "Public", role: "researcher", readableProjectIds: [...publicProjectIds], editableProjectIds: [] };
}

/**
 * A signed-in person or token on those same routes: what they may read, and the public projects
 * besides (a member of no project sees the public records an anonymous visitor sees, never less).
 * Editing is unchanged.
 */
export function withPublicProjects(principal: Principal, publicProjectIds: readonly string[]): Principal {
  if (isAdmin(principal)) return principal;
  const readable = [...new Set([...principal.readableProjectIds, ...publicProjectIds])];
  return { ...principal, readableProjectIds: readable };
}

/** The public reader rather than a signed-in person or a token's user. */
export function isAnonymous(principal: Principal): boolean {
  return principal.userId === anonymousUserId;
}

/** null means "every project" (admins); otherwise the ids the principal may read. */
export function readableProjectIds(principal: Principal): readonly string[] | null {
  return isAdmin(principal) ? null : principal.readableProjectIds;
}

export function canReadProject(principal: Principal, projectId: string): boolean {
  return isAdmin(principal) || principal.readableProjectIds.includes(projectId);
}

export function canEditProject(principal: Principal, projectId: string): boolean {
  if (isAdmin(principal)) return true;
  return principal.role === "curator" && principal.editableProjectIds.includes(projectId);
}

export function canRead(principal: Principal, record: { projectId: string }): boolean {
  return canReadProject(principal, record.projectId);
}

export function canEdit(principal: Principal, record: { projectId: string }): boolean {
  return canEditProject(principal, record.projectId);
}

/** May the principal create records at all (in some project)? */
export function canCreateRecords(principal: Principal): boolean {
  return canEditSomeProject(principal);
}

/** May the principal edit records in some project (create records, request proposals)? */
export function canEditSomeProject(principal: Principal): boolean {
  return isAdmin(principal) || (principal.role === "curator" && principal.editableProjectIds.length > 0);
}

/**
 * SQL fragment restricting `column` to the projects the principal may edit (canEditProject),
 * with the ids bound as the next parameter: everything for admins, nothing for researchers.
 */
export function editScopeSql(principal: Principal, column: string, params: unknown[]): string {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(column)) throw new Error(`unsafe column name: ${column}`);
  if (isAdmin(principal)) return "TRUE";
  if (principal.role !== "curator") return "FALSE";
  params.push([...principal.editableProjectIds]);
  return `${column} = ANY($${params.length}::text[])`;
}

/** Prisma `where` fragment restricting rows with a projectId column to the readable ones. */
export function projectScopeWhere(principal: Principal): { projectId?: { in: string[] } } {
  const ids = readableProjectIds(principal);
  return ids === null ? {} : { projectId: { in: [...ids] } };
}

/**
 * SQL fragment restricting `column` to the readable projects, with the ids bound as the next
 * parameter. Appends to `params` and returns the clause, e.g. `r.project_id = ANY($3::text[])`.
 */
export function projectScopeSql(principal: Principal, column: string, params: unknown[]): string {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(column)) throw new Error(`unsafe column name: ${column}`);
  const ids = readableProjectIds(principal);
  if (ids === null) return "TRUE";
  params.push([...ids]);
  return `${column} = ANY($${params.length}::text[])`;
}

/**
 * SQL fragment for passages (chunks): the host record's project AND every project whose text
 * the passage contains must be readable. Appends the ids as one parameter.
 */
export function passageScopeSql(principal: Principal, alias: string, params: unknown[]): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`unsafe alias: ${alias}`);
  const ids = readableProjectIds(principal);
  if (ids === null) return "TRUE";
  params.push([...ids]);
  return `(${alias}.project_id = ANY($${params.length}::text[]) AND ${alias}.contributing_project_ids <@ $${params.length}::text[])`;
}

/** The gate's check for one passage, the same rule as passageScopeSql. */
export function canReadPassage(principal: Principal, passage: { projectId: string; contributingProjectIds: readonly string[] }): boolean {
  return canReadProject(principal, passage.projectId) && passage.contributingProjectIds.every((id) => canReadProject(principal, id));
}

/**
 * SQL fragment for rows that hold an access scope (`column` is text[]: the projects a reader of
 * the passages it stands for must be able to read, as passageScopeSql checks them one by one):
 * readable iff every project in it is. Appends the ids as one parameter.
 */
export function accessScopeSql(principal: Principal, column: string, params: unknown[]): string {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(column)) throw new Error(`unsafe column name: ${column}`);
  const ids = readableProjectIds(principal);
  if (ids === null) return "TRUE";
  params.push([...ids]);
  return `${column} <@ $${params.length}::text[]`;
}

/** May the principal keep golden sets at all? Admins, and curators who edit some project. */
export function canKeepGoldenSets(principal: Principal): boolean {
  return canEditSomeProject(principal);
}

/** The golden-set gate: someone who may not keep sets gets "not found", as for a missing set. */
export function assertGoldenSetKeeper(principal: Principal): void {
  if (!canKeepGoldenSets(principal)) throw notFound();
}

/**
 * Prisma `where` fragment for golden sets: a set belongs to the keeper who created it; admins
 * keep every set. Another keeper's set is filtered out like a missing one, for reads and writes.
 */
export function goldenSetScopeWhere(principal: Principal): { createdById?: string } {
  return isAdmin(principal) ? {} : { createdById: principal.userId };
}

/**
 * Prisma `where` fragment for saved searches: a saved search belongs to its user alone — admins
 * included, who see no one else's — so another user's is filtered out like a missing one.
 */
export function savedSearchScopeWhere(principal: Principal): { userId: string } {
  return { userId: principal.userId };
}
