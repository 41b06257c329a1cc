/**
 * Seeds the demo archive into an empty database: projects with different members (one
 * restricted), a login per role, seven sections, and their records and media. Records go
 * through importRecords (the same validation as the editor, with indexing outbox rows).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Prisma, PrismaClient } from "../../lib/db/generated/client";
import { importRecords, type ImportItem } from "../../lib/archive/import-records";
import { writeMediaFile } from "../../lib/archive/media-storage";
import { oggDurationSeconds } from "../../lib/archive/media-types";
import { hashPassword } from "../../lib/auth/passwords";
import type { SqlExecutor } from "../../lib/db/sql-executor";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { tuningGoldenSetName } from "../../lib/admin/fusion-calibration";
import { gradeRecords, loadArchiveGolden } from "./archive-golden";
import { demoEmbedGroups } from "./demo-embed-groups";
import { demoObjectContexts } from "./demo-object-contexts";
import { scannedDocument } from "./scanned-documents";
import { generateCeramics, ceramicsSection } from "./ceramics";
import { coinSection, loadCoins } from "./coins";
import { loadMuseumObjects, museumObjectSection } from "./museum-objects";
import type { DemoObject, DemoSection } from "./object-images";
import { loadTextCollections, oralHistorySection, peopleSection, placeSection, publicationSection, type Person } from "./text-collections";

export interface DemoLogin {
  email: string;
  password: string;
  role: "admin" | "curator" | "researcher";
  sees: string;
}

export const demoLogins: DemoLogin[] = [
  { email: "admin@mnemo.demo", password: "mnemo-admin", role: "admin", sees: "everything, including the restricted mine project" },
  { email: "curator@mnemo.demo", password: "mnemo-curator", role: "curator", sees: "edits Public Collections, Drowned Valley and Harbour Trades" },
  { email: "researcher@mnemo.demo", password: "mnemo-researcher", role: "researcher", sees: "reads Public Collections, Drowned Valley and Harbour Trades" },
  { email: "mine.researcher@mnemo.demo", password: "mnemo-mine", role: "researcher", sees: "reads Public Collections and the restricted Mine Closure project" },
];

const projects = [
  {
    slug: "collections",
    name: "Public Collections",
    description: "Coins, ceramics, museum objects and reference records open to every member.",
    restricted: false,
    isPublic: true,
    publicSince: new Date("2026-01-01T00:00:00Z"),
  },
  {
    slug: "valley",
    name: "Voices of the Drowned Valley",
    description: "Sant Romà de Vall and the Segrell reservoir: interviews and reports.",
    restricted: false,
  },
  { slug: "harbour", name: "Harbour Trades", description: "Port de la Calma: net menders, salt fish, caulkers and the fish auction.", restricted: false },
  {
    slug: "mine",
    name: "Mine Closure Testimonies",
    description: "Minas de Alcaraví, 1974–1993. Sensitive testimonies; access restricted to named researchers.",
    restricted: true,
  },
] as const;

const memberships: Record<string, { project: string; role: "reader" | "editor" }[]> = {
  "curator@mnemo.demo": [
    { project: "collections", role: "editor" },
    { project: "valley", role: "editor" },
    { project: "harbour", role: "editor" },
  ],
  "researcher@mnemo.demo": [
    { project: "collections", role: "reader" },
    { project: "valley", role: "reader" },
    { project: "harbour", role: "reader" },
  ],
  "mine.researcher@mnemo.demo": [
    { project: "collections", role: "reader" },
    { project: "mine", role: "reader" },
  ],
};

export interface SeedOptions {
  dataDir: string;
  storageDir: string;
  /** "small" keeps a sample of the large object collections, for tests. */
  size: "full" | "small";
  log?: (line: string) => void;
}

export async function isSeeded(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.user.count()) > 0;
}

