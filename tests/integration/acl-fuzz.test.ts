import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Principal, canRead, publicReader, systemPrincipal } from "../../lib/acl";
import { deleteGoldenSet, getGoldenSet, listGoldenSets, runGoldenSet, saveGoldenSet } from "../../lib/admin/golden-sets";
import { deleteRecord } from "../../lib/archive/delete-record";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { getRecord } from "../../lib/archive/get-record";
import { readRecordHistory } from "../../lib/archive/record-history";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { recordFacets } from "../../lib/archive/record-facets";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import { mediaResponse } from "../../lib/archive/serve-media";
import { captionsResponse } from "../../lib/http/captions-response";
import { englishTextResponse } from "../../lib/http/english-text-response";
import { createTextTranslator } from "../../lib/rag/embed/text-translation";
import { collectionResponse, manifestResponse } from "../../lib/archive/iiif/iiif-responses";
import { createImageService, imageInfoResponse, imageResponse } from "../../lib/archive/iiif/serve-image";
import { createCaptionTranslator } from "../../lib/rag/embed/caption-translation";
import { handleMcpRequest, maxBatchMessages } from "../../lib/api/mcp-server";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { describeError } from "../../lib/errors";
import { citeRecordResponse, citeSelectionResponse } from "../../lib/http/citation-download";
import { projectBackupResponse } from "../../lib/http/project-backup-download";
import { recordListExportResponse } from "../../lib/http/record-list-download";
import { openSavedSearchResponse, savedSearchResponse, savedSearchRouteParamsSchema, savedSearchesResponse } from "../../lib/http/saved-search-responses";
import { createSavedSearch, newSinceLastVisitCap } from "../../lib/rag/search/saved-searches";
import { oaiResponse } from "../../lib/http/oai-response";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import { ask } from "../../lib/rag/ask/ask";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { characteriseObject } from "../../lib/rag/objects/characterise";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import { listPendingProposals, proposalAccuracy, proposalsForRecord, proposeForUncatalogued } from "../../lib/rag/objects/proposals";
import { searchObjectsByText } from "../../lib/rag/objects/search-objects";
import { findSimilarObjects } from "../../lib/rag/objects/similar-objects";
import { findSimilarRecords } from "../../lib/rag/search/find-similar";
import { searchArchive } from "../../lib/rag/search/search-archive";
import { renderCoinFace } from "../../prisma/seed/render-coin";
import {
  addMember,
  coinContextFor,
  createNotesAndCoins,
  createProject,
  createUser,
  noteFields,
  principalOf,
  temporaryStorageDir,
  testIndexSpace,
} from "../support/factories";
import { callApi, withSteadyBoundaries } from "../support/api-request";
import { mulberry32 } from "../support/seeded-random";
import { type ServiceRuntime, serviceRuntime } from "../support/service-runtime";
import { openTestDatabase } from "../support/test-database";
import { handleResearchRequest } from "../../lib/api/research/research-request";
import { parseConfig } from "../../lib/config";
import { researchModelFromConfig } from "../../lib/llm/research-model";
import { type FakeToolChatServer, type ScriptToolResult, startFakeToolChatServer } from "../support/fake-tool-chat-server";

/**
 * ACL leak fuzzing (bounded here; `npm run test:acl-fuzz` runs many more probes). Canary records
 * with unique marker words live in restricted projects, beside look-alike open records; random
 * principals (random roles and memberships, each with an API token) send random requests through
 * every path: the record list and its facets, record reads and histories, citations (one record and selections), list exports, media,
 * captions (WebVTT/SRT, English too), the English beside a long text's paragraphs, IIIF (manifests, images, collections), search, similar records, ask, similar objects, characterisation,
 * objects by description, proposals, the write operations (API and MCP), golden sets (kept by an admin and
 * by curators, run by one role and viewed, edited, run or deleted by another), saved searches
 * (each person's own, listed with their "new since last visit" counts, and read, renamed, opened
 * or deleted by anyone), the JSON API and MCP. A leak is any secret of a record the principal may not read (its id, chunk ids, media ids,
 * or a word of its text that no query ever contains), or of a golden set they do not keep (its id,
 * a word of its name and questions), or of another person's saved search (its id, a word of its
 * name), anywhere in a response; and a "new since last visit" count that counts a record its
 * owner cannot read (recounted here from the records' rows and an ACL rule stated apart). A request aimed at an unreadable record must get exactly what the same
 * request aimed at a missing one gets; their timings are printed, not asserted.
 * Moves during the run: every so often an admin moves a random record to another project, and the
 * probes that follow go through every path at once — no index worker runs in between — with the
 * record's secrets judged by its new project (scope is never stale, invariant 5).
 * Relations: open notes link restricted ones (their group documents quote the linked titles), so
 * every path meets relation values and linked text; a relation probe compares an open note that
 * links a restricted one with its twin that links a deleted one (denied ≡ missing).
 * Ranking: three identical open notes each hold one made-up word, restricted decoys hold those
 * words different numbers of times; a rank probe asks for the words, swaps the decoys' counts,
 * asks again, and whoever cannot read the decoys must get the same answer byte for byte
 * (statistics per readable scope, invariant 6), while an admin's order follows the swap.
 * MCP batches: JSON-RPC arrays of tool calls over readable and unreadable records, and batches
 * over the maximum, which must get the JSON-RPC error.
 * MNEMO_ACL_FUZZ_PROBES, MNEMO_ACL_FUZZ_SEED and MNEMO_ACL_FUZZ_MOVE_EVERY reproduce a run.
 */
const probeBudget = Number(process.env.MNEMO_ACL_FUZZ_PROBES ?? 360);
const seed = Number(process.env.MNEMO_ACL_FUZZ_SEED ?? Date.now() % 1_000_000);
/** Probes between two moves (each move is followed by one probe of every path). */
const moveEvery = Number(process.env.MNEMO_ACL_FUZZ_MOVE_EVERY ?? 40);

/** A seeded generator, so a failing run can be replayed with its seed. */
function generator(start: number) {
  const next = mulberry32(start);
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)]!;
    },
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof generator>;
const random = generator(seed);

const embedder = createHashEmbedder({ dimension: 64 });
const descriptor = createDescriptorEmbedder();
const words = [
  "harbour",
  "lamp",
  "mine",
  "strike",
  "valley",
  "flood",
  "coin",
  "silver",
  "letter",
  "school",
  "bread",
  "storm",
  "boat",
  "union",
  "church",
  "river",
];

const coinContext = coinContextFor("fz-coins", 0.9);

interface WorldRecord {
  id: string;
  /** The record's project now: moves during the run change it. */
  projectId: string;
  kind: "note" | "coin";
  /** Strings that must never reach a principal who may not read the record. */
  secrets: string[];
  marker: string;
  mediaIds: string[];
  /** Records the relation and rank probes compare: never moved, so their comparisons hold. */
  pinned?: true;
}

let db: Database;
let space: IndexSpace;
let storageDir: string;
let services: ServiceRuntime;
let mover: Principal;
/** The scripted model research mode talks to: its tool results are checked like any answer. */
let researchModel: FakeToolChatServer;
const projects: { id: string; slug: string; restricted: boolean }[] = [];
const world: WorldRecord[] = [];
const people: { principal: Principal; token: string; label: string }[] = [];
/**
 * Records that were ever in the public project: OAI-PMH may name their ids (as deleted) after
 * they leave it, since harvesters were given them — their ids only, nothing else of them.
 */
const everPublic = new Set<string>();

/** Golden sets with their owner; a set's secrets are its id and the hush word in its name and questions. */
interface WorldGoldenSet {
  id: string;
  ownerId: string;
  secrets: string[];
}
const goldenSets: WorldGoldenSet[] = [];

/** Saved searches with their owner; a search's secrets are its id and the hush word in its name. */
interface WorldSavedSearch {
  id: string;
  ownerId: string;
  secrets: string[];
}
const savedSearches: WorldSavedSearch[] = [];

/** Notes with relation values: fields as the demo's, a multiple relation to other notes. */
const fuzzNoteFields: FieldDefinition[] = [
  ...noteFields,
  { key: "related", label: "Related", type: "relation", targetSection: "fz-notes", multiple: true },
  { key: "transcript", label: "Transcript", type: "transcript" },
];

/**
 * The captions route's translator: detection and Apertium stood in for (every transcript read as
 * Spanish, "translated" by tagging each turn), so the English tracks carry the canary words too.
 */
const captionTranslator = createCaptionTranslator({
  detect: async () => ({ language: "es", confidence: 1 }),
  bridge: {
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "stand-in" }),
    translateToEnglish: async (texts) => texts.map((text) => `EN ${text}`),
  },
});

