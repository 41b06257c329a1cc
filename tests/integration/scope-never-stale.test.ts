import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { deleteRecord } from "../../lib/archive/delete-record";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { ask } from "../../lib/rag/ask/ask";
import { askInThread, getThread, noLongerReadableMessage } from "../../lib/rag/ask/threads";
import { listEmbedGroups, sectionShapes } from "../../lib/rag/config/embed-groups";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { indexRecords } from "../../lib/rag/index/index-record";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { characteriseObject } from "../../lib/rag/objects/characterise";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import { proposalsForRecord, proposeForUncatalogued } from "../../lib/rag/objects/proposals";
import { findSimilarObjects } from "../../lib/rag/objects/similar-objects";
import { findSimilarRecords } from "../../lib/rag/search/find-similar";
import { clearResolvedSearches, resolveRecordSearch } from "../../lib/rag/search/resolve-search";
import { searchArchive } from "../../lib/rag/search/search-archive";
import { renderCoinFace } from "../../prisma/seed/render-coin";
import { callApi } from "../support/api-request";
import { addMember, coinContextFor, coinFields, createProject, createUser, principalOf, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { type ServiceRuntime, serviceRuntime } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Scope is never stale (invariant 5; issue 16, findings 2 and 3). An admin moves a public person
 * into a restricted project: from the moment the save returns — no index worker has run — no
 * search mode, retrieval, answer, similar-records or similar-objects call, stored proposal,
 * saved answer or cached record-list search of a reader of only the public project holds
 * anything of the person, nor the text of theirs that a public interview's group document
 * quotes (directly, or through the person's birthplace, two links away). The interview is
 * queued, and once re-indexed its passages holding that text stay hidden from that reader.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const descriptor = createDescriptorEmbedder();
const slug = (name: string) => `${name}-${randomUUID().slice(0, 6)}`;
const sections = { places: slug("places"), people: slug("people"), interviews: slug("interviews"), coins: slug("coins") };

/**
 * Words only the person's occupation, the birthplace's description and the interview's summary
 * hold. Queries ask for the first of each pair (so it is echoed back in query fields); the second
 * is never typed, so finding it means the text itself travelled.
 */
const occupationWord = "vorquelline";
const occupationHush = "hushwarden";
const birthplaceWord = "zestrovan";
const birthplaceHush = "hushhamlet";
const summaryWord = "pantanosa";

const placeFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "description", label: "Description", type: "text" },
];
const personFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "occupation", label: "Occupation", type: "text" },
  { key: "birthplace", label: "Birthplace", type: "relation", targetSection: sections.places },
];
const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: sections.people },
  { key: "summary", label: "Summary", type: "longtext" },
];

let db: Database;
let space: IndexSpace;
let storageDir: string;
let services: ServiceRuntime;
let publicProject: string;
let mineProject: string;
let admin: Principal;
let researcher: Principal;
let researcherToken: string;
let mineResearcher: Principal;
const ids = { place: "", person: "", interview: "", subjectCoin: "", movingCoin: "" };

async function drain(worker: { embedder?: Embedder } = {}) {
  return runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder: worker.embedder ?? embedder,
    space,
    drain: true,
    idleMs: 10,
    batchSize: 8,
    objects: { storageDir, imageEmbedders: [descriptor] },
  });
}

/** Moves a record to another project as an admin would, keeping its values. */
async function move(recordId: string, projectId: string) {
  const record = await db.prisma.record.findUniqueOrThrow({ where: { id: recordId }, include: { section: true } });
  return saveRecord(db.prisma, admin, {
    id: record.id,
    version: record.version,
    sectionSlug: record.section.slug,
    projectId,
    values: record.values as Record<string, unknown>,
  });
}

