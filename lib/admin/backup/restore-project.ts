import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { readZip } from "../../archive/import/read-zip";
import { forgetSections } from "../../archive/sections";
import { forgetProjectSets } from "../../auth/load-principal";
import { storagePath } from "../../archive/media-storage";
import { Prisma, type PrismaClient } from "../../db/generated/client";
import { keepVersionsAs } from "../../db/record-versions";
import { AppError } from "../../errors";
import { newProjectSchema } from "../people/people-schemas";
import {
  type BackupManifest,
  manifestEntry,
  mediaPrefix,
  parseJsonLines,
  parseManifest,
  sha256Hex,
  signatureEntry,
  storageKeyPattern,
  tableEntries,
  verifyEntries,
} from "./backup-format";
import { installationBackupKey } from "./backup-key";
import { type BackupKey, checkSignature, type SignatureCheck } from "./backup-signature";
import {
  auditRowSchema,
  embedGroupRowSchema,
  linkRowSchema,
  mediaRowSchema,
  membershipRowSchema,
  projectRowSchema,
  recordRowSchema,
  recordVersionRowSchema,
  sectionRowSchema,
  userRowSchema,
  vectorRowSchema,
} from "./backup-rows";

export interface RestoreProjectOptions {
  bytes: Uint8Array;
  storageDir: string;
  /** Restore under this slug instead of the archived one. */
  asSlug?: string;
  /** Keys besides the installation's that may have signed the archive (another installation's: `--key`). */
  keys?: readonly BackupKey[];
  /** Restore an archive whose signature cannot be checked: unsigned, or signed by a key not given (`--trust-unsigned`). */
  trustUnsigned?: boolean;
}

export interface RestoreReport {
  projectId: string;
  slug: string;
  /** Whether the project was created (false: an existing project of that slug was updated). */
  createdProject: boolean;
  records: number;
  sectionsCreated: string[];
  sectionsMerged: string[];
  embedGroupsCreated: number;
  links: number;
  /**
   * Links to records of other projects that this installation does not hold yet: kept in the
   * records' values (not as links), and linked when those records arrive (a later restore).
   */
  danglingLinks: number;
  /** The projects those links point into (as the backup names them; null for older backups). */
  missingProjects: { slug: string | null; name: string | null; links: number }[];
  /** Links from records already here (other projects) into the restored records, made now. */
  relinked: number;
  media: number;
  mediaFilesWritten: number;
  auditEvents: number;
  /** Versions of the records' history taken from the backup (a record here keeps its own). */
  versions: number;
  memberships: number;
  /** Members whose email has no user here: their memberships were left out. */
  unknownMembers: string[];
  /** "restored" (n embeddings), "not in the backup", or why they were left out. */
  vectors: string;
  queued: number;
  /** How the archive's signature was checked: signed by a key given, or restored unverified (trustUnsigned) and why. */
  signature: SignatureCheck;
}

/** Archives are read in memory; this bounds what one may unpack to. */
const restoreZipLimits = { maxEntries: 65_535, maxTotalBytes: 4 * 1024 * 1024 * 1024 - 1 };

function refuse(message: string): never {
  throw new AppError("bad_request", message);
}

/**
 * Restores a project backup (export-project.ts) into this installation, all or nothing:
 * 1. the zip is read and every entry checked against the manifest's SHA-256 (a changed entry is
 *    refused by name), the manifest against its signature under the installation's key or one
 *    given (backup-signature.ts: an unsigned archive, or one signed by a key not given, only with
 *    `trustUnsigned`; a signature that does not match, never), every row checked by its schema
 *    and the rows against each other;
 * 2. the database is read, still without writing: a project of the slug is the one restored
 *    into, else the archived id is used (refused when it is taken under another slug); a record
 *    or media id that exists in another project is refused (a backup cannot copy a project inside
 *    the installation it came from); sections merge by slug, refused when a field of the backup
 *    is missing or of another type in the existing section;
 * 3. the media files are written (removed again if the transaction fails), then one transaction
 *    upserts everything by id (memberships by user, embed groups by section and slug: existing
 *    groups are kept; a record here that the backup holds otherwise becomes a new version of it,
 *    and the backup's history joins the records' own), replaces the records' links, restores the embeddings into the cache when
 *    the active index space has the backup's model, and queues every record for indexing.
 * Users are never created: memberships and authorship map by email, and unknown emails are
 * reported. Running it twice leaves the database as once. Admins only (the CLI acts as system).
 */