/**
 * The English-beside-paragraphs route's translator, stood in for the same way: every paragraph
 * read as Spanish and "translated" by tagging it, so the English carries the canary words too.
 */
const textTranslator = createTextTranslator({
  detect: async () => ({ language: "es", confidence: 1 }),
  detectContext: async () => ({ shares: {} }),
  bridge: {
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "stand-in" }),
    translateToEnglish: async (texts) => texts.map((text) => `EN ${text}`),
  },
});

/**
 * An open note linking a restricted one, and its twin (same project, same text) linking a note
 * deleted since: for whoever cannot read the restricted note, the two must read alike.
 */
interface RelationPair {
  linking: WorldRecord;
  dangling: WorldRecord;
  target: WorldRecord;
}
const relationPairs: RelationPair[] = [];

/**
 * The rank world: three open notes alike but for one made-up word each, and restricted decoys
 * holding those words in a number of decoys that the rank probe swaps (2, 1, 0 ↔ 0, 1, 2).
 */
const rankWorld = { words: [] as string[], twins: [] as WorldRecord[], decoys: [] as WorldRecord[], swapped: false };

/** What the relation, rank and batch probes find beyond leaks and denied/missing parity: each fails the run. */
const findingKinds = ["relation", "rank", "mcp-batch", "backup", "iiif-collection", "saved-search-count"] as const;
const findings: { kind: (typeof findingKinds)[number]; text: string }[] = [];
const rankTally = { compared: 0, decoyReaders: 0, controlShifts: 0 };
const batchTally = { batches: 0, overMaximum: 0, calls: 0 };
/** Relation searches judged, and those left unjudged while a pair's re-index was queued (a move of its target). */
const relationSearchTally = { judged: 0, awaitingIndex: 0 };

/** The rule, restated independently of lib/acl: admins keep every set, keepers their own. */
function keepsGoldenSet(principal: Principal, set: { ownerId: string } | undefined): boolean {
  if (principal.role === "admin") return true;
  return set !== undefined && set.ownerId === principal.userId && principal.role === "curator" && principal.editableProjectIds.length > 0;
}

function secretsFor(principal: Principal): string[] {
  return [
    ...world.filter((record) => !canRead(principal, { projectId: record.projectId })).flatMap((record) => record.secrets),
    ...goldenSets.filter((set) => !keepsGoldenSet(principal, set)).flatMap((set) => set.secrets),
    ...savedSearches.filter((search) => search.ownerId !== principal.userId).flatMap((search) => search.secrets),
  ];
}

/**
 * What OAI-PMH must never show, whoever calls: anything of a record outside the public project,
 * judged as the public reader (harvesting is never widened to the caller's own projects),
 * except the id of a record harvesters were once given (its deleted header names it).
 */
function secretsForHarvesters(): string[] {
  const harvester = publicReader([projects[0]!.id]);
  return world
    .filter((record) => !canRead(harvester, { projectId: record.projectId }))
    .flatMap((record) => record.secrets.filter((secret) => !(secret === record.id && everPublic.has(record.id))));
}

/** The expected records of a stored set, as sorted id lists per question (to see that a save kept them). */
async function storedExpectations(id: string): Promise<string> {
  const set = await db.prisma.goldenSet.findUnique({ where: { id }, select: { questions: true } });
  return JSON.stringify(
    ((set?.questions ?? []) as { question: string; expected: string[] }[]).map((question) => [question.question, [...question.expected].sort()]),
  );
}

function drainIndex() {
  return runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    drain: true,
    idleMs: 10,
    batchSize: 16,
    objects: { storageDir, imageEmbedders: [descriptor] },
  });
}

function isRestricted(projectId: string): boolean {
  return projects.some((project) => project.restricted && project.id === projectId);
}

/** Saves a note of the world with some values changed, as an admin's form would. */
async function resaveNote(id: string, change: Record<string, unknown>): Promise<void> {
  const row = await db.prisma.record.findUniqueOrThrow({ where: { id } });
  await saveRecord(db.prisma, systemPrincipal, {
    id,
    version: row.version,
    sectionSlug: "fz-notes",
    projectId: row.projectId,
    values: { ...(row.values as Record<string, unknown>), ...change },
  });
}

/**
 * Open notes link restricted ones (and sometimes an open one), so relation values and the linked
 * titles in group documents travel every path; then the pairs the relation probe compares.
 */
async function buildRelations(setup: Random): Promise<void> {
  const notes = world.filter((record) => record.kind === "note");
  const restrictedNotes = notes.filter((record) => isRestricted(record.projectId));
  for (const note of notes.filter((record) => !isRestricted(record.projectId))) {
    if (!setup.chance(0.6)) continue;
    const related = [
      setup.pick(restrictedNotes).id,
      ...(setup.chance(0.5) ? [setup.pick(restrictedNotes).id] : []),
      ...(setup.chance(0.5) ? [setup.pick(notes.filter((other) => other.id !== note.id)).id] : []),
    ];
    await resaveNote(note.id, { related: [...new Set(related)] });
  }
  const openProjects = projects.filter((project) => !project.restricted);
  for (let n = 0; n < 2; n++) {
    const project = setup.pick(openProjects);
    const target = setup.pick(restrictedNotes);
    const ghost = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "fz-notes",
      projectId: project.id,
      values: { title: `Ghost ${randomUUID().slice(0, 8)}` },
    });
    const marker = `pair${n}x${randomUUID().slice(0, 6)}`;
    const values = { title: `Pair ${marker}`, summary: `${setup.pick(words)} ${setup.pick(words)}. ${marker}.` };
    const linking = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "fz-notes",
      projectId: project.id,
      values: { ...values, related: [target.id] },
    });
    const dangling = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "fz-notes",
      projectId: project.id,
      values: { ...values, related: [ghost.id] },
    });
    await deleteRecord(db.prisma, systemPrincipal, { id: ghost.id, version: 1 });
    const pinned = (id: string): WorldRecord => ({ id, projectId: project.id, kind: "note", secrets: [id], marker, mediaIds: [], pinned: true });
    const pair = { linking: pinned(linking.id), dangling: pinned(dangling.id), target };
    world.push(pair.linking, pair.dangling);
    relationPairs.push(pair);
  }
}

/** A decoy's summary: decoy `index` holds each word that 2, 1, 0 decoys hold (swapped: 0, 1, 2). */
function decoySummary(index: number, hush: string): string {
  const counts = rankWorld.swapped ? [0, 1, 2] : [2, 1, 0];
  const held = rankWorld.words.filter((_word, at) => index < counts[at]!);
  return `The sealed ledger lists ${held.map((word) => `${word} `.repeat(index === 0 ? 12 : 4)).join("")}${hush}.`;
}

/**
 * Three identical open notes but for a made-up word each (letters no stemmer trims), and three
 * restricted decoys; only an admin (or a member of the decoys' project) may see the decoys move
 * anything. Twins and decoys are pinned: moves would change who may read them mid-comparison.
 */
async function buildRankWorld(setup: Random): Promise<void> {
  const letters = "bcfhjkmpqvwxz";
  rankWorld.words = Array.from({ length: 3 }, () => `zq${Array.from({ length: 7 }, () => setup.pick([...letters])).join("")}`);
  const twinProject = projects.find((project) => !project.restricted)!;
  for (const word of rankWorld.words) {
    const summary = `The harbour master kept a careful ledger of every boat that came up the river, and this page names ${word} once.`;
    const saved = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "fz-notes",
      projectId: twinProject.id,
      values: { title: `Harbour ledger ${word}`, summary },
    });
    const twin: WorldRecord = { id: saved.id, projectId: twinProject.id, kind: "note", secrets: [saved.id], marker: word, mediaIds: [], pinned: true };
    rankWorld.twins.push(twin);
    world.push(twin);
  }
  const decoyProject = projects.find((project) => project.restricted)!;
  for (let index = 0; index < 3; index++) {
    const marker = `decoy${index}x${randomUUID().slice(0, 6)}`;
    const hush = `hush${randomUUID().slice(0, 8)}`;
    const saved = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "fz-notes",
      projectId: decoyProject.id,
      values: { title: `Sealed ledger ${marker} ${hush}`, summary: decoySummary(index, hush) },
    });
    const decoy: WorldRecord = { id: saved.id, projectId: decoyProject.id, kind: "note", secrets: [saved.id, hush], marker, mediaIds: [], pinned: true };
    rankWorld.decoys.push(decoy);
    world.push(decoy);
  }
}