/** The admin changes some of a record's values; the record stays in (or goes to) the public project. */
async function editInPublic(recordId: string, changes: Record<string, unknown>) {
  const record = await db.prisma.record.findUniqueOrThrow({ where: { id: recordId }, include: { section: true } });
  const values = { ...(record.values as Record<string, unknown>), ...changes };
  return saveRecord(db.prisma, admin, { id: record.id, version: record.version, sectionSlug: record.section.slug, projectId: publicProject, values });
}

async function coin(projectId: string, title: string, values: Record<string, unknown>): Promise<string> {
  const look = { key: "look", metal: "silver", typology: "denarius", period: "Roman Republic" };
  const media: string[] = [];
  for (const face of ["obverse", "reverse"] as const) {
    const bytes = await renderCoinFace({ ...look, face });
    media.push(
      (
        await storeMedia(db.prisma, systemPrincipal, {
          projectId,
          file: { name: `${title}-${face}.webp`, bytes },
          expectedKind: "image",
          storageDir,
          maxBytes: 5 * 1024 * 1024,
        })
      ).id,
    );
  }
  return (
    await saveRecord(db.prisma, systemPrincipal, { sectionSlug: sections.coins, projectId, values: { title, ...values, obverse: media[0], reverse: media[1] } })
  ).id;
}

async function queued(): Promise<Set<string>> {
  const rows = await db.prisma.indexQueueItem.findMany({ where: { status: "pending" }, select: { recordId: true } });
  return new Set(rows.map((row) => row.recordId));
}

async function collect<T>(events: AsyncGenerator<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Everything a principal can get by searching, retrieving and asking for `query`, as one text. */
async function everythingFound(principal: Principal, token: string | null, query: string): Promise<string> {
  const parts: unknown[] = [];
  for (const mode of ["hybrid", "semantic", "keyword"] as const) {
    for (const collapse of ["record", "passage"] as const) parts.push(await searchArchive(services.search, principal, { query, mode, collapse, limit: 50 }));
  }
  parts.push(await collect(ask(services.askContext, principal, { question: `What about ${query}?` })));
  parts.push(await findSimilarRecords(db.sql, principal, space, ids.interview, { limit: 50 }));
  if (token) {
    for (const name of ["retrieve", "get_agent_context", "semantic_search"]) {
      const response = await callApi(services.apiDeps, name, { query }, { origin: "http://scope.test", token });
      parts.push(`${response.status} ${await response.text()}`);
    }
  }
  return JSON.stringify(parts);
}

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  space = await testIndexSpace(db.sql, embedder);
  await db.prisma.section.create({ data: { slug: sections.places, name: "Places", fields: placeFields as never } });
  await db.prisma.section.create({ data: { slug: sections.people, name: "People", fields: personFields as never } });
  await db.prisma.section.create({ data: { slug: sections.interviews, name: "Interviews", fields: interviewFields as never } });
  await db.prisma.section.create({
    data: { slug: sections.coins, name: "Coins", fields: coinFields as never, objectContext: coinContextFor(sections.coins, 0.9) as never },
  });
  const group = (fields: string[], name = "about") => ({
    slug: name,
    label: name,
    fields,
    chunking: "short" as const,
    maxTokens: 128,
    minTokens: 1,
    overlap: 0,
  });
  await saveEmbedGroup(db.prisma, db.sql, { sectionSlug: sections.places, group: group(["name", "description"]), requeue: false });
  await saveEmbedGroup(db.prisma, db.sql, { sectionSlug: sections.people, group: group(["name", "occupation"]), requeue: false });
  // The interview's "about" group quotes its narrator, and the narrator's birthplace; its
  // "summary" group holds its own text only.
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: sections.interviews,
    group: group(["title", "narrator", "narrator.occupation", "narrator.birthplace.description", "summary"]),
    requeue: false,
  });
  await saveEmbedGroup(db.prisma, db.sql, { sectionSlug: sections.interviews, group: group(["title", "summary"], "summary"), requeue: false });

  publicProject = (await createProject(db.prisma)).id;
  mineProject = (await createProject(db.prisma, { restricted: true })).id;
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const researcherUser = await createUser(db.prisma);
  await addMember(db.prisma, researcherUser.id, publicProject);
  researcher = await principalOf(db.prisma, researcherUser.id);
  researcherToken = (await createApiToken(db.prisma, researcher, { name: "scope", expiresInDays: 1 })).token;
  const mineUser = await createUser(db.prisma);
  await addMember(db.prisma, mineUser.id, publicProject);
  await addMember(db.prisma, mineUser.id, mineProject);
  mineResearcher = await principalOf(db.prisma, mineUser.id);

  const save = async (section: string, values: Record<string, unknown>) =>
    (await saveRecord(db.prisma, systemPrincipal, { sectionSlug: section, projectId: publicProject, values })).id;
  ids.place = await save(sections.places, { name: "Sant Romà de Sau", description: `a hamlet drowned by the ${birthplaceWord} reservoir, ${birthplaceHush}` });
  ids.person = await save(sections.people, {
    name: "Andrés Bielsa Lacasa",
    occupation: `dam labourer and reservoir warden, called ${occupationWord} ${occupationHush}`,
    birthplace: ids.place,
  });
  ids.interview = await save(sections.interviews, {
    title: "La moneda del pantano",
    narrator: ids.person,
    summary: `A coin found in the ${summaryWord} mud when the water was let out.`,
  });
  for (let n = 0; n < 3; n++)
    await coin(publicProject, `Denarius ${n}`, { metal: "silver", typology: "denarius", period: "Roman Republic", date: { from: -150, to: -100 } });
  ids.movingCoin = await coin(publicProject, "Denarius that moves", {
    metal: "silver",
    typology: "denarius",
    period: "Roman Republic",
    date: { from: -150, to: -100 },
  });
  ids.subjectCoin = await coin(publicProject, "Uncatalogued coin", {});
  await drain();

  services = serviceRuntime(db, { embedder, space, descriptor, origin: "http://scope.test" });
  await proposeForUncatalogued(services.objects, admin, { limit: 10 });
}, 300_000);