export async function restoreProject(prisma: PrismaClient, principal: Principal, options: RestoreProjectOptions): Promise<RestoreReport> {
  assertAdmin(principal);
  const zip = await readZip(options.bytes, restoreZipLimits);
  const contents = new Map<string, Uint8Array>();
  for (const entry of zip.entries) contents.set(entry.name, await zip.read(entry));
  const manifest = parseManifest(contents.get(manifestEntry));
  verifyEntries(manifest, contents);
  const { key } = await installationBackupKey(prisma);
  const signature = checkSignature({
    manifest,
    manifestBytes: contents.get(manifestEntry)!,
    signatureBytes: contents.get(signatureEntry),
    keys: [key, ...(options.keys ?? [])],
    trustUnsigned: options.trustUnsigned ?? false,
  });

  const table = <Schema extends Parameters<typeof parseJsonLines>[2]>(name: keyof typeof tableEntries, schema: Schema) =>
    parseJsonLines(contents.get(tableEntries[name]) ?? new Uint8Array(), tableEntries[name], schema);
  const [project, ...moreProjects] = table("project", projectRowSchema);
  if (!project || moreProjects.length) refuse(`The backup's ${tableEntries.project} must hold exactly one project.`);
  if (project.id !== manifest.project.id) refuse(`The backup's ${tableEntries.project} is not the project its manifest names.`);
  const users = table("users", userRowSchema);
  const memberships = table("memberships", membershipRowSchema);
  const sections = table("sections", sectionRowSchema);
  const groups = table("embedGroups", embedGroupRowSchema);
  const records = table("records", recordRowSchema);
  const links = table("links", linkRowSchema);
  const media = table("media", mediaRowSchema);
  const auditRows = table("audit", auditRowSchema);
  const vectorRows = manifest.vectors ? table("vectors", vectorRowSchema) : [];
  const versionRows = table("versions", recordVersionRowSchema);
  checkConsistency({ manifest, contents, users, memberships, sections, groups, records, links, media, auditRows, versionRows });

  const slug = options.asSlug ?? project.slug;
  if (options.asSlug !== undefined) {
    const parsed = newProjectSchema.shape.slug.safeParse(options.asSlug);
    if (!parsed.success) refuse(parsed.error.issues[0]?.message ?? "Give a valid slug.");
  }

  // 2. Read, decide, refuse — nothing written yet.
  const existingProject = await prisma.project.findUnique({ where: { slug } });
  let projectId = existingProject?.id;
  if (!projectId) {
    const holder = await prisma.project.findUnique({ where: { id: project.id } });
    if (holder)
      refuse(
        `This installation already holds the archived project as “${holder.slug}”; restore it under that slug (a backup keeps its records' ids, so it cannot copy a project within one installation).`,
      );
    projectId = project.id;
  }
  const recordIds = records.map((record) => record.id);
  const elsewhere = await prisma.record.findFirst({
    where: { id: { in: recordIds }, projectId: { not: projectId } },
    select: { id: true, project: { select: { slug: true } } },
  });
  if (elsewhere)
    refuse(
      `Record ${elsewhere.id} of the backup already exists here in project “${elsewhere.project.slug}”; nothing was restored (a backup keeps its records' ids, so it cannot copy a project within one installation).`,
    );
  const mediaIds = media.map((row) => row.id);
  const mediaElsewhere = await prisma.media.findFirst({
    where: {
      OR: [
        { id: { in: mediaIds }, projectId: { not: projectId } },
        { storageKey: { in: media.map((row) => row.storageKey) }, id: { notIn: mediaIds } },
      ],
    },
    select: { id: true },
  });
  if (mediaElsewhere) refuse(`Media ${mediaElsewhere.id} of the backup already exists here in another project, or under another id; nothing was restored.`);

  const sectionIds = new Map<string, string>();
  const sectionsCreated: typeof sections = [];
  const sectionsMerged: string[] = [];
  const existingSections = await prisma.section.findMany({
    where: { OR: [{ slug: { in: sections.map((section) => section.slug) } }, { id: { in: sections.map((section) => section.id) } }] },
  });
  for (const section of sections) {
    const existing = existingSections.find((candidate) => candidate.slug === section.slug);
    if (existing) {
      const fields = existing.fields as { key: string; type: string; targetSection?: string }[];
      for (const field of section.fields) {
        const here = fields.find((candidate) => candidate.key === field.key);
        const target = field.type === "relation" ? field.targetSection : undefined;
        if (!here || here.type !== field.type || (target !== undefined && here.targetSection !== target)) {
          refuse(
            `The section “${section.slug}” exists here with other fields: the backup's field “${field.key}” (${field.type}${target ? ` → ${target}` : ""}) is ${here ? `a ${here.type}${here.targetSection ? ` → ${here.targetSection}` : ""} field here` : "missing here"}. Nothing was restored; make the fields agree first.`,
          );
        }
      }
      sectionIds.set(section.id, existing.id);
      sectionsMerged.push(section.slug);
    } else {
      const idTaken = existingSections.some((candidate) => candidate.id === section.id);
      const id = idTaken ? randomUUID() : section.id;
      sectionIds.set(section.id, id);
      sectionsCreated.push({ ...section, id });
    }
  }
  const localSection = (id: string) => sectionIds.get(id)!;

  const externalIds = records.filter((record) => record.externalId !== null);
  if (externalIds.length) {
    const taken = await prisma.record.findFirst({
      where: { OR: externalIds.map((record) => ({ sectionId: localSection(record.sectionId), externalId: record.externalId, id: { not: record.id } })) },
      select: { id: true, externalId: true, section: { select: { slug: true } } },
    });
    if (taken)
      refuse(
        `The catalogue number “${taken.externalId}” is already record ${taken.id} of section “${taken.section.slug}” here, and another record in the backup; nothing was restored.`,
      );
  }
  if (manifest.vectors) {
    const dimension = manifest.vectors.dimension;
    const wrong = vectorRows.find((row) => row.embedding.split(",").length !== dimension);
    if (wrong) refuse(`The backup's ${tableEntries.vectors} holds an embedding that does not have the ${dimension} dimensions its manifest names.`);
  }

  const existingGroups = await prisma.embedGroup.findMany({
    where: { sectionId: { in: [...sectionIds.values()] } },
    select: { id: true, sectionId: true, slug: true },
  });
  const groupIdsTaken = new Set(
    (await prisma.embedGroup.findMany({ where: { id: { in: groups.map((group) => group.id) } }, select: { id: true } })).map((group) => group.id),
  );
  const groupsToCreate = groups
    .filter((group) => !existingGroups.some((existing) => existing.sectionId === localSection(group.sectionId) && existing.slug === group.slug))
    .map((group) => ({ ...group, id: groupIdsTaken.has(group.id) ? randomUUID() : group.id, sectionId: localSection(group.sectionId) }));

  const localUsers = await prisma.user.findMany({ where: { email: { in: users.map((user) => user.email.toLowerCase()) } }, select: { id: true, email: true } });
  const userIds = new Map(
    users.flatMap((user) => {
      const local = localUsers.find((candidate) => candidate.email === user.email.toLowerCase());
      return local ? [[user.id, local.id] as const] : [];
    }),
  );
  const localUser = (id: string | null) => (id ? (userIds.get(id) ?? null) : null);
  const unknownMembers = memberships
    .filter((membership) => !userIds.has(membership.userId))
    .map((membership) => users.find((user) => user.id === membership.userId)!.email);

  const externalTargets = [...new Set(links.filter((link) => link.external).map((link) => link.targetId))];
  const presentTargets = new Set((await prisma.record.findMany({ where: { id: { in: externalTargets } }, select: { id: true } })).map((record) => record.id));
  const keptLinks = links.filter((link) => !link.external || presentTargets.has(link.targetId));
  const missingProjects = new Map<string, { slug: string | null; name: string | null; links: number }>();
  for (const link of links) {
    if (!link.external || presentTargets.has(link.targetId)) continue;
    const key = link.targetProject?.slug ?? "";
    const entry = missingProjects.get(key) ?? { slug: link.targetProject?.slug ?? null, name: link.targetProject?.name ?? null, links: 0 };
    entry.links++;
    missingProjects.set(key, entry);
  }

  const existingMedia = new Set((await prisma.media.findMany({ where: { id: { in: mediaIds } }, select: { id: true } })).map((row) => row.id));
  const existingRecords = new Map(
    (
      await prisma.record.findMany({
        where: { id: { in: recordIds } },
        select: { id: true, version: true, sectionId: true, projectId: true, title: true, values: true, dateFrom: true, dateTo: true, externalId: true },
      })
    ).map((record) => [record.id, record]),
  );

  // 3. The files, then the rows in one transaction.
  const written: string[] = [];
  try {
    for (const row of media) {
      const path = storagePath(options.storageDir, row.storageKey);
      const present = await readFile(path).then(
        (bytes) => sha256Hex(bytes) === row.sha256,
        () => false,
      );
      if (present) continue;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, contents.get(`${mediaPrefix}${row.storageKey}`)!);
      written.push(row.storageKey);
    }
    const report = await prisma.$transaction(
      async (tx) => {
        const projectData = { name: project.name, description: project.description, restricted: project.restricted };
        if (existingProject) await tx.project.update({ where: { id: projectId }, data: projectData });
        else await tx.project.create({ data: { id: projectId, slug, createdAt: project.createdAt, ...projectData } });

        for (const section of sectionsCreated) {
          await tx.section.create({
            data: {
              id: section.id,
              slug: section.slug,
              name: section.name,
              description: section.description,
              fields: section.fields as Prisma.InputJsonValue,
              egressPolicy: section.egressPolicy,
              objectContext: section.objectContext === null ? Prisma.DbNull : (section.objectContext as Prisma.InputJsonValue),
              answerPrompt: section.answerPrompt,
              position: section.position,
              createdAt: section.createdAt,
            },
          });
        }
        if (groupsToCreate.length) {
          await tx.embedGroup.createMany({ data: groupsToCreate.map((group) => ({ ...group, fields: group.fields as Prisma.InputJsonValue })) });
        }

        let restoredMemberships = 0;
        for (const membership of memberships) {
          const userId = userIds.get(membership.userId);
          if (!userId) continue;
          await tx.membership.upsert({
            where: { userId_projectId: { userId, projectId } },
            create: { userId, projectId, role: membership.role, createdAt: membership.createdAt },
            update: { role: membership.role },
          });
          restoredMemberships++;
        }

        const recordData = (record: (typeof records)[number]) => ({
          sectionId: localSection(record.sectionId),
          projectId,
          title: record.title,
          values: record.values as Prisma.InputJsonValue,
          dateFrom: record.dateFrom,
          dateTo: record.dateTo,
          version: record.version,
          createdById: localUser(record.createdById),
          updatedById: localUser(record.updatedById),
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
          externalId: record.externalId,
        });
        // Every record written here keeps that version in its history, as the restore's.
        await keepVersionsAs(tx, { via: "project-restore", archivedSlug: project.slug });
        const newRecords = records.filter((record) => !existingRecords.has(record.id));
        if (newRecords.length) await tx.record.createMany({ data: newRecords.map((record) => ({ id: record.id, ...recordData(record) })) });
        // A record here that the backup holds otherwise is saved anew on top of its history, at a
        // version above both its own and the backup's (an older state back is a new version, never
        // a reused number); one the backup holds as it is stays untouched, so a second run writes
        // nothing. `historyCeiling`: the highest version of the backup's history each may take.
        const historyCeiling = new Map<string, number>();
        for (const record of records) {
          const here = existingRecords.get(record.id);
          if (!here) continue;
          const data = recordData(record);
          if (sameRecordContent(here, data)) {
            historyCeiling.set(record.id, here.version);
            continue;
          }
          const version = Math.max(here.version, record.version) + 1;
          historyCeiling.set(record.id, version - 1);
          await tx.record.update({ where: { id: record.id }, data: { ...data, version, updatedById: actorIdOf(principal), updatedAt: new Date() } });
        }
        // The backup's history. A new record's is its whole history (replacing the version its
        // insert just kept, which the backup holds too); a record here keeps its own and gains only the versions it lacks, up to
        // its ceiling (a number above is its next save's).
        const versionData = (row: (typeof versionRows)[number]) => ({
          recordId: row.recordId,
          version: row.version,
          projectId: row.projectId === project.id ? projectId : row.projectId,
          sectionId: localSection(row.sectionId),
          title: row.title,
          values: row.values as Prisma.InputJsonValue,
          savedAt: row.savedAt,
          savedById: localUser(row.savedById),
          via: row.via,
          details: row.details as Prisma.InputJsonValue,
        });
        const newIds = new Set(newRecords.map((record) => record.id));
        const newHistory = versionRows.filter((row) => newIds.has(row.recordId));
        if (newHistory.length) {
          await tx.$executeRaw`DELETE FROM record_versions v USING unnest(${newHistory.map((row) => row.recordId)}::text[], ${newHistory.map((row) => row.version)}::int[]) AS t(r, n)
            WHERE v.record_id = t.r AND v.version = t.n`;
          await tx.recordVersion.createMany({ data: newHistory.map(versionData) });
        }
        const addedHistory = versionRows.filter((row) => {
          const ceiling = historyCeiling.get(row.recordId);
          return ceiling !== undefined && row.version <= ceiling;
        });
        if (addedHistory.length) await tx.recordVersion.createMany({ data: addedHistory.map(versionData), skipDuplicates: true });

        await tx.recordLink.deleteMany({ where: { sourceId: { in: recordIds } } });
        if (keptLinks.length) await tx.recordLink.createMany({ data: keptLinks.map(({ sourceId, fieldKey, targetId }) => ({ sourceId, fieldKey, targetId })) });
        const relinkedSources = await linkRecordsPointingInto(tx, recordIds);

        const newMedia = media.filter((row) => !existingMedia.has(row.id));
        if (newMedia.length) {
          await tx.media.createMany({
            data: newMedia.map((row) => ({
              ...row,
              projectId,
              // What the worker derives (thumbnail, streamable copy, peaks, scan pages) is made again.
              imageCheck: row.kind === "image" ? ("pending" as const) : null,
              intake: row.kind === "audio" || row.kind === "video" ? ("pending" as const) : null,
            })),
          });
        }
        for (const row of media) {
          if (existingMedia.has(row.id))
            await tx.media.update({
              where: { id: row.id },
              data: { recordId: row.recordId, fieldKey: row.fieldKey, view: row.view, originalName: row.originalName },
            });
        }

        if (auditRows.length) {
          await tx.auditEvent.createMany({
            data: auditRows.map((event) => ({ ...event, actorId: localUser(event.actorId), projectId, details: event.details as Prisma.InputJsonValue })),
            skipDuplicates: true,
          });
        }

        let vectors = "not in the backup";
        if (manifest.vectors) {
          const [space] = await tx.$queryRaw<
            { id: string; provider: string; model: string; dimension: number }[]
          >`SELECT id, provider, model, dimension FROM index_spaces WHERE status = 'active'`;
          const wanted = manifest.vectors;
          if (!space) vectors = "left out: there is no active index space here";
          else if (space.provider !== wanted.provider || space.model !== wanted.model || space.dimension !== wanted.dimension) {
            vectors = `left out: the active index space here is ${space.provider}/${space.model} (${space.dimension}), the backup's ${wanted.provider}/${wanted.model} (${wanted.dimension})`;
          } else {
            await tx.$executeRaw`INSERT INTO embedding_cache (index_space_id, text_hash, embedding)
              SELECT ${space.id}, h, v::vector FROM unnest(${vectorRows.map((row) => row.textHash)}::text[], ${vectorRows.map((row) => row.embedding)}::text[]) AS t(h, v)
              ON CONFLICT DO NOTHING`;
            vectors = `restored (${vectorRows.length} embeddings, used as the indexing runs)`;
          }
        }

        // The restore's own entry: its id follows from the archive and the project, so a second
        // restore of the same archive finds it already there.
        const restoreId = uuidFrom(sha256Hex(`${manifest.entries.map((entry) => entry.sha256).join()}:${projectId}`));
        await tx.auditEvent.createMany({
          data: [
            {
              id: restoreId,
              actorId: principal.userId === "system" ? null : principal.userId,
              action: "project.restore",
              targetType: "project",
              targetId: projectId,
              projectId,
              details: {
                slug,
                archivedSlug: project.slug,
                records: records.length,
                createdAt: manifest.createdAt,
                signature: signature.status,
                keyId: signature.keyId,
              },
            },
          ],
          skipDuplicates: true,
        });

        // The restored records, and the records here whose passages now resolve a link into them.
        const toIndex = [...new Set([...recordIds, ...relinkedSources.map((link) => link.sourceId)])];
        const queued = await tx.$executeRaw`INSERT INTO index_queue (id, record_id, reason, status, attempts, available_at, created_at, updated_at)
          SELECT gen_random_uuid()::text, r, 'restore', 'pending', 0, now(), now(), now() FROM unnest(${toIndex}::text[]) AS t(r) ORDER BY r
          ON CONFLICT (record_id) DO UPDATE SET status = 'pending', attempts = 0, available_at = now(), reason = EXCLUDED.reason,
            locked_at = NULL, locked_by = NULL, last_error = NULL, updated_at = now()`;
        return { restoredMemberships, vectors, queued, relinked: relinkedSources.length, versions: newHistory.length + addedHistory.length };
      },
      { timeout: 600_000, maxWait: 60_000 },
    );
    // Memberships and sections may have come with it: this process reads them again at once.
    forgetProjectSets(prisma);
    forgetSections(prisma);
    return {
      projectId,
      slug,
      createdProject: !existingProject,
      records: records.length,
      sectionsCreated: sectionsCreated.map((section) => section.slug),
      sectionsMerged,
      embedGroupsCreated: groupsToCreate.length,
      links: keptLinks.length,
      danglingLinks: links.length - keptLinks.length,
      missingProjects: [...missingProjects.values()].sort((a, b) => b.links - a.links || (a.slug ?? "").localeCompare(b.slug ?? "")),
      relinked: report.relinked,
      media: media.length,
      mediaFilesWritten: written.length,
      auditEvents: auditRows.length,
      versions: report.versions,
      memberships: report.restoredMemberships,
      unknownMembers,
      vectors: report.vectors,
      queued: report.queued,
      signature,
    };
  } catch (error) {
    await Promise.all(written.map((key) => rm(storagePath(options.storageDir, key), { force: true })));
    throw error;
  }
}