/** Swaps the decoys' counts and indexes them again; their new passage ids are secrets too. */
async function swapDecoys(): Promise<void> {
  rankWorld.swapped = !rankWorld.swapped;
  for (const [index, decoy] of rankWorld.decoys.entries()) await resaveNote(decoy.id, { summary: decoySummary(index, decoy.secrets[1]!) });
  await drainIndex();
  const chunks = await db.sql.query<{ id: string; record_id: string }>(`SELECT id, record_id FROM chunks WHERE record_id = ANY($1::text[])`, [
    rankWorld.decoys.map((decoy) => decoy.id),
  ]);
  for (const chunk of chunks) {
    const decoy = rankWorld.decoys.find((item) => item.id === chunk.record_id)!;
    if (!decoy.secrets.includes(chunk.id)) decoy.secrets.push(chunk.id);
  }
}

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  space = await testIndexSpace(db.sql, embedder);
  await createNotesAndCoins(db.prisma, db.sql, {
    prefix: "fz",
    name: "Fuzz",
    noteFields: fuzzNoteFields,
    groupFields: ["title", "summary", "related"],
    maxTokens: 64,
    objectContext: coinContext,
  });
  for (const restricted of [false, false, true, true]) {
    const project = await createProject(db.prisma, { restricted });
    projects.push({ id: project.id, slug: project.slug, restricted });
  }

  const setup = generator(seed + 1);
  for (const [index, project] of projects.entries()) {
    for (let n = 0; n < 4; n++) {
      // The marker is what queries ask for (so it is echoed back in a query field); the hush word
      // is never typed by anyone, so seeing it means canary text travelled. Open records have
      // them too: a move may put any record out of a principal's reach.
      const marker = `cnry${index}x${n}${randomUUID().slice(0, 6)}`;
      const hush = `hush${randomUUID().slice(0, 8)}`;
      const topic = Array.from({ length: 12 }, () => setup.pick(words)).join(" ");
      const title = project.restricted ? `Report ${marker} ${hush}` : `Note ${index}-${n} ${setup.pick(words)} ${marker} ${hush}`;
      const summary = project.restricted ? `${topic}. The ${marker} file says ${topic}. ${marker} ${hush}.` : `${topic}. ${topic}. ${marker} ${hush}.`;
      const transcript = [{ speaker: `Narrator ${hush}`, start: n, end: n + 4, text: `${topic} ${marker} ${hush}.` }];
      const saved = await saveRecord(db.prisma, systemPrincipal, { sectionSlug: "fz-notes", projectId: project.id, values: { title, summary, transcript } });
      world.push({ id: saved.id, projectId: project.id, kind: "note", secrets: [saved.id, hush], marker, mediaIds: [] });
    }
    for (let n = 0; n < 3; n++) {
      const look = { key: `coin-${n}`, metal: "silver", typology: "denarius", period: "Roman Republic" };
      const uncatalogued = n === 2 && index % 2 === 0;
      const mediaIds: string[] = [];
      for (const face of ["obverse", "reverse"] as const) {
        const stored = await storeMedia(db.prisma, systemPrincipal, {
          projectId: project.id,
          file: { name: `c${index}-${n}-${face}.webp`, bytes: await renderCoinFace({ ...look, face }) },
          expectedKind: "image",
          storageDir,
          maxBytes: 5 * 1024 * 1024,
        });
        mediaIds.push(stored.id);
      }
      const marker = `cnrycoin${index}x${n}${randomUUID().slice(0, 6)}`;
      const hush = `hush${randomUUID().slice(0, 8)}`;
      const saved = await saveRecord(db.prisma, systemPrincipal, {
        sectionSlug: "fz-coins",
        projectId: project.id,
        values: {
          title: project.restricted ? `Coin ${marker} ${hush}` : `Coin ${index}-${n} ${marker} ${hush}`,
          ...(uncatalogued ? {} : { metal: "silver", typology: "denarius", period: "Roman Republic", date: { from: -200 + index * 10, to: -100 } }),
          obverse: mediaIds[0],
          reverse: mediaIds[1],
        },
      });
      world.push({ id: saved.id, projectId: project.id, kind: "coin", secrets: [saved.id, ...mediaIds, hush], marker, mediaIds });
    }
  }
  await buildRelations(setup);
  await buildRankWorld(setup);
  await drainIndex();
  // Passage ids are secrets too: a citation of an unreadable passage would name one.
  const chunks = await db.sql.query<{ id: string; record_id: string }>(`SELECT id, record_id FROM chunks`);
  for (const chunk of chunks) world.find((record) => record.id === chunk.record_id)?.secrets.push(chunk.id);

  services = serviceRuntime(db, { embedder, space, descriptor, origin: "http://fuzz.test" });
  // The write tools are MCP tools here too (MNEMO_MCP_ALLOW_WRITE), for the write probe.
  services.apiDeps.mcpAllowWrite = true;
  researchModel = await startFakeToolChatServer({ script: () => ({ text: "Nothing." }) });

  // Proposals computed by an admin (evidence may include restricted coins) and by a curator.
  const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  await proposeForUncatalogued(services.objects, admin, { limit: 20 });
  mover = admin;

  // Random principals: roles and memberships drawn from the seed, plus fixed extremes.
  const plans: { role: "admin" | "curator" | "researcher"; memberships: { project: number; role: "reader" | "editor" }[]; label: string }[] = [
    { role: "researcher", memberships: [], label: "nobody" },
    { role: "admin", memberships: [], label: "admin" },
    // A keeper of golden sets in every seed: a curator who edits one open project.
    { role: "curator", memberships: [{ project: 0, role: "editor" }], label: "curator:0" },
  ];
  for (let n = 0; n < 8; n++) {
    const role = setup.pick(["curator", "researcher", "researcher"] as const);
    const memberships = projects.flatMap((_project, index) =>
      setup.chance(0.45) ? [{ project: index, role: setup.pick(["reader", "editor"] as const) }] : [],
    );
    plans.push({ role, memberships, label: `${role}:${memberships.map((item) => item.project).join("") || "-"}` });
  }
  for (const plan of plans) {
    const user = await createUser(db.prisma, { role: plan.role });
    for (const membership of plan.memberships) await addMember(db.prisma, user.id, projects[membership.project]!.id, membership.role);
    const principal = await principalOf(db.prisma, user.id);
    const created = await createApiToken(db.prisma, principal, { name: "fuzz", expiresInDays: 1 });
    // Every token may write, whatever its user may edit (as if their rights changed since): the
    // write probes then meet the user's access, not the scope check.
    await db.prisma.apiToken.update({ where: { id: created.summary.id }, data: { scopes: ["read", "write"] } });
    people.push({ principal, token: created.token, label: plan.label });
  }
  // The public reader (no session, no token) of the first project, marked public: what the IIIF,
  // OAI-PMH and media routes serve to anyone. Its API calls carry a token that is no token.
  await db.prisma.project.update({ where: { id: projects[0]!.id }, data: { isPublic: true, publicSince: new Date() } });
  people.push({ principal: publicReader([projects[0]!.id]), token: "mnemo_not_a_token", label: "public" });
  for (const record of world) if (record.projectId === projects[0]!.id) everPublic.add(record.id);
  // Curators with edit rights store proposals of their own, under their own access.
  for (const person of people)
    if (person.principal.role === "curator" && person.principal.editableProjectIds.length > 0)
      await proposeForUncatalogued(services.objects, person.principal, { limit: 20 });

  // Golden sets: one of the admin's expecting canaries, and one of each keeper's, to which the
  // admin adds canaries the keeper cannot read. The admin runs every set (so stored runs rank
  // canaries), keepers run their own; probes then view, edit, run and delete them as anyone.
  const notes = world.filter((record) => record.kind === "note" && !record.pinned);
  // Canaries: the notes of restricted projects (every record has a marker, to be found after a move).
  const canaries = notes.filter((record) => projects.some((project) => project.restricted && project.id === record.projectId));
  const goldenQuestions = (hush: string, expectedFor: (index: number) => string[]) =>
    Array.from({ length: 3 }, (_, index) => ({
      question: `${canaries[(index * 3) % canaries.length]!.marker} ${setup.pick(words)} ${hush}`,
      expected: expectedFor(index),
    }));
  const keepSet = async (owner: Principal, questions: (hush: string) => { question: string; expected: string[] }[]) => {
    const hush = `ghush${randomUUID().slice(0, 8)}`;
    const saved = await saveGoldenSet(db.prisma, owner, { set: { name: `Golden ${hush}`, sectionSlug: "fz-notes", questions: questions(hush) } });
    goldenSets.push({ id: saved.id, ownerId: owner.userId, secrets: [saved.id, hush] });
    return { id: saved.id, hush };
  };
  await keepSet(admin, (hush) =>
    goldenQuestions(hush, (index) => {
      const canary = canaries[(index * 3) % canaries.length]!;
      return [canary.id, setup.pick(notes.filter((note) => note.id !== canary.id)).id];
    }),
  );
  for (const keeper of people.filter((person) => person.principal.role === "curator" && person.principal.editableProjectIds.length > 0)) {
    const readable = notes.filter((record) => canRead(keeper.principal, record));
    const sealed = notes.filter((record) => !canRead(keeper.principal, record));
    const own = await keepSet(keeper.principal, (hush) => goldenQuestions(hush, () => [setup.pick(readable).id]));
    const current = await getGoldenSet(db.prisma, admin, own.id);
    const widened = current.questions.map((question, index) => ({
      question: question.question,
      expected: [...question.expected.map((item) => item.recordId), ...(sealed.length && index < 2 ? [setup.pick(sealed).id] : [])],
    }));
    await saveGoldenSet(db.prisma, admin, { id: own.id, set: { name: current.name, sectionSlug: "fz-notes", questions: widened } });
    await runGoldenSet(db.prisma, services.search, keeper.principal, { id: own.id, mode: "keyword" });
  }
  for (const set of goldenSets) await runGoldenSet(db.prisma, services.search, admin, { id: set.id, mode: setup.pick(["keyword", "hybrid"] as const) });

  // Saved searches: each signed-in person keeps the notes section (its count is recounted by the
  // probe) and a search for words, maybe a canary's marker; moves during the run bring records in
  // and take them out of what each owner can read.
  for (const person of people.filter((item) => item.label !== "public")) {
    for (const params of [{ section: "fz-notes" }, { q: queryText(setup), mode: setup.pick(["keyword", "hybrid"]) }]) {
      const hush = `shush${randomUUID().slice(0, 8)}`;
      const saved = await createSavedSearch(db.prisma, person.principal, { name: `Saved ${hush}`, params });
      savedSearches.push({ id: saved.id, ownerId: person.principal.userId, secrets: [saved.id, hush] });
    }
  }
}, 300_000);