export async function seedDemo(prisma: PrismaClient, sql: SqlExecutor, options: SeedOptions): Promise<void> {
  const log = options.log ?? (() => undefined);
  const projectIds: Record<string, string> = {};
  for (const project of projects) projectIds[project.slug] = (await prisma.project.create({ data: project })).id;

  for (const login of demoLogins) {
    const user = await prisma.user.create({
      data: { email: login.email, name: nameOf(login.email), role: login.role, passwordHash: await hashPassword(login.password) },
    });
    for (const membership of memberships[login.email] ?? []) {
      await prisma.membership.create({ data: { userId: user.id, projectId: projectIds[membership.project] ?? "", role: membership.role } });
    }
  }
  log(`projects: ${projects.length}, users: ${demoLogins.length}`);

  const sections: DemoSection[] = [oralHistorySection, publicationSection, peopleSection, placeSection, coinSection, ceramicsSection, museumObjectSection];
  for (const [position, section] of sections.entries()) {
    const objectContext = demoObjectContexts[section.slug];
    await prisma.section.create({
      data: {
        ...section,
        fields: section.fields as unknown as Prisma.InputJsonValue,
        ...(objectContext ? { objectContext: objectContext as unknown as Prisma.InputJsonValue } : {}),
        position,
      },
    });
  }

  for (const [sectionSlug, groups] of Object.entries(demoEmbedGroups)) {
    for (const group of groups) await saveEmbedGroup(prisma, sql, { sectionSlug, group, requeue: false });
  }

  const text = loadTextCollections(options.dataDir);
  const placeIds = new Map(text.places.map((place) => [place.key, randomUUID()]));
  await importRecords(prisma, {
    sectionSlug: placeSection.slug,
    projectId: projectIds.collections ?? "",
    items: text.places.map((place) => ({
      id: placeIds.get(place.key),
      values: {
        name: place.name,
        kind: place.kind,
        coordinates: `${place.latitude.toFixed(4)}, ${place.longitude.toFixed(4)}`,
        description: place.description,
      },
    })),
  });

  // A person belongs to the project they appear in; someone who appears in several, or only
  // in the public collections, is a public record.
  const personProjects = new Map<string, Set<string>>();
  const note = (key: string, project: string) => (personProjects.get(key) ?? personProjects.set(key, new Set()).get(key))?.add(project);
  for (const interview of text.interviews) {
    note(interview.narrator, interview.project);
    note(interview.interviewer, interview.project);
  }
  const people = new Map<string, Person>(text.people.map((person) => [person.key, person]));
  for (const publication of text.publications) {
    for (const author of publication.authors) {
      if (!people.has(author.key)) people.set(author.key, author);
      note(author.key, publication.project);
    }
  }
  const personIds = new Map([...people.keys()].map((key) => [key, randomUUID()]));
  const peopleByProject = new Map<string, ImportItem[]>();
  for (const person of people.values()) {
    const appearsIn = [...(personProjects.get(person.key) ?? [])];
    const project = appearsIn.length === 1 && appearsIn[0] ? appearsIn[0] : "collections";
    const items = peopleByProject.get(project) ?? peopleByProject.set(project, []).get(project) ?? [];
    items.push({
      id: personIds.get(person.key),
      values: {
        name: person.name,
        occupation: person.occupation,
        born: person.born ?? undefined,
        died: person.died ?? undefined,
        biography: person.biography,
        places: (person.places ?? []).map((key) => placeIds.get(key)).filter(Boolean),
      },
    });
  }
  for (const [project, items] of peopleByProject) {
    await importRecords(prisma, { sectionSlug: peopleSection.slug, projectId: projectIds[project] ?? "", items });
  }
  log(`places: ${text.places.length}, people: ${people.size}`);

  for (const project of ["valley", "harbour", "mine"]) {
    const interviews = text.interviews.filter((interview) => interview.project === project);
    const media: Prisma.MediaCreateManyInput[] = [];
    const items: ImportItem[] = [];
    for (const interview of interviews) {
      const recordId = randomUUID();
      const mediaId = randomUUID();
      const bytes = new Uint8Array(readFileSync(join(text.audioDir, interview.audio)));
      const written = await writeMediaFile(options.storageDir, mediaId, "ogg", bytes);
      media.push({
        id: mediaId,
        recordId,
        projectId: projectIds[project] ?? "",
        fieldKey: "recording",
        kind: "audio",
        mime: "audio/ogg",
        size: bytes.byteLength,
        durationSeconds: oggDurationSeconds(bytes) ?? interview.durationSeconds,
        // Read by the index worker like any upload: the editor's waveform (no draft: the
        // transcripts are written already, and Ogg Opus needs no streamable copy).
        intake: "pending",
        originalName: interview.audio,
        ...written,
      });
      items.push({
        id: recordId,
        values: {
          title: interview.title,
          language: interview.language,
          narrator: personIds.get(interview.narrator),
          interviewer: personIds.get(interview.interviewer),
          place: placeIds.get(interview.place),
          recordedOn: interview.recordedOn,
          summary: interview.summary,
          keywords: interview.keywords.join(", "),
          recording: mediaId,
          transcript: interview.turns,
        },
      });
    }
    await importRecords(prisma, { sectionSlug: oralHistorySection.slug, projectId: projectIds[project] ?? "", items });
    await prisma.media.createMany({ data: media });
  }
  log(`oral histories: ${text.interviews.length}`);

  let scannedPages = 0;
  for (const project of ["collections", "valley", "harbour", "mine"]) {
    const publications = text.publications.filter((publication) => publication.project === project);
    const documents = text.scannedDocuments.filter((document) => document.project === project);
    // Documents kept only as scans: their text reaches search through OCR at index time.
    const scans: Awaited<ReturnType<typeof scannedDocument>>[] = [];
    for (const document of documents) {
      const scan = await scannedDocument(document, text.scannedDocuments.indexOf(document), {
        projectId: projectIds[project] ?? "",
        storageDir: options.storageDir,
      });
      scans.push(scan);
      scannedPages += scan.pages;
    }
    const items = [
      ...publications.map((publication) => ({
        values: {
          title: publication.title,
          authors: publication.authors.map((author) => personIds.get(author.key)),
          language: publication.language,
          publicationType: publication.publicationType,
          publishedIn: publication.publishedIn,
          year: String(publication.year),
          abstract: publication.abstract,
          subjects: publication.subjects.join(", "),
          places: publication.places.join(", "),
          body: publication.body,
        },
      })),
      ...documents.map((document, index) => ({
        id: scans[index]?.media.recordId,
        values: {
          title: document.title,
          language: document.language,
          publicationType: document.publicationType,
          publishedIn: document.publishedIn,
          year: String(document.year),
          abstract: document.abstract,
          subjects: document.subjects.join(", "),
          places: document.places.join(", "),
          scan: scans[index]?.media.id,
        },
      })),
    ];
    if (!items.length) continue;
    await importRecords(prisma, { sectionSlug: publicationSection.slug, projectId: projectIds[project] ?? "", items });
    await prisma.media.createMany({ data: scans.map((scan) => scan.media) });
  }
  log(`publications: ${text.publications.length}, scanned documents: ${text.scannedDocuments.length} (${scannedPages} pages for OCR at index time)`);

  const heritageDir = join(options.dataDir, "heritage");
  const sample = <T>(items: T[], count: number) => (options.size === "small" ? items.slice(0, count) : items);
  const objectCollections: [DemoSection, DemoObject[]][] = [
    [coinSection, sample(loadCoins(heritageDir), 120)],
    [ceramicsSection, sample(generateCeramics(), 60)],
    [museumObjectSection, sample(loadMuseumObjects(heritageDir), 80)],
  ];
  for (const [section, objects] of objectCollections) {
    await seedObjects(prisma, section, objects, projectIds.collections ?? "", options);
    log(`${section.slug}: ${objects.length} records with generated images`);
  }
  log(`golden sets: ${await seedGoldenSets(prisma, join(options.dataDir, "archive-golden.json"))} questions`);
}