interface RecordContent {
  sectionId: string;
  projectId: string;
  title: string;
  values: unknown;
  dateFrom: number | null;
  dateTo: number | null;
  externalId: string | null;
}

function sameRecordContent(a: RecordContent, b: RecordContent): boolean {
  return (
    a.sectionId === b.sectionId &&
    a.projectId === b.projectId &&
    a.title === b.title &&
    a.dateFrom === b.dateFrom &&
    a.dateTo === b.dateTo &&
    a.externalId === b.externalId &&
    canonicalJson(a.values) === canonicalJson(b.values)
  );
}

/** JSON with object keys sorted, so two values equal as jsonb compare equal as text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function uuidFrom(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The rows refer only to each other, and every media row has its file with its checksum. */
function checkConsistency(input: {
  manifest: BackupManifest;
  contents: ReadonlyMap<string, Uint8Array>;
  users: { id: string; email: string }[];
  memberships: { userId: string }[];
  sections: { id: string; slug: string }[];
  groups: { sectionId: string; slug: string }[];
  records: { id: string; sectionId: string; version: number; createdById: string | null; updatedById: string | null }[];
  links: { sourceId: string; targetId: string; external: boolean }[];
  media: { id: string; recordId: string | null; storageKey: string; sha256: string; size: number }[];
  auditRows: { actorId: string | null }[];
  versionRows: { recordId: string; version: number; sectionId: string; savedById: string | null }[];
}): void {
  const unique = (ids: string[], what: string) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) refuse(`The backup holds ${what} ${id} twice.`);
      seen.add(id);
    }
    return seen;
  };
  const users = unique(
    input.users.map((user) => user.id),
    "user",
  );
  unique(
    input.users.map((user) => user.email.toLowerCase()),
    "the user email",
  );
  const sections = unique(
    input.sections.map((section) => section.id),
    "section",
  );
  unique(
    input.sections.map((section) => section.slug),
    "section slug",
  );
  unique(
    input.groups.map((group) => `${group.sectionId}/${group.slug}`),
    "embed group",
  );
  const records = unique(
    input.records.map((record) => record.id),
    "record",
  );
  unique(
    input.media.map((row) => row.id),
    "media",
  );
  unique(
    input.media.map((row) => row.storageKey),
    "the media file",
  );
  unique(
    input.memberships.map((membership) => membership.userId),
    "the membership of user",
  );
  const user = (id: string | null, where: string) => {
    if (id !== null && !users.has(id)) refuse(`The backup's ${where} names user ${id}, whom ${tableEntries.users} does not hold.`);
  };
  for (const membership of input.memberships) user(membership.userId, tableEntries.memberships);
  for (const event of input.auditRows) user(event.actorId, tableEntries.audit);
  for (const group of input.groups)
    if (!sections.has(group.sectionId)) refuse(`The backup's embed group “${group.slug}” belongs to a section it does not hold.`);
  for (const record of input.records) {
    if (!sections.has(record.sectionId)) refuse(`The backup's record ${record.id} belongs to a section it does not hold.`);
    user(record.createdById, tableEntries.records);
    user(record.updatedById, tableEntries.records);
  }
  const recordsById = new Map(input.records.map((record) => [record.id, record]));
  unique(
    input.versionRows.map((row) => `${row.recordId} version ${row.version}`),
    "the record history row of",
  );
  for (const row of input.versionRows) {
    const record = recordsById.get(row.recordId);
    if (!record) refuse(`The backup's ${tableEntries.versions} holds a version of record ${row.recordId}, which it does not hold.`);
    if (row.sectionId !== record.sectionId)
      refuse(`The backup's ${tableEntries.versions} puts version ${row.version} of record ${row.recordId} in another section than the record's.`);
    if (row.version > record.version)
      refuse(`The backup's ${tableEntries.versions} holds version ${row.version} of record ${row.recordId}, above the record's own version ${record.version}.`);
    user(row.savedById, tableEntries.versions);
  }
  for (const link of input.links) {
    if (!records.has(link.sourceId)) refuse(`The backup's ${tableEntries.links} holds a link from record ${link.sourceId}, which it does not hold.`);
    if (link.external === records.has(link.targetId))
      refuse(`The backup's ${tableEntries.links} marks the link to ${link.targetId} wrongly as ${link.external ? "external" : "internal"}.`);
  }
  for (const row of input.media) {
    if (row.recordId !== null && !records.has(row.recordId)) refuse(`The backup's media ${row.id} belongs to a record it does not hold.`);
    if (!storageKeyPattern.test(row.storageKey)) refuse(`The backup's media ${row.id} has a storage key Mnemo does not make.`);
    const file = input.contents.get(`${mediaPrefix}${row.storageKey}`);
    if (!file) refuse(`The backup is incomplete: ${mediaPrefix}${row.storageKey} (media ${row.id}) is missing.`);
    if (file.byteLength !== row.size || sha256Hex(file) !== row.sha256)
      refuse(`The backup's ${mediaPrefix}${row.storageKey} is not the file its media row describes.`);
  }
  const files = input.manifest.entries.filter((entry) => entry.name.startsWith(mediaPrefix)).length;
  if (files !== input.media.length) refuse("The backup holds media files that no media row names.");
}