afterAll(async () => {
  await researchModel?.close();
  await db?.close();
});

type Outcome = { ok: true; body: string } | { ok: false; body: string };

async function outcomeOf(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = await run();
    if (value instanceof Response) {
      // Agent context's fence boundary is drawn for every response; parity compares the rest.
      const text = withSteadyBoundaries(await value.text());
      return { ok: value.status < 400, body: `${value.status} ${text}` };
    }
    // A service that returns nothing (a delete) answers "undefined", which JSON cannot say.
    return { ok: true, body: JSON.stringify(value) ?? "undefined" };
  } catch (error) {
    return { ok: false, body: JSON.stringify(describeError(error)) };
  }
}

async function collect<T>(events: AsyncGenerator<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function apiCall(name: string, token: string, input: Record<string, unknown>): Promise<Response> {
  return callApi(services.apiDeps, name, input, { origin: "http://fuzz.test", token });
}

/**
 * One research run through POST /api/v1/research with a script that reads `recordId` and runs
 * one more read tool, then answers citing [1]: the events (a step's arguments left out, as they
 * hold the id the model was told) and every tool result the model received, for the leak check.
 */
async function researchCall(token: string, recordId: string, random: Random): Promise<{ status: number; events: unknown[]; toModel: ScriptToolResult[] }> {
  const query = queryText(random);
  const second = random.pick([
    { name: "semantic_search", arguments: { query } },
    { name: "retrieve", arguments: { query } },
    { name: "similar_records", arguments: { recordId } },
    { name: "similar_objects", arguments: { recordId } },
  ]);
  let toModel: ScriptToolResult[] = [];
  researchModel.script = (view) => {
    if (view.turn === 0) return { toolCalls: [{ name: "read_record", arguments: { recordId } }, second] };
    toModel = view.results;
    return { text: "The archive has this [1]. And this [2]." };
  };
  const model = researchModelFromConfig(
    parseConfig({
      MNEMO_RESEARCH_PROVIDER: random.pick(["openai-compatible", "anthropic"]),
      MNEMO_RESEARCH_BASE_URL: researchModel.url,
      MNEMO_RESEARCH_MODEL: "fuzz",
    }),
  );
  const request = new Request("http://fuzz.test/api/v1/research", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ question: `Research ${query}` }),
  });
  const response = await handleResearchRequest(request, { ...services.apiDeps, research: model });
  const events = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map((event) => (event.type === "step" ? { ...event, arguments: null } : event));
  return { status: response.status, events, toModel };
}

function mcpCall(token: string, name: string, args: Record<string, unknown>): Promise<Response> {
  return handleMcpRequest(
    new Request("http://fuzz.test/api/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    }),
    services.apiDeps,
  );
}

/** A JSON-RPC batch of MCP messages in one POST. */
function mcpBatch(token: string, messages: unknown[]): Promise<Response> {
  return handleMcpRequest(
    new Request("http://fuzz.test/api/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(messages),
    }),
    services.apiDeps,
  );
}

/** Words for a query: common words, and sometimes a record's marker (readable or not). */
function queryText(random: Random): string {
  const parts = Array.from({ length: 1 + random.int(3) }, () => random.pick(words));
  if (random.chance(0.5)) parts.splice(random.int(parts.length + 1), 0, random.pick(world).marker);
  return parts.join(" ");
}

/**
 * An admin moves a random record to another project, as the record form does (same values). When
 * the save returns the record's secrets belong to its new project: no index worker runs before
 * the next probes.
 */
async function moveRecord(random: Random): Promise<WorldRecord> {
  const record = random.pick(world.filter((item) => !item.pinned));
  const to = random.pick(projects.filter((project) => project.id !== record.projectId));
  const row = await db.prisma.record.findUniqueOrThrow({ where: { id: record.id }, include: { section: true } });
  await saveRecord(db.prisma, mover, {
    id: row.id,
    version: row.version,
    sectionSlug: row.section.slug,
    projectId: to.id,
    values: row.values as Record<string, unknown>,
  });
  record.projectId = to.id;
  if (to.id === projects[0]!.id) everPublic.add(record.id);
  return record;
}

type Probe = {
  path: string;
  /** For probes aimed at one record: the record's id is replaced by a missing one for parity. */
  target?: { kinds: WorldRecord["kind"][] };
  /** `random` is the probe's own generator, replayed for the parity call. */
  run(person: (typeof people)[number], targetId: string, random: Random): Promise<unknown>;
  /** OAI-PMH: judged as the public reader whoever calls (secretsForHarvesters). */
  harvest?: true;
};

/** The IIIF image service, with a render allowance the probes never reach (its limit is iiif.test.ts's). */
const imageService = createImageService(parseConfig({ MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE: "100000" }));