afterAll(async () => {
  await db?.close();
});

describe(`scope is never stale (${testDatabaseMode()})`, () => {
  it("shows the reader of the public project everything before the move (the control)", async () => {
    const found = await everythingFound(researcher, researcherToken, `${occupationWord} ${birthplaceWord} warden`);
    expect(found).toContain(ids.person);
    expect(found).toContain(occupationHush);
    expect(found).toContain(birthplaceHush);
    const similar = await findSimilarObjects(services.objects, researcher, { recordId: ids.subjectCoin, mode: "hybrid", limit: 48 });
    expect(JSON.stringify(similar)).toContain(ids.movingCoin);
    const proposals = await proposalsForRecord(services.objects, researcher, ids.subjectCoin);
    expect(proposals.length).toBeGreaterThan(0);
    expect(proposals.some((proposal) => JSON.stringify(proposal.evidence).includes(ids.movingCoin))).toBe(true);
  });

  it("hides a moved record and every passage quoting it the moment the save returns, before any worker runs", async () => {
    // Made before the move: a saved answer citing only the interview (whose passage quotes the
    // person), and a cached record-list search.
    const thread = await collect(
      askInThread(db.prisma, services.askContext, researcher, {
        question: `Who was the reservoir warden called ${occupationWord}?`,
        scope: { recordIds: [ids.interview] },
      }),
    );
    const threadId = (thread.find((event) => event.type === "thread") as { threadId: string }).threadId;
    const answered = await getThread(db.prisma, researcher, threadId);
    expect(JSON.stringify(answered.messages)).toContain(occupationHush);
    expect(answered.messages.flatMap((message) => message.citations.map((citation) => citation.recordId))).toEqual([ids.interview]);
    clearResolvedSearches();
    const listQuery = { query: `${occupationWord} warden`, mode: "hybrid" as const };
    expect(JSON.stringify((await resolveRecordSearch(services.search, researcher, listQuery)).result)).toContain(occupationHush);

    await move(ids.person, mineProject);

    const found = await everythingFound(researcher, researcherToken, `${occupationWord} ${birthplaceWord} warden`);
    expect(found).not.toContain(ids.person);
    expect(found).not.toContain(occupationHush);
    // The public interview is still found by its own text, but not by its passages quoting the person.
    const interview = await searchArchive(services.search, researcher, { query: summaryWord, mode: "keyword", collapse: "passage", limit: 50 });
    expect(interview.hits.map((hit) => hit.recordId)).toContain(ids.interview);
    expect(JSON.stringify(interview)).not.toContain(occupationHush);

    const list = await resolveRecordSearch(services.search, researcher, listQuery);
    expect(JSON.stringify(list.result)).not.toContain(occupationHush);
    expect(list.pinnedIds).not.toContain(ids.person);

    const reopened = await getThread(db.prisma, researcher, threadId);
    const answer = reopened.messages.find((message) => message.role === "assistant");
    expect(answer?.content).toBe(noLongerReadableMessage);
    expect(JSON.stringify(reopened)).not.toContain(occupationHush);

    // Nothing was lost: a reader of both projects finds the person and the quoting passage at once.
    const insider = await everythingFound(mineResearcher, null, `${occupationWord} warden`);
    expect(insider).toContain(ids.person);
    const quoting = await searchArchive(services.search, mineResearcher, { query: occupationWord, mode: "keyword", collapse: "passage", limit: 50 });
    expect(quoting.hits.map((hit) => hit.recordId)).toEqual(expect.arrayContaining([ids.person, ids.interview]));

    // The interview, whose group document holds the person's text, is queued with the person.
    const pending = await queued();
    expect(pending.has(ids.person)).toBe(true);
    expect(pending.has(ids.interview)).toBe(true);
  });

  it("follows relation paths of any depth: moving the birthplace hides the interview's passage quoting it", async () => {
    await drain();
    await move(ids.place, mineProject);
    const found = await everythingFound(researcher, researcherToken, `${birthplaceWord} reservoir hamlet`);
    expect(found).not.toContain(birthplaceHush);
    expect(found).not.toContain(ids.place);
    const pending = await queued();
    expect(pending.has(ids.interview)).toBe(true);
    // The person's own group holds nothing of the place: not queued for it.
    expect(pending.has(ids.person)).toBe(false);
  });

  it("after the worker runs, the public interview's passages holding restricted text stay hidden, and its own text is found", async () => {
    await drain();
    const found = await everythingFound(researcher, researcherToken, `${occupationWord} ${birthplaceWord} warden`);
    expect(found).not.toContain(occupationHush);
    expect(found).not.toContain(birthplaceHush);
    const interview = await searchArchive(services.search, researcher, { query: summaryWord, mode: "keyword", collapse: "passage", limit: 50 });
    expect(interview.hits.map((hit) => hit.recordId)).toContain(ids.interview);
    // Only the narrator's and the birthplace's lines left the "about" group's passages: the
    // interview's own title and summary in that group are found again (buildGroupDocuments).
    const about = interview.hits.filter((hit) => hit.recordId === ids.interview && hit.passage.groupLabel === "about");
    expect(about.map((hit) => hit.passage.text).join("\n")).toContain(summaryWord);
    expect(JSON.stringify(about)).not.toContain("Andrés Bielsa");
    const insider = await searchArchive(services.search, mineResearcher, {
      query: `${occupationWord} ${birthplaceWord}`,
      mode: "keyword",
      collapse: "passage",
      limit: 50,
    });
    expect(JSON.stringify(insider)).toContain(occupationHush);
    expect(JSON.stringify(insider)).toContain(birthplaceHush);
  });

  it("moving back shows everything again at once", async () => {
    await move(ids.place, publicProject);
    await move(ids.person, publicProject);
    const found = await everythingFound(researcher, researcherToken, `${occupationWord} ${birthplaceWord} warden`);
    expect(found).toContain(ids.person);
    expect(found).toContain(occupationHush);
    expect(found).toContain(birthplaceHush);
    await drain();
  });

  it("a linked record's edit queues every record whose documents quote it, and only those", async () => {
    await editInPublic(ids.place, { description: `a hamlet under the ${birthplaceWord} water since 1962, ${birthplaceHush}` });
    const pending = await queued();
    expect([...pending].sort()).toEqual([ids.interview, ids.place].sort());
    await drain();
    const found = await searchArchive(services.search, researcher, { query: "hamlet water 1962", mode: "keyword", collapse: "passage", limit: 50 });
    expect(found.hits.map((hit) => hit.recordId)).toContain(ids.interview);
  });

  it("a move while the worker embeds: the passages it then writes carry the new scope", async () => {
    await editInPublic(ids.person, { occupation: `night warden of the sluices, called ${occupationWord} ${occupationHush}` });
    // The worker reads the person (still public) and builds the interview's passages; the move
    // commits while it embeds their new text, before it writes them.
    let moved = false;
    const movingEmbedder: Embedder = {
      ...embedder,
      async embed(texts, kind) {
        if (!moved) {
          moved = true;
          await move(ids.person, mineProject);
        }
        return embedder.embed(texts, kind);
      },
    };
    const groups = await listEmbedGroups(db.prisma);
    const groupsBySection = new Map<string, typeof groups>();
    for (const group of groups) groupsBySection.set(group.sectionId, [...(groupsBySection.get(group.sectionId) ?? []), group]);
    const [indexed] = await indexRecords({ sql: db.sql, space, embedder: movingEmbedder, sections: await sectionShapes(db.prisma), groupsBySection }, [
      ids.interview,
    ]);
    expect(moved).toBe(true);
    expect(indexed?.embedded).toBeGreaterThan(0);
    const written = await db.sql.query<{ text: string }>(`SELECT text FROM chunks WHERE record_id = $1 AND text LIKE '%sluices%'`, [ids.interview]);
    expect(written.length).toBeGreaterThan(0);
    const found = await everythingFound(researcher, researcherToken, `${occupationWord} sluices warden`);
    expect(found).not.toContain(occupationHush);
    expect(found).not.toContain(ids.person);
    await move(ids.person, publicProject);
    await drain();
  });

  it("hides similar objects, characterisation and stored proposals drawn from a moved object at once", async () => {
    await move(ids.movingCoin, mineProject);
    const similar = await findSimilarObjects(services.objects, researcher, { recordId: ids.subjectCoin, mode: "hybrid", limit: 48 });
    const characterised = await characteriseObject(services.objects, researcher, { recordId: ids.subjectCoin, mode: "hybrid" });
    const proposals = await proposalsForRecord(services.objects, researcher, ids.subjectCoin);
    for (const seen of [similar, characterised, proposals].map((answer) => JSON.stringify(answer))) {
      expect(seen).not.toContain(ids.movingCoin);
      expect(seen).not.toContain("Denarius that moves");
    }
    // A reader of both projects still sees the proposal.
    const insiderProposals = await proposalsForRecord(services.objects, mineResearcher, ids.subjectCoin);
    expect(JSON.stringify(insiderProposals)).toContain(ids.movingCoin);
  });

  it("deleting a linked record queues the records quoting it", async () => {
    await drain();
    const place = await db.prisma.record.findUniqueOrThrow({ where: { id: ids.place } });
    await deleteRecord(db.prisma, admin, { id: ids.place, version: place.version });
    const pending = await queued();
    expect(pending.has(ids.interview)).toBe(true);
    await drain();
    const found = await searchArchive(services.search, admin, { query: birthplaceWord, mode: "keyword", collapse: "passage", limit: 50 });
    expect(JSON.stringify(found)).not.toContain(birthplaceHush);
  });
});