/**
 * Records already in the installation whose relation values name one of `targetIds` but hold no
 * link to it: a project restored earlier that linked into this one before it was here. Their
 * links are made now (the value was kept when that restore left the link out), in the restore's
 * transaction; returns the links made, so their sources are indexed again with the target's label.
 */
async function linkRecordsPointingInto(tx: Prisma.TransactionClient, targetIds: string[]): Promise<{ sourceId: string }[]> {
  if (targetIds.length === 0) return [];
  const sections = await tx.section.findMany({ select: { id: true, fields: true } });
  const made: { sourceId: string }[] = [];
  for (const section of sections) {
    for (const field of section.fields as { key: string; type: string }[]) {
      if (field.type !== "relation") continue;
      const rows = await tx.$queryRaw<{ source_id: string }[]>`
        INSERT INTO record_links (source_id, field_key, target_id)
        SELECT r.id, ${field.key}, t.target
          FROM records r
         CROSS JOIN LATERAL jsonb_array_elements_text(
                 CASE jsonb_typeof(r."values" -> ${field.key})
                   WHEN 'array' THEN r."values" -> ${field.key}
                   WHEN 'string' THEN jsonb_build_array(r."values" -> ${field.key})
                   ELSE '[]'::jsonb END) AS t(target)
         WHERE r.section_id = ${section.id} AND t.target = ANY(${targetIds}::text[])
        ON CONFLICT DO NOTHING
        RETURNING source_id`;
      made.push(...rows.map((row) => ({ sourceId: row.source_id })));
    }
  }
  return made;
}