const probes: Probe[] = [
  {
    path: "list",
    run: async (person, _id, random) =>
      listRecords(
        db.sql,
        person.principal,
        listRecordsQuerySchema.parse({
          text: random.chance(0.6) ? queryText(random) : undefined,
          sort: random.pick(["title", "-updated", "date"]),
          page: 1 + random.int(2),
          pageSize: 10,
        }),
      ),
  },
  {
    // The list's facets: counts per section, project, decade, language, media, person and place.
    path: "facets",
    run: async (person, _id, random) =>
      recordFacets(
        db.sql,
        person.principal,
        listRecordsQuerySchema.parse({
          text: random.chance(0.5) ? queryText(random) : undefined,
          language: random.pick([undefined, "en", "other", "unknown"]),
          media: random.pick([undefined, "image", "none"]),
        }),
      ),
  },
  { path: "record", target: { kinds: ["note", "coin"] }, run: async (person, id) => getRecord(db.prisma, person.principal, id) },
  // The record's history (its page's and read_record_history's): old versions, with hidden relations and versions saved in unreadable projects left out.
  { path: "record-history", target: { kinds: ["note", "coin"] }, run: async (person, id) => readRecordHistory(db.prisma, person.principal, id) },
  {
    path: "media",
    run: async (person, id, random) =>
      mediaResponse(db.prisma, person.principal, {
        id,
        range: random.chance(0.3) ? "bytes=0-9" : null,
        method: "GET",
        storageDir,
        variant: random.chance(0.5) ? "thumb" : "original",
      }),
  },
  {
    path: "search",
    run: async (person, _id, random) => {
      const result = await searchArchive(services.search, person.principal, {
        query: queryText(random),
        mode: random.pick(["hybrid", "semantic", "keyword"] as const),
        limit: 1 + random.int(50),
        collapse: random.pick(["record", "passage"] as const),
        projectIds: random.chance(0.3) ? [random.pick(projects).id] : undefined,
      });
      return result;
    },
  },
  {
    // /api/records/<id>/captions/<file>: the transcript as WebVTT or SRT, in English too.
    path: "captions",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) =>
      captionsResponse(
        db.prisma,
        person.principal,
        {
          recordId: id,
          file: random.pick(["transcript.vtt", "transcript.srt", "transcript.en.vtt", "transcript.en.srt", "transcript.en.json", "summary.vtt", "obverse.srt"]),
        },
        captionTranslator,
      ),
  },
  {
    // /api/records/<id>/english/<field>: the English beside each paragraph of a long text.
    path: "english-text",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) =>
      englishTextResponse(db.prisma, person.principal, { recordId: id, fieldKey: random.pick(["summary", "title", "transcript"]) }, textTranslator),
  },
  { path: "similar", target: { kinds: ["note"] }, run: async (person, id) => findSimilarRecords(db.sql, person.principal, space, id, { limit: 50 }) },
  {
    path: "ask",
    run: async (person, _id, random) => {
      const scope = random.chance(0.3) ? { recordIds: [random.pick(world).id] } : {};
      return collect(ask(services.askContext, person.principal, { question: `What about ${queryText(random)}?`, scope }));
    },
  },
  {
    path: "similar-objects",
    target: { kinds: ["coin"] },
    run: async (person, id, random) =>
      findSimilarObjects(services.objects, person.principal, { recordId: id, mode: random.pick(["hybrid", "visual", "near_duplicate"] as const), limit: 48 }),
  },
  {
    path: "characterise",
    target: { kinds: ["coin"] },
    run: async (person, id, random) =>
      characteriseObject(services.objects, person.principal, { recordId: id, mode: random.pick(["hybrid", "visual"] as const) }),
  },
  {
    path: "objects-by-text",
    run: async (person, _id, random) => searchObjectsByText(services.objects, services.search, person.principal, { query: queryText(random), limit: 48 }),
  },
  {
    path: "proposals",
    run: async (person, _id, random) => {
      const coin = random.pick(world.filter((record) => record.kind === "coin"));
      return {
        queue: await listPendingProposals(services.objects, person.principal, { page: 1 }),
        record: await proposalsForRecord(services.objects, person.principal, coin.id),
        accuracy: await proposalAccuracy(services.objects, person.principal),
      };
    },
  },
  {
    // GET /iiif/<id>/manifest: the record as a IIIF Presentation 3 Manifest (a coin's faces as Canvases).
    path: "iiif-manifest",
    target: { kinds: ["note", "coin"] },
    run: async (person, id) => manifestResponse(db.prisma, person.principal, { recordId: id, origin: "http://fuzz.test", storageDir }),
  },
  {
    // GET /iiif/image/<mediaId>/info.json and /iiif/image/<mediaId>/<region>/<size>/0/<quality>.<format>
    // (a scan page's image id is <mediaId>~p<N>); bad requests among them.
    path: "iiif-image",
    run: async (person, id, random) => {
      const imageId = random.chance(0.2) ? `${id}~p1` : id;
      if (random.chance(0.3))
        return imageInfoResponse(db.prisma, person.principal, { imageId, storageDir, serviceId: `http://fuzz.test/iiif/image/${imageId}` });
      const [region, size, quality] = [
        random.pick(["full", "square", "0,0,10,10", "pct:1,1,5,5"]),
        random.pick(["max", "16,", "!20,20", "99999,"]),
        random.pick(["default.jpg", "gray.png", "default.gif"]),
      ];
      return imageResponse(db.prisma, person.principal, {
        imageId,
        storageDir,
        region,
        size,
        rotation: "0",
        quality,
        service: imageService,
        clientAddress: null,
      });
    },
  },
  {
    // GET /iiif/collection/section/<slug> and /iiif/collection/project/<slug>[/<page>]: readable records only;
    // a project the principal cannot read answers exactly as an unknown slug.
    path: "iiif-collection",
    run: async (person, _id, random) => {
      const origin = "http://fuzz.test";
      if (random.chance(0.4)) return collectionResponse(db.prisma, person.principal, { kind: "section", slug: random.pick(["fz-coins", "fz-notes"]), origin });
      const project = random.pick(projects);
      const page = random.chance(0.2) ? "1" : undefined;
      const asked = await outcomeOf(() => collectionResponse(db.prisma, person.principal, { kind: "project", slug: project.slug, page, origin }));
      if (!canRead(person.principal, { projectId: project.id })) {
        const unknown = await outcomeOf(() =>
          collectionResponse(db.prisma, person.principal, { kind: "project", slug: `project-${randomUUID().slice(0, 8)}`, page, origin }),
        );
        if (asked.body !== unknown.body)
          findings.push({
            kind: "iiif-collection",
            text: `seed ${seed}: the collection of unreadable project ${project.slug} as ${person.label} reads unlike an unknown one: ${asked.body.slice(0, 200)} ≠ ${unknown.body.slice(0, 200)}`,
          });
      }
      return asked;
    },
  },
  {
    // GET /api/records/<id>/cite as its route runs it: an unreadable record is the same 404 as a missing one.
    path: "cite",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) => {
      const query = `format=${random.pick(["ris", "bibtex", "csl-json"])}${random.chance(0.3) ? `&t=${random.int(600)}` : ""}`;
      return runAuthorizedRoute(
        z.object({ id: z.string() }),
        (request, { principal, params }) => citeRecordResponse(db.prisma, principal, request, { id: params.id, origin: "http://fuzz.test" }),
        async () => person.principal,
        new Request(`http://fuzz.test/api/records/${encodeURIComponent(id)}/cite?${query}`),
        { id },
      );
    },
  },
  {
    // GET /api/records/cite?ids=: the target beside another record; the ids not found are named
    // (the ids the caller sent stand as <target> and <other>, so denied and missing compare).
    path: "cite-selection",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) => {
      const other = random.pick(world).id;
      const response = await runAuthorizedRoute(
        z.object({}),
        (request, { principal }) => citeSelectionResponse(db.prisma, principal, request, { origin: "http://fuzz.test" }),
        async () => person.principal,
        new Request(
          `http://fuzz.test/api/records/cite?format=${random.pick(["ris", "bibtex", "csl-json"])}&ids=${random.chance(0.5) ? `${id},${other}` : `${other},${id}`}`,
        ),
        {},
      );
      // Ids the caller sent come back only as "not found" (missing and unreadable alike); the
      // caller's own words are no leak, so both stand as placeholders here.
      const sent = (text: string) => text.replaceAll(id, "<target>").replaceAll(other, "<other>");
      const notFound = response.headers.get("mnemo-not-found");
      return { status: response.status, notFound: notFound === null ? null : sent(notFound), body: sent(await response.text()) };
    },
  },
  {
    // GET /api/records/export: the list (a text filter or a search, a sort) as CSV or JSON.
    path: "export",
    run: async (person, _id, random) => {
      const params = new URLSearchParams({ format: random.pick(["csv", "json"]), sort: random.pick(["title", "-updated", "date", "relevance"]) });
      if (random.chance(0.5)) params.set("q", queryText(random));
      else if (random.chance(0.6)) params.set("text", queryText(random));
      if (params.has("q")) params.set("mode", random.pick(["keyword", "hybrid", "semantic"]));
      if (random.chance(0.3)) params.set("project", random.pick(projects).id);
      if (random.chance(0.2)) params.set("media", random.pick(["image", "none"]));
      const deps = { prisma: db.prisma, sql: db.sql, searchContext: async () => services.search };
      return runAuthorizedRoute(
        z.object({}),
        (request, { principal }) => recordListExportResponse(deps, principal, request, { origin: "http://fuzz.test", maxRows: 1 + random.int(60) }),
        async () => person.principal,
        new Request(`http://fuzz.test/api/records/export?${params.toString()}`),
        {},
      );
    },
  },
  {
    // GET /api/admin/projects/<slug>/backup for the target's project (where it is now): an admin
    // gets the zip; anyone else exactly the 404 of a project that does not exist.
    path: "backup",
    target: { kinds: ["note", "coin"] },
    run: async (person, id) => {
      const record = world.find((item) => item.id === id);
      const slug = record ? projects.find((project) => project.id === record.projectId)!.slug : id;
      const response = await runAuthorizedRoute(
        z.object({ slug: z.string().max(200) }),
        (_request, { principal, params }) => projectBackupResponse(db, principal, { slug: params.slug, storageDir }),
        async () => person.principal,
        new Request(`http://fuzz.test/api/admin/projects/${encodeURIComponent(slug)}/backup`),
        { slug },
      );
      if (person.principal.role !== "admin" && response.status !== 404)
        findings.push({ kind: "backup", text: `seed ${seed}: ${person.label} got ${response.status} for the backup of ${slug}` });
      if (person.principal.role === "admin" && record && response.status !== 200)
        findings.push({ kind: "backup", text: `seed ${seed}: an admin got ${response.status} for the backup of ${slug}` });
      // The ids the caller sent are no leak: the missing twin's id stands as the slug there.
      return response.status === 200 ? `200 ${response.headers.get("content-type")} ${(await response.arrayBuffer()).byteLength > 0}` : response;
    },
  },
  {
    // /oai (OAI-PMH): the caller is ignored, only the public project is harvested. GetRecord of the
    // target, a list (whole, by set, or its second page), or the target's formats.
    path: "oai",
    target: { kinds: ["note", "coin"] },
    harvest: true,
    run: async (_person, id, random) => {
      const context = { prisma: db.prisma, sql: db.sql, origin: "http://fuzz.test", repositoryName: "Fuzz", pageSize: 1 + random.int(8), tokenKey: "fuzz" };
      const verb = random.pick(["GetRecord", "ListRecords", "ListIdentifiers", "ListMetadataFormats", "ListSets"] as const);
      const args = new URLSearchParams({ verb });
      if (verb === "GetRecord" || verb === "ListMetadataFormats") args.set("identifier", `oai:fuzz.test:${id}`);
      if (verb === "GetRecord" || verb === "ListRecords" || verb === "ListIdentifiers") args.set("metadataPrefix", "oai_dc");
      if ((verb === "ListRecords" || verb === "ListIdentifiers") && random.chance(0.4))
        args.set("set", random.chance(0.7) ? `project:${random.pick(projects).slug}` : `section:${random.pick(["fz-notes", "fz-coins"])}`);
      const post = random.chance(0.3);
      const send = (query: URLSearchParams) =>
        oaiResponse(
          post
            ? new Request("http://fuzz.test/oai", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: query.toString() })
            : new Request(`http://fuzz.test/oai?${query.toString()}`),
          context,
        );
      let text = await (await send(args)).text();
      const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(text)?.[1];
      if (token && random.chance(0.5)) text = await (await send(new URLSearchParams({ verb, resumptionToken: token }))).text();
      // The id the caller sent is theirs; the clock and tokens differ between two calls.
      return text
        .replaceAll(id, "<target>")
        .replace(/<responseDate>[^<]*<\/responseDate>/, "<responseDate/>")
        .replace(/resumptionToken="[^"]*"/, 'resumptionToken="<token>"')
        .replace(/(<resumptionToken[^>]*>)[^<]+</, "$1<token><")
        .replace(/expirationDate="[^"]*"/, "");
    },
  },
  {
    path: "api-record",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) => apiCall(random.pick(["read_record", "read_record_history", "similar_records"]), person.token, { recordId: id }),
  },
  {
    path: "api-object",
    target: { kinds: ["coin"] },
    run: async (person, id, random) => apiCall(random.pick(["similar_objects", "characterize_object"]), person.token, { recordId: id }),
  },
  {
    path: "golden",
    run: async (person, id, random) => {
      // One of the person's own sets (every set, for an admin) as they see it: where an admin's
      // run of a keeper's set, ranking records the keeper cannot read, would show.
      const keptSets = goldenSets.filter((set) => keepsGoldenSet(person.principal, set));
      const kept = keptSets.length ? await getGoldenSet(db.prisma, person.principal, random.pick(keptSets).id) : null;
      const action = random.pick(["view", "list", "save", "run", "delete"] as const);
      const keepsTarget = keepsGoldenSet(
        person.principal,
        goldenSets.find((set) => set.id === id),
      );
      const target = async (): Promise<unknown> => {
        if (action === "list") return listGoldenSets(db.prisma, person.principal);
        if (action === "view") return getGoldenSet(db.prisma, person.principal, id);
        if (action === "run")
          return runGoldenSet(db.prisma, services.search, person.principal, { id, mode: random.pick(["keyword", "hybrid", "semantic"] as const) });
        // Deleting a set the person keeps would empty the world: only the refusal is probed.
        if (action === "delete") return keepsTarget ? null : deleteGoldenSet(db.prisma, person.principal, id);
        // Saving back what the person sees must change no expectation, seen or not.
        const before = await storedExpectations(id);
        const seen = keepsTarget ? await getGoldenSet(db.prisma, person.principal, id) : null;
        const set = seen
          ? {
              name: seen.name,
              sectionSlug: seen.section?.slug,
              questions: seen.questions.map((question) => ({ question: question.question, expected: question.expected.map((item) => item.recordId) })),
            }
          : { name: `Taken over ${random.int(1000)}`, questions: [] };
        const saved = await saveGoldenSet(db.prisma, person.principal, { id, set }).catch((error: unknown) => error);
        if ((await storedExpectations(id)) !== before) throw new Error(`a save by ${person.label} changed the expectations of golden set ${id}`);
        if (saved instanceof Error) throw saved;
        return saved;
      };
      return { kept, target: await target() };
    },
  },
  {
    // /api/saved-searches and /account/searches/<id>/open: the person's own saved searches listed
    // with their counts (each notes-section count recounted apart), and the target read, renamed,
    // opened or deleted. Another person's search is exactly a missing one.
    path: "saved-searches",
    run: async (person, id, random) => {
      const deps = { prisma: db.prisma, sql: db.sql, searchContext: async () => services.search };
      const action = random.pick(["list", "view", "rename", "open", "delete"] as const);
      const owned = savedSearches.find((search) => search.id === id && search.ownerId === person.principal.userId);
      const route = (method: string, body?: unknown) =>
        runAuthorizedRoute(
          savedSearchRouteParamsSchema,
          (request, { principal, params }) => savedSearchResponse(deps, principal, request, params.id),
          async () => person.principal,
          new Request(`http://fuzz.test/api/saved-searches/${encodeURIComponent(id)}`, {
            method,
            ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
          }),
          { id },
        );
      if (action === "list") {
        const response = await runAuthorizedRoute(
          z.unknown(),
          (request, { principal }) => savedSearchesResponse(deps, principal, request),
          async () => person.principal,
          new Request("http://fuzz.test/api/saved-searches"),
          {},
        );
        const text = await response.text();
        const listed = response.ok
          ? (
              JSON.parse(text) as {
                savedSearches: { id: string; params: Record<string, string>; newSinceLastVisit: { count: number; capped: boolean } | null }[];
              }
            ).savedSearches
          : [];
        for (const search of listed.filter((item) => JSON.stringify(item.params) === JSON.stringify({ section: "fz-notes" }))) {
          // Arrived since the visit, in any project; then kept only where the owner may read (canRead, stated apart from the SQL scope).
          const arrived = await db.sql.query<{ project_id: string }>(
            `SELECT r.project_id FROM records r JOIN sections s ON s.id = r.section_id AND s.slug = 'fz-notes' JOIN saved_searches ss ON ss.id = $1
              WHERE r.created_at > ss.last_visited_at OR r.moved_at > ss.last_visited_at`,
            [search.id],
          );
          const readable = arrived.filter((row) => canRead(person.principal, { projectId: row.project_id })).length;
          const expected = { count: Math.min(readable, newSinceLastVisitCap), capped: readable > newSinceLastVisitCap };
          if (JSON.stringify(search.newSinceLastVisit) !== JSON.stringify(expected)) {
            findings.push({
              kind: "saved-search-count",
              text: `seed ${seed}: ${person.label}'s saved search ${search.id} counts ${JSON.stringify(search.newSinceLastVisit)} new, readable arrivals say ${JSON.stringify(expected)} (of ${arrived.length})`,
            });
          }
        }
        return `${response.status} ${text}`;
      }
      if (action === "view") return route("GET");
      // Renaming or deleting one of the person's own would change the world: only refusals are probed.
      if (action === "rename") return owned ? null : route("PATCH", { name: `Taken over ${random.int(1000)}` });
      if (action === "delete") return owned ? null : route("DELETE");
      return runAuthorizedRoute(
        savedSearchRouteParamsSchema,
        (_request, { principal, params }) => openSavedSearchResponse(deps, principal, params.id),
        async () => person.principal,
        new Request(`http://fuzz.test/account/searches/${encodeURIComponent(id)}/open`),
        { id },
      );
    },
  },
  {
    path: "api-search",
    run: async (person, _id, random) => {
      const name = random.pick(["semantic_search", "retrieve", "get_agent_context", "ask"]);
      const input: Record<string, unknown> = name === "ask" ? { question: `Tell me about ${queryText(random)}` } : { query: queryText(random) };
      if (random.chance(0.3)) input.recordIds = [random.pick(world).id];
      if (name === "semantic_search") delete input.recordIds;
      return apiCall(name, person.token, input);
    },
  },
  // Research mode: the steps, sources and answer, and what the model was sent, name nothing unreadable.
  { path: "research", target: { kinds: ["note", "coin"] }, run: async (person, id, random) => researchCall(person.token, id, random) },
  {
    path: "mcp",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) => {
      const name = random.pick([
        "read_record",
        "similar_records",
        "similar_objects",
        "characterize_object",
        "retrieve",
        "get_agent_context",
        "ask",
        "semantic_search",
      ]);
      const args: Record<string, unknown> =
        name === "retrieve" || name === "get_agent_context" || name === "semantic_search"
          ? { query: queryText(random) }
          : name === "ask"
            ? { question: `Why ${queryText(random)}?` }
            : { recordId: id };
      return mcpCall(person.token, name, args);
    },
  },
  {
    // The write operations (JSON API and MCP tools), aimed at a record or its project, each sent
    // so that it can never change anything: a stale version, a field the section lacks, a value
    // no role takes. What decides the answer is then the user's access alone — 404 for what they
    // cannot read (alike for denied and missing), 403 for what they read but may not edit, the
    // validation's 400 or the version's 409 for what they edit — and no secret may travel.
    path: "api-write",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) => {
      const projectId = world.find((record) => record.id === id)?.projectId ?? randomUUID();
      const stale = 1_000_000;
      const name = random.pick(["create_record", "update_record", "link_record", "unlink_record", "attach_media", "propose_value"]);
      const linked = random.pick(world).id;
      const args: Record<string, unknown> = {
        create_record: { sectionSlug: random.pick(["fz-notes", "fz-coins"]), projectId, values: { title: "Fuzzed", noSuchField: "x" } },
        update_record: { recordId: id, version: stale, values: { title: "Fuzzed" } },
        link_record: { recordId: id, version: stale, field: "related", targetId: linked },
        unlink_record: { recordId: id, version: stale, field: "related", targetId: linked },
        attach_media: { recordId: id, version: stale, field: "obverse", fileName: "x.png", content: "iVBORw0KGgo=" },
        propose_value: { recordId: id, role: random.pick(["typology", "material", "period"]), value: "no such value" },
      }[name]!;
      return random.chance(0.5) ? apiCall(name, person.token, args) : mcpCall(person.token, name, args);
    },
  },
  {
    // An open note linking a restricted one must read exactly like its twin linking a deleted one,
    // for whoever cannot read the restricted note: on the record page's data, read_record over the
    // API and MCP, and the record list's text filter fed a piece of the restricted id.
    path: "relation",
    run: async (person, _id, random) => {
      const pair = random.pick(relationPairs);
      const route = random.pick(["record", "api", "mcp", "list", "search"] as const);
      if (route === "search") {
        // Nothing of a note's own text is lost to a link it holds (buildGroupDocuments): the pair
        // shares its marker, so a reader of their project finds both by it, whatever they may read
        // of the linked note — and by the same passages, the linked title aside. Judged once the
        // pair's passages are current: a passage that held the note's text with its target's
        // (the target was in the note's project when it was indexed) is re-scoped in the moving
        // save to the target's new project, hidden from who may not read it, and split again
        // only when the worker re-indexes the note, which that save queued.
        const awaitingIndex =
          (await db.sql.query(`SELECT record_id FROM index_queue WHERE record_id = ANY($1::text[])`, [[pair.linking.id, pair.dangling.id]])).length > 0;
        const found = await outcomeOf(() =>
          searchArchive(services.search, person.principal, { query: pair.linking.marker, mode: "keyword", collapse: "record", limit: 50 }),
        );
        const ids = found.ok ? (JSON.parse(found.body) as { hits: { recordId: string }[] }).hits.map((hit) => hit.recordId) : [];
        if (awaitingIndex) relationSearchTally.awaitingIndex++;
        else relationSearchTally.judged++;
        if (!awaitingIndex && canRead(person.principal, pair.linking) && !(ids.includes(pair.linking.id) && ids.includes(pair.dangling.id))) {
          findings.push({
            kind: "relation",
            text: `seed ${seed}: relation search as ${person.label}: the marker of a note linking another finds ${ids.includes(pair.linking.id) ? "it" : "not it"} and ${ids.includes(pair.dangling.id) ? "its twin" : "not its twin"}: ${found.body.slice(0, 300)}`,
          });
        }
        return { found: found.body };
      }
      const view = (recordId: string) => {
        if (route === "record") return getRecord(db.prisma, person.principal, recordId);
        if (route === "api") return apiCall("read_record", person.token, { recordId });
        return mcpCall(person.token, "read_record", { recordId });
      };
      // Thirteen characters of an id always hold a dash, which no text of the world has: only a
      // relation value could match them.
      const start = random.int(24);
      const listFor = (id: string) => listRecords(db.sql, person.principal, listRecordsQuerySchema.parse({ text: id.slice(start, start + 13), pageSize: 10 }));
      const [linked, dangling] =
        route === "list"
          ? [await outcomeOf(() => listFor(pair.target.id)), await outcomeOf(() => listFor(randomUUID()))]
          : [await outcomeOf(() => view(pair.linking.id)), await outcomeOf(() => view(pair.dangling.id))];
      const alike = (outcome: Outcome, id: string) =>
        `${outcome.ok} ${outcome.body.replaceAll(id, "<record>").replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")}`;
      if (!canRead(person.principal, pair.target) && alike(linked, pair.linking.id) !== alike(dangling, pair.dangling.id)) {
        findings.push({
          kind: "relation",
          text: `seed ${seed}: relation ${route} as ${person.label}: a link to an unreadable note reads unlike a link to a deleted one: ${linked.body.slice(0, 200)} ≠ ${dangling.body.slice(0, 200)}`,
        });
      }
      return { linked: linked.body, dangling: dangling.body };
    },
  },
  {
    // Several tool calls in one JSON-RPC batch, over the target and other records readable or
    // not; sometimes more calls than a batch may hold, which must get the JSON-RPC error whole.
    path: "mcp-batch",
    target: { kinds: ["note", "coin"] },
    run: async (person, id, random) => {
      const over = random.chance(0.15);
      const size = over ? maxBatchMessages + 1 + random.int(5) : 2 + random.int(maxBatchMessages - 1);
      const messages = Array.from({ length: size }, (_, index) => {
        const name = random.pick(["read_record", "similar_records", "similar_objects", "characterize_object", "get_agent_context", "semantic_search"]);
        const recordId = index === 0 || random.chance(0.4) ? id : random.pick(world).id;
        const args: Record<string, unknown> = name === "get_agent_context" || name === "semantic_search" ? { query: queryText(random) } : { recordId };
        return { jsonrpc: "2.0", id: index + 1, method: "tools/call", params: { name, arguments: args } };
      });
      const response = await mcpBatch(person.token, messages);
      // The public reader has no token: the MCP server refuses it whole, which the leak check still reads.
      if (person.label === "public") return withSteadyBoundaries(await response.text());
      // Agent context's fence boundary is drawn for every response; parity compares the rest.
      const text = withSteadyBoundaries(await response.text());
      batchTally.batches++;
      if (over) {
        batchTally.overMaximum++;
        const refusal = `at most ${maxBatchMessages} messages, and this one holds ${size}`;
        if (response.status !== 400 || !text.includes('"code":-32600') || !text.includes(refusal))
          findings.push({
            kind: "mcp-batch",
            text: `seed ${seed}: a batch of ${size} as ${person.label} was not refused with the JSON-RPC error: ${response.status} ${text.slice(0, 200)}`,
          });
      } else {
        batchTally.calls += size;
        const answered = response.status === 200 ? (JSON.parse(text) as { id: number }[]).map((item) => item.id).sort((a, b) => a - b) : [];
        if (answered.join() !== messages.map((message) => message.id).join())
          findings.push({
            kind: "mcp-batch",
            text: `seed ${seed}: a batch of ${size} as ${person.label} was not answered call by call: ${response.status} ${text.slice(0, 200)}`,
          });
      }
      return `${response.status} ${text}`;
    },
  },
  {
    // Statistics per readable scope: ask for the made-up words, swap the decoys' counts, ask again.
    // Whoever cannot read the decoys must get the same answer byte for byte; the admin's order of
    // the three open notes must follow the swap (the probe can see what it looks for).
    path: "rank",
    run: async (person, _id, random) => {
      const turn = random.int(3);
      const query = [...rankWorld.words.slice(turn), ...rankWorld.words.slice(0, turn)].join(" ") + (random.chance(0.3) ? ` ${random.pick(words)}` : "");
      const route = random.pick(["search", "api-search", "retrieve", "agent-context", "mcp-search"] as const);
      const mode = random.pick(["keyword", "hybrid"] as const);
      const collapse = random.pick(["record", "passage"] as const);
      const answer = () =>
        outcomeOf(() => {
          if (route === "search") return searchArchive(services.search, person.principal, { query, mode, collapse, limit: 20 });
          if (route === "api-search") return apiCall("semantic_search", person.token, { query, mode });
          if (route === "retrieve") return apiCall("retrieve", person.token, { query });
          if (route === "agent-context") return apiCall("get_agent_context", person.token, { query });
          return mcpCall(person.token, "semantic_search", { query, mode });
        });
      // The control reads the decoys: the admin who moves records.
      const twinOrder = async () => {
        const result = await searchArchive(services.search, mover, { query: rankWorld.words.join(" "), mode: "keyword", collapse: "passage", limit: 20 });
        return result.hits
          .map((hit) => hit.recordId)
          .filter((recordId) => rankWorld.twins.some((twin) => twin.id === recordId))
          .join();
      };
      // Nothing else queued, so the two answers differ only by what the swap changed.
      await drainIndex();
      const before = await answer();
      const controlBefore = await twinOrder();
      await swapDecoys();
      const after = await answer();
      if ((await twinOrder()) !== controlBefore) rankTally.controlShifts++;
      if (rankWorld.decoys.some((decoy) => canRead(person.principal, decoy))) rankTally.decoyReaders++;
      else {
        rankTally.compared++;
        if (before.body !== after.body || before.ok !== after.ok) {
          findings.push({
            kind: "rank",
            text: `seed ${seed}: rank ${route} (${mode}, ${collapse}) "${query}" as ${person.label} changed with the restricted decoys' counts: ${before.body.slice(0, 200)} ≠ ${after.body.slice(0, 200)}`,
          });
        }
      }
      return { before: before.body, after: after.body };
    },
  },
];

