import "server-only";
import { readFile } from "node:fs/promises";
import { type Principal, assertAdmin } from "../../acl";
import { storagePath } from "../../archive/media-storage";
import type { PrismaClient } from "../../db/generated/client";
import { audit } from "../../db/audit";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError, notFound } from "../../errors";
import { embeddingTextHash } from "../../rag/embed/embedding-text-hash";
import { getActiveIndexSpace } from "../../rag/index/index-spaces";
import { type BackupManifest, buildManifest, mediaPrefix, storageKeyPattern, tableEntries, toJsonLines } from "./backup-format";
import { installationBackupKey } from "./backup-key";
import type {
  AuditRow,
  EmbedGroupRow,
  LinkRow,
  MediaRow,
  MembershipRow,
  ProjectRow,
  RecordRow,
  RecordVersionRow,
  SectionRow,
  UserRow,
  VectorRow,
} from "./backup-rows";
import { signedManifestEntries } from "./backup-signature";
import { writeZip } from "./write-zip";
import packageJson from "../../../package.json" with { type: "json" };

export interface ExportProjectOptions {
  slug: string;
  storageDir: string;
  /** Also the embeddings of the project's passages in the active index space. */
  withVectors?: boolean;
}

export interface ProjectBackup {
  fileName: string;
  bytes: Uint8Array;
  manifest: BackupManifest;
}

/**
 * A project's backup as one zip (backup-format.ts): the project and its members (by email), the
 * sections its records use and the sections their relation fields point at (definitions only),
 * those sections' embed groups, the records, their relation links, their media rows and original
 * files, the audit trail of the project and its records, and with `withVectors` the embeddings of
 * its passages in the active index space. Nothing of another project is written: a relation to a
 * record elsewhere is kept as a link row marked `external` (its id only, as the record's values
 * hold it). Derived files (thumbnails, streamable copies, scan page images) are left out; the
 * index worker makes them again. The manifest is signed with the installation's backup key
 * (backup-key.ts; its id in the manifest, never the key). Admins only; anyone else gets the
 * not-found of a missing project.
 */
