import "server-only";
import { type Principal, actorIdOf, canEdit, projectScopeWhere } from "../acl";
import { audit } from "../db/audit";
import type { PrismaClient } from "../db/generated/client";
import { transactionSql } from "../db/sql-executor";
import { enqueueDependents } from "./enqueue-indexing";
import { storedKeysOf } from "./media-storage";
import { AppError, notFound } from "../errors";
import { assertRecordVersion, conflictMessage } from "./save-record";
import { isUuid } from "../ids";

/**
 * Deletes a record the principal may edit, at the version they saw. Its media rows go in the
 * same transaction; the files are removed afterwards by the caller (removeStoredFiles), so a
 * failed transaction never leaves a record pointing at a deleted file.
 */
export async function deleteRecord(prisma: PrismaClient, principal: Principal, input: { id: string; version: number }): Promise<{ storageKeys: string[] }> {
  if (!isUuid(input.id)) throw notFound();
  assertRecordVersion(input.version);
  const record = await prisma.record.findFirst({ where: { id: input.id, ...projectScopeWhere(principal) } });
  if (!record) throw notFound();
  if (!canEdit(principal, record)) throw new AppError("forbidden", "You may read this record but not delete it.");
  return prisma.$transaction(async (tx) => {
    const media = await tx.media.findMany({
      where: { recordId: record.id },
      select: { storageKey: true, thumbnailKey: true, streamKey: true, pages: { select: { imageKey: true } } },
    });
    // Records whose group documents hold this one's text are rebuilt without it (found while its
    // links still exist; a conflict below rolls this back too). Until then their passages keep
    // its project in their scope (derived-scope.ts: a source that no longer exists).
    await enqueueDependents(transactionSql(tx), [record.id], { dependents: "linked-record.deleted" });
    const deleted = await tx.record.deleteMany({ where: { id: record.id, version: input.version } });
    if (deleted.count === 0) throw new AppError("conflict", conflictMessage);
    await tx.media.deleteMany({ where: { storageKey: { in: media.map((item) => item.storageKey) } } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "record.delete",
      targetType: "record",
      targetId: record.id,
      projectId: record.projectId,
      details: { title: record.title, version: input.version },
    });
    return { storageKeys: media.flatMap(storedKeysOf) };
  });
}