interface Tally {
  probes: number;
  leaks: string[];
  parityMismatches: string[];
  moves: number;
  /** Probes run right after a move, before any other probe. */
  probesAfterMoves: number;
  /** Canary secrets seen by principals entitled to them: proof the probes reach the canaries. */
  entitledSightings: number;
  byPath: Map<string, number>;
  timing: Map<string, { denied: number[]; missing: number[] }>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
}

describe("ACL leak fuzzing", () => {
  it(
    `finds no leak and no difference between denied and missing over ${probeBudget} random probes (seed ${seed})`,
    async () => {
      const tally: Tally = {
        probes: 0,
        leaks: [],
        parityMismatches: [],
        moves: 0,
        probesAfterMoves: 0,
        entitledSightings: 0,
        byPath: new Map(),
        timing: new Map(),
      };
      const restrictedProjects = new Set(projects.filter((project) => project.restricted).map((project) => project.id));
      /** After a move: every path once, in order, before any other probe. */
      let sweep: Probe[] = [];
      let moved: WorldRecord | null = null;

      for (let n = 0; n < probeBudget; n++) {
        if (n >= probes.length && sweep.length === 0 && n % moveEvery === 0) {
          moved = await moveRecord(random);
          tally.moves++;
          sweep = [...probes];
        }
        const afterMove = sweep.length > 0;
        // Every path at least once, then at random.
        const probe = n < probes.length ? probes[n]! : (sweep.shift() ?? random.pick(probes));
        if (afterMove) tally.probesAfterMoves++;
        const person = random.pick(people);
        const forbidden = probe.harvest ? secretsForHarvesters() : secretsFor(person.principal);
        // Judged by where records are now, moves included.
        const canarySecrets = new Set(world.filter((record) => restrictedProjects.has(record.projectId)).flatMap((record) => record.secrets));
        let targetId = "";
        let deniedTarget = false;
        if (probe.path === "media" || probe.path === "iiif-image") {
          const owner = random.pick(world.filter((record) => record.mediaIds.length > 0));
          targetId = random.pick(owner.mediaIds);
          deniedTarget = !canRead(person.principal, { projectId: owner.projectId });
        } else if (probe.path === "golden") {
          const set = random.pick(goldenSets);
          targetId = set.id;
          deniedTarget = !keepsGoldenSet(person.principal, set);
        } else if (probe.path === "saved-searches") {
          // Half the time one of the person's own, else anyone's.
          const own = savedSearches.filter((search) => search.ownerId === person.principal.userId);
          const search = own.length > 0 && random.chance(0.5) ? random.pick(own) : random.pick(savedSearches);
          targetId = search.id;
          deniedTarget = search.ownerId !== person.principal.userId;
        } else if (probe.target) {
          const kinds = probe.target.kinds;
          // Right after a move, aim at the moved record half the time.
          const record =
            afterMove && moved && kinds.includes(moved.kind) && random.chance(0.5) ? moved : random.pick(world.filter((item) => kinds.includes(item.kind)));
          targetId = record.id;
          // Harvesters read the public project whoever calls; a record they were once given is a deleted header, not missing.
          deniedTarget = probe.harvest
            ? !canRead(publicReader([projects[0]!.id]), { projectId: record.projectId }) && !everPublic.has(record.id)
            : !canRead(person.principal, { projectId: record.projectId });
        }
        const probeSeed = random.int(2 ** 31);
        // For a denied target the same request goes to a missing record too; which of the two runs
        // first alternates, so neither gains from caches warmed by the other.
        const missingFirst = deniedTarget && probeSeed % 2 === 1;
        const missingRun = async () => {
          const missingStarted = performance.now();
          const missing = await outcomeOf(() => probe.run(person, randomUUID(), generator(probeSeed)));
          return { missing, missingElapsed: performance.now() - missingStarted };
        };
        const before = missingFirst ? await missingRun() : null;
        const started = performance.now();
        const outcome = await outcomeOf(() => probe.run(person, targetId, generator(probeSeed)));
        const elapsed = performance.now() - started;
        tally.probes++;
        tally.byPath.set(probe.path, (tally.byPath.get(probe.path) ?? 0) + 1);
        const context = `seed ${seed}, probe ${n}, ${probe.path} as ${person.label}${targetId ? ` on ${targetId}` : ""}${afterMove && moved ? ` right after moving ${moved.id}` : ""}`;
        for (const secret of forbidden) if (outcome.body.includes(secret)) tally.leaks.push(`${context}: ${secret}`);
        for (const secret of canarySecrets) if (!forbidden.includes(secret) && outcome.body.includes(secret)) tally.entitledSightings++;

        if (deniedTarget) {
          // The same request for a record that does not exist must look exactly the same.
          const { missing, missingElapsed } = before ?? (await missingRun());
          if (missing.body !== outcome.body || missing.ok !== outcome.ok)
            tally.parityMismatches.push(`${context}: ${outcome.body.slice(0, 160)} ≠ ${missing.body.slice(0, 160)}`);
          const timing = tally.timing.get(probe.path) ?? { denied: [], missing: [] };
          timing.denied.push(elapsed);
          timing.missing.push(missingElapsed);
          tally.timing.set(probe.path, timing);
        }
        if (!outcome.ok && outcome.body.includes('"internal"')) tally.parityMismatches.push(`${context}: internal error ${outcome.body.slice(0, 200)}`);
      }

      const timingText = [...tally.timing.entries()]
        .map(([path, { denied, missing }]) => `${path} ${median(denied).toFixed(2)}/${median(missing).toFixed(2)} ms (n=${denied.length})`)
        .join("; ");
      console.info(
        `acl-fuzz: seed=${seed} probes=${tally.probes} leaks=${tally.leaks.length} parity-mismatches=${tally.parityMismatches.length} ` +
          `entitled-canary-sightings=${tally.entitledSightings} principals=${people.length} records=${world.length} ` +
          `moves=${tally.moves} probes-right-after-moves=${tally.probesAfterMoves} findings=${findings.length} (${findingKinds.map((kind) => `${kind}=${findings.filter((finding) => finding.kind === kind).length}`).join(" ")})\n` +
          `acl-fuzz kinds: relation-pairs=${relationPairs.length} relation-searches=${relationSearchTally.judged} (awaiting-index=${relationSearchTally.awaitingIndex}) rank-compared=${rankTally.compared} rank-decoy-readers=${rankTally.decoyReaders} ` +
          `rank-control-shifts=${rankTally.controlShifts} mcp-batches=${batchTally.batches} (calls=${batchTally.calls} over-maximum=${batchTally.overMaximum})\n` +
          `acl-fuzz paths: ${[...tally.byPath.entries()].map(([path, count]) => `${path}=${count}`).join(" ")}\n` +
          `acl-fuzz denied/missing median: ${timingText}`,
      );
      expect(tally.leaks).toEqual([]);
      expect(tally.parityMismatches).toEqual([]);
      expect(findings.map((finding) => finding.text)).toEqual([]);
      // The rank probe saw the ranking move where it may: the admin's order followed every swap.
      expect(rankTally.controlShifts).toBe(tally.byPath.get("rank"));
      expect(tally.entitledSightings).toBeGreaterThan(0);
      expect(tally.byPath.size).toBe(probes.length);
      if (probeBudget >= probes.length + moveEvery) expect(tally.moves).toBeGreaterThan(0);
      // A probe takes about 50–150 ms on two shared cores (the rank probe re-indexes its decoys):
      // the limit grows with the budget, so a 10,000-probe run is not cut off.
    },
    Math.max(900_000, probeBudget * 400),
  );
});