export async function exportProject(prisma: PrismaClient, sql: SqlExecutor, principal: Principal, options: ExportProjectOptions): Promise<ProjectBackup> {
  assertAdmin(principal);
  // A slug no project can have (control characters, an unpaired surrogate) is simply not found.
  if (!/^[^\u0000-\u001f\u007f]{1,200}$/.test(options.slug) || !options.slug.isWellFormed()) throw notFound();
  const project = await prisma.project.findUnique({ where: { slug: options.slug } });
  if (!project) throw notFound();

  const records = await prisma.record.findMany({ where: { projectId: project.id }, orderBy: { id: "asc" } });
  const recordIds = records.map((record) => record.id);
  const inProject = new Set(recordIds);

  // Sections: those the records use, then those their relation fields name, transitively.
  const allSections = await prisma.section.findMany({ orderBy: { slug: "asc" } });
  const bySlug = new Map(allSections.map((section) => [section.slug, section]));
  const wanted = new Set(records.map((record) => record.sectionId));
  const pending = allSections.filter((section) => wanted.has(section.id));
  while (pending.length) {
    const section = pending.pop()!;
    for (const field of section.fields as { type?: string; targetSection?: string }[]) {
      const target = field.type === "relation" && field.targetSection ? bySlug.get(field.targetSection) : undefined;
      if (target && !wanted.has(target.id)) {
        wanted.add(target.id);
        pending.push(target);
      }
    }
  }
  const sections = allSections.filter((section) => wanted.has(section.id));
  const embedGroups = await prisma.embedGroup.findMany({ where: { sectionId: { in: [...wanted] } }, orderBy: [{ sectionId: "asc" }, { slug: "asc" }] });
  const links = await prisma.recordLink.findMany({
    where: { sourceId: { in: recordIds } },
    orderBy: [{ sourceId: "asc" }, { fieldKey: "asc" }, { targetId: "asc" }],
  });
  // The project of each link's target outside this one: named in the backup, never its content.
  const externalTargets = await prisma.record.findMany({
    where: { id: { in: links.map((link) => link.targetId) }, projectId: { not: project.id } },
    select: { id: true, project: { select: { slug: true, name: true } } },
  });
  const externalProjects = new Map(externalTargets.map((target) => [target.id, target.project]));
  const media = await prisma.media.findMany({ where: { projectId: project.id }, orderBy: { id: "asc" } });
  const memberships = await prisma.membership.findMany({ where: { projectId: project.id }, orderBy: { userId: "asc" } });
  const auditEvents = await prisma.auditEvent.findMany({
    where: { OR: [{ projectId: project.id }, { targetType: "record", targetId: { in: recordIds } }] },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  const versions = await prisma.recordVersion.findMany({ where: { recordId: { in: recordIds } }, orderBy: [{ recordId: "asc" }, { version: "asc" }] });
  const userIds = new Set<string>([
    ...memberships.map((membership) => membership.userId),
    ...records.flatMap((record) => [record.createdById, record.updatedById]).filter((value): value is string => Boolean(value)),
    ...versions.map((version) => version.savedById).filter((value): value is string => Boolean(value)),
    ...auditEvents.map((event) => event.actorId).filter((value): value is string => Boolean(value)),
  ]);
  const users = await prisma.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, email: true, name: true }, orderBy: { email: "asc" } });
  const knownUsers = new Set(users.map((user) => user.id));
  const userRef = (value: string | null) => (value && knownUsers.has(value) ? value : null);

  const tables: Record<keyof typeof tableEntries, unknown[] | null> = {
    project: [
      {
        id: project.id,
        slug: project.slug,
        name: project.name,
        description: project.description,
        restricted: project.restricted,
        createdAt: project.createdAt.toISOString(),
      } satisfies ProjectRow,
    ],
    users: users.map((user): UserRow => ({ id: user.id, email: user.email, name: user.name })),
    memberships: memberships.map((membership): MembershipRow => ({
      userId: membership.userId,
      role: membership.role,
      createdAt: membership.createdAt.toISOString(),
    })),
    sections: sections.map((section): SectionRow => ({
      id: section.id,
      slug: section.slug,
      name: section.name,
      description: section.description,
      fields: section.fields as SectionRow["fields"],
      egressPolicy: section.egressPolicy,
      objectContext: (section.objectContext ?? null) as SectionRow["objectContext"],
      answerPrompt: section.answerPrompt,
      position: section.position,
      createdAt: section.createdAt.toISOString(),
    })),
    embedGroups: embedGroups.map((group): EmbedGroupRow => ({
      id: group.id,
      sectionId: group.sectionId,
      slug: group.slug,
      label: group.label,
      fields: group.fields as string[],
      chunking: group.chunking,
      maxTokens: group.maxTokens,
      minTokens: group.minTokens,
      overlap: group.overlap,
      languages: group.languages,
      createdAt: group.createdAt.toISOString(),
    })),
    records: records.map((record): RecordRow => ({
      id: record.id,
      sectionId: record.sectionId,
      title: record.title,
      values: record.values as RecordRow["values"],
      dateFrom: record.dateFrom,
      dateTo: record.dateTo,
      version: record.version,
      createdById: userRef(record.createdById),
      updatedById: userRef(record.updatedById),
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
      externalId: record.externalId,
    })),
    links: links.map((link): LinkRow => {
      const external = !inProject.has(link.targetId);
      const targetProject = external ? externalProjects.get(link.targetId) : undefined;
      return { sourceId: link.sourceId, fieldKey: link.fieldKey, targetId: link.targetId, external, ...(targetProject ? { targetProject } : {}) };
    }),
    media: media.map((row): MediaRow => ({
      id: row.id,
      recordId: row.recordId,
      fieldKey: row.fieldKey,
      kind: row.kind,
      mime: row.mime,
      size: row.size,
      width: row.width,
      height: row.height,
      durationSeconds: row.durationSeconds,
      view: row.view,
      originalName: row.originalName,
      storageKey: row.storageKey,
      sha256: row.sha256,
      createdAt: row.createdAt.toISOString(),
    })),
    audit: auditEvents.map((event): AuditRow => ({
      id: event.id,
      at: event.at.toISOString(),
      actorId: userRef(event.actorId),
      action: event.action,
      targetType: event.targetType,
      targetId: event.targetId,
      details: event.details as AuditRow["details"],
    })),
    vectors: null,
    versions: versions.map((version): RecordVersionRow => ({
      recordId: version.recordId,
      version: version.version,
      projectId: version.projectId,
      sectionId: version.sectionId,
      title: version.title,
      values: version.values as RecordVersionRow["values"],
      savedAt: version.savedAt.toISOString(),
      savedById: userRef(version.savedById),
      via: version.via as RecordVersionRow["via"],
      details: version.details as RecordVersionRow["details"],
    })),
  };

  let vectors: BackupManifest["vectors"] = null;
  if (options.withVectors) {
    const space = await getActiveIndexSpace(sql);
    if (!space) throw new AppError("conflict", "There is no active index space, so there are no vectors to back up; leave out --with-vectors.");
    const rows = await sql.query<{ embedded_text: string; embedding: string }>(
      `SELECT DISTINCT ON (embedded_text) embedded_text, embedding::text AS embedding
         FROM chunks WHERE index_space_id = $1 AND record_id = ANY($2::text[]) AND embedding IS NOT NULL
        ORDER BY embedded_text`,
      [space.id, recordIds],
    );
    tables.vectors = rows.map((row): VectorRow => ({ textHash: embeddingTextHash(row.embedded_text), embedding: row.embedding }));
    vectors = { provider: space.provider, model: space.model, dimension: space.dimension };
  }

  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const [table, name] of Object.entries(tableEntries) as [keyof typeof tableEntries, string][]) {
    const rows = tables[table];
    if (rows) files.push({ name, bytes: toJsonLines(rows) });
  }
  for (const row of media) {
    if (!storageKeyPattern.test(row.storageKey)) throw new AppError("internal", `Media ${row.id} has a storage key Mnemo did not make (${row.storageKey}).`);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(storagePath(options.storageDir, row.storageKey)));
    } catch {
      throw new AppError("conflict", `The file of media ${row.id} (${row.originalName}) is missing from the storage directory; the backup was not made.`);
    }
    files.push({ name: `${mediaPrefix}${row.storageKey}`, bytes });
  }

  const { key } = await installationBackupKey(prisma);
  const createdAt = new Date();
  const counts = Object.fromEntries(Object.entries(tables).flatMap(([table, rows]) => (rows ? [[table, rows.length]] : [])));
  counts.mediaFiles = media.length;
  const manifest = buildManifest(
    {
      appVersion: packageJson.version,
      createdAt: createdAt.toISOString(),
      project: { id: project.id, slug: project.slug, name: project.name },
      counts,
      vectors,
    },
    files,
    key.id,
  );
  const bytes = writeZip([...signedManifestEntries(manifest, key), ...files], { at: createdAt });
  await audit(prisma, {
    actorId: principal.userId === "system" ? null : principal.userId,
    action: "project.backup",
    targetType: "project",
    targetId: project.id,
    projectId: project.id,
    details: { withVectors: Boolean(options.withVectors), records: records.length, media: media.length, bytes: bytes.byteLength },
  });
  const stamp = createdAt.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return { fileName: `mnemo-${project.slug}-${stamp}.zip`, bytes, manifest };
}