/** Golden sets kept at most this many expected records a question. */
const maxExpectedPerQuestion = 50;

/**
 * The archive's golden set (written for the demo content) as two golden sets, its dev half and its
 * test half, so the admin pages have questions to measure fusion and thresholds on from the
 * start. Expected records are the graded ones, best grade first; a question whose records the
 * sample (the small demo) left out is skipped.
 */
async function seedGoldenSets(prisma: PrismaClient, path: string): Promise<number> {
  const golden = loadArchiveGolden(path);
  const rows = await prisma.record.findMany({ select: { id: true, title: true, projectId: true, values: true, section: { select: { slug: true } } } });
  const records = rows.map((row) => ({
    id: row.id,
    title: row.title,
    projectId: row.projectId,
    sectionSlug: row.section.slug,
    values: row.values as Record<string, unknown>,
  }));
  let seeded = 0;
  for (const split of ["dev", "test"] as const) {
    const questions = golden.search
      .filter((item) => item.split === split)
      .map((item) => ({
        question: item.query,
        expected: [...gradeRecords(item.relevant, records)]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, maxExpectedPerQuestion)
          .map(([id]) => id),
      }))
      .filter((question) => question.expected.length > 0);
    const name = split === "dev" ? tuningGoldenSetName : "Archive search — test half (report here)";
    await prisma.goldenSet.create({ data: { name, questions } });
    seeded += questions.length;
  }
  return seeded;
}

/** Every n-th demo object is left uncatalogued (typology, period, date). */
export const uncataloguedEvery = 15;

async function seedObjects(prisma: PrismaClient, section: DemoSection, objects: DemoObject[], projectId: string, options: SeedOptions) {
  const batchSize = 200;
  for (let offset = 0; offset < objects.length; offset += batchSize) {
    const batch = objects.slice(offset, offset + batchSize);
    const media: Prisma.MediaCreateManyInput[] = [];
    const items: ImportItem[] = [];
    await Promise.all(
      batch.map(async (object, position) => {
        const recordId = randomUUID();
        const values: Record<string, unknown> = { ...object.fields };
        // One object in fifteen awaits cataloguing: its typology, period and date are left for
        // the curator (and the proposals drawn from its catalogued neighbours).
        const roles = demoObjectContexts[section.slug]?.roles;
        if (roles && (offset + position) % uncataloguedEvery === uncataloguedEvery - 1) {
          for (const key of [roles.typology, roles.period, roles.date]) if (key) delete values[key];
        }
        for (const image of object.images) {
          const mediaId = randomUUID();
          const bytes = new Uint8Array(await image.render());
          const written = await writeMediaFile(options.storageDir, mediaId, "webp", bytes);
          values[image.field] = mediaId;
          media.push({
            id: mediaId,
            recordId,
            projectId,
            fieldKey: image.field,
            kind: "image",
            mime: "image/webp",
            size: bytes.byteLength,
            width: 256,
            height: 256,
            // Rendered by the seed itself through sharp: decoded already.
            imageCheck: "decoded",
            view: image.view,
            originalName: `${object.key}-${image.view}.webp`,
            ...written,
          });
        }
        items.push({ id: recordId, values });
      }),
    );
    await importRecords(prisma, { sectionSlug: section.slug, projectId, items });
    await prisma.media.createMany({ data: media });
  }
}

function nameOf(email: string): string {
  const local = email.split("@")[0] ?? email;
  return local
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(" ");
}
