import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { recordFacets } from "../../lib/archive/record-facets";
import type { Database } from "../../lib/db/database";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { loadRecordListView } from "../../lib/rag/search/record-list-view";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, saveAllGroup, testIndexSpace } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The record list's facets: counts per section, project, decade, language, media type, person
 * and place under the query and the other filters, over the records the principal may read only
 * — a restricted project's records are never counted for someone outside it, a restricted
 * person or place is neither named nor counted, and a principal with no project counts nothing.
 * Also the list's default order: a mix of sections, paged without repeats or gaps.
 */
let db: Database;
let reader: Principal;
let admin: Principal;
let nobody: Principal;
const slugs: { letters: string; photos: string } = { letters: "", photos: "" };
const projectIds: { open: string; closed: string } = { open: "", closed: "" };
const query = (values: Record<string, unknown> = {}) => listRecordsQuerySchema.parse(values);

beforeAll(async () => {
  db = await openTestDatabase();
  const open = await createProject(db.prisma);
  const closed = await createProject(db.prisma, { restricted: true });
  projectIds.open = open.id;
  projectIds.closed = closed.id;
  const letters = await createSection(db.prisma);
  const photos = await createSection(db.prisma);
  slugs.letters = letters.slug;
  slugs.photos = photos.slug;
  for (const year of [1961, 1965, 1972]) await createRecord(db.prisma, letters, open.id, { title: `Harbour letter ${year}`, period: { from: year, to: year } });
  await createRecord(db.prisma, photos, open.id, { title: "Harbour photo", period: { from: 1972, to: 1972 } });
  await createRecord(db.prisma, photos, open.id, { title: "Undated photo" });
  // The restricted project: a harbour letter of 1961 and one of 1995 only its members may count.
  await createRecord(db.prisma, letters, closed.id, { title: "Harbour letter, closed", period: { from: 1961, to: 1961 } });
  await createRecord(db.prisma, letters, closed.id, { title: "Mine letter 1995", period: { from: 1995, to: 1995 } });
  const user = await createUser(db.prisma);
  await addMember(db.prisma, user.id, open.id);
  reader = await principalOf(db.prisma, user.id);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  nobody = await principalOf(db.prisma, (await createUser(db.prisma)).id);
});

afterAll(async () => {
  await db.close();
});

const countsOf = (values: { value: string; count: number }[]) => Object.fromEntries(values.map((value) => [value.value, value.count]));

describe(`record facets (${testDatabaseMode()})`, () => {
  it("count readable records only, per section, project and decade", async () => {
    const facets = await recordFacets(db.sql, reader, query());
    expect(countsOf(facets.sections)).toEqual({ [slugs.letters]: 3, [slugs.photos]: 2 });
    expect(countsOf(facets.projects)).toEqual({ [projectIds.open]: 5 });
    expect(countsOf(facets.decades)).toEqual({ "1960": 2, "1970": 2 });
    const everything = await recordFacets(db.sql, admin, query());
    expect(countsOf(everything.sections)).toMatchObject({ [slugs.letters]: 5, [slugs.photos]: 2 });
    // The interviews below add 1950 and 1962 to the letters' and photos' decades.
    expect(countsOf(everything.decades)).toEqual({ "1950": 1, "1960": 4, "1970": 2, "1990": 1 });
    const none = { values: [], distinct: 0 };
    expect(await recordFacets(db.sql, nobody, query())).toEqual({
      sections: [],
      projects: [],
      decades: [],
      languages: [],
      media: [],
      people: none,
      places: none,
    });
  });

  it("follow the text filter and a search's hits, and count a facet's own dimension under the other filters", async () => {
    const harbour = await recordFacets(db.sql, reader, query({ text: "harbour", section: slugs.letters }));
    // The section facet ignores the section filter: the photo matching "harbour" still counts.
    expect(countsOf(harbour.sections)).toEqual({ [slugs.letters]: 3, [slugs.photos]: 1 });
    expect(countsOf(harbour.projects)).toEqual({ [projectIds.open]: 3 });
    const years = await recordFacets(db.sql, reader, query({ from: 1970, to: 1979 }));
    // The decade facet ignores the years; the others keep them.
    expect(countsOf(years.decades)).toEqual({ "1960": 2, "1970": 2 });
    expect(countsOf(years.sections)).toEqual({ [slugs.letters]: 1, [slugs.photos]: 1 });
    const ids = (await db.prisma.record.findMany({ where: { title: { in: ["Harbour photo", "Harbour letter, closed"] } }, select: { id: true } })).map(
      (row) => row.id,
    );
    const pinned = await recordFacets(db.sql, reader, query(), { pinnedIds: ids });
    // The closed letter is among the pinned ids, but the reader cannot read it: not counted.
    expect(countsOf(pinned.sections)).toEqual({ [slugs.photos]: 1 });
  });
});

/**
 * Interviews in an open project ("oral") that link narrators and places, some of them in a
 * restricted project ("hidden"). The listener reads "oral" only; the insider both.
 */
const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "period", label: "Period", type: "daterange" },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
  { key: "place", label: "Place", type: "relation", targetSection: "places" },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "scan", label: "Scanned pages", type: "scan" },
];
let listener: Principal;
let insider: Principal;
const ids: Record<string, string> = {};
let interviews = "";

async function addMedia(recordId: string, projectId: string, kind: "audio" | "image", fieldKey: string) {
  const id = crypto.randomUUID();
  await db.prisma.media.create({
    data: {
      id,
      recordId,
      projectId,
      fieldKey,
      kind,
      mime: kind === "audio" ? "audio/ogg" : "image/png",
      size: 10,
      originalName: "file",
      storageKey: `test/${id}`,
      sha256: "0".repeat(64),
    },
  });
}

/** A passage of the record in the active index space, in `language`, quoting text of `projects`. */
async function addPassage(
  record: { id: string; projectId: string; sectionId: string },
  language: string,
  text: string,
  projects: string[],
  groupId: string,
  spaceId: string,
) {
  await db.sql.query(
    `INSERT INTO chunks (id, record_id, project_id, section_id, embed_group_id, index_space_id, language, ordinal, text, embedded_text,
                         start_offset, end_offset, contributing_project_ids, content_hash)
     VALUES (gen_random_uuid()::text, $1, $2, $3, $4, $5, $6, 0, $7, $7, 0, length($7), $8, md5($7 || $6))`,
    [record.id, record.projectId, record.sectionId, groupId, spaceId, language, text, projects],
  );
}

beforeAll(async () => {
  const oral = await createProject(db.prisma);
  const hidden = await createProject(db.prisma, { restricted: true });
  const titleOnly: FieldDefinition[] = [{ key: "title", label: "Name", type: "text", required: true, listed: true }];
  const people = await db.prisma.section.create({ data: { slug: "people", name: "People", fields: titleOnly } });
  const places = await db.prisma.section.create({ data: { slug: "places", name: "Places", fields: titleOnly } });
  const section = await createSection(db.prisma, interviewFields);
  interviews = section.slug;
  for (const [key, sectionRow, projectId, title] of [
    ["alba", people, oral.id, "Alba Serra"],
    ["pere", people, oral.id, "Pere Vidal"],
    ["secretPerson", people, hidden.id, "Concealed Narrator"],
    ["port", places, oral.id, "Port de la Calma"],
    ["secretPlace", places, hidden.id, "Concealed Mine"],
  ] as const) {
    ids[key] = (await createRecord(db.prisma, sectionRow, projectId, { title })).id;
  }
  const interview = async (key: string, projectId: string, values: Record<string, unknown>) => {
    const record = await createRecord(db.prisma, section, projectId, { title: key, ...values });
    ids[key] = record.id;
    return record;
  };
  const netMenders = await interview("Net menders", oral.id, { language: "ca", narrator: ids.alba, place: ids.port, period: { from: 1950, to: 1950 } });
  await addMedia(netMenders.id, oral.id, "audio", "recording");
  const saltFish = await interview("Salt fish", oral.id, { language: "es", narrator: ids.alba, place: ids.secretPlace, period: { from: 1962, to: 1962 } });
  // A scan field's page image: a scanned document, not a picture.
  await addMedia(saltFish.id, oral.id, "image", "scan");
  const caulkers = await interview("Caulkers", oral.id, { narrator: ids.secretPerson });
  const auction = await interview("Auction", oral.id, { narrator: ids.pere });
  await interview("Unindexed", oral.id, { narrator: ids.alba });
  await interview("Closed testimony", hidden.id, { language: "ca", narrator: ids.secretPerson, place: ids.secretPlace });

  const space = await testIndexSpace(db.sql, createHashEmbedder({ dimension: 32 }));
  await saveAllGroup(db.prisma, db.sql, section.slug, ["title"]);
  const [group] = await db.sql.query<{ id: string }>(`SELECT id FROM embed_groups WHERE section_id = $1`, [section.id]);
  // Caulkers has no language of its own: its readable passages are mostly English; a longer
  // Catalan one quotes the restricted project, so it votes only for those who can read it.
  await addPassage(caulkers, "en", "The caulkers sealed the hulls with pitch and oakum every spring.", [oral.id], group!.id, space.id);
  await addPassage(
    caulkers,
    "ca",
    "Els calafats segellaven els bucs amb pega i estopa cada primavera, i la mina tancada en parlava sovint.",
    [oral.id, hidden.id],
    group!.id,
    space.id,
  );
  // Auction's only passage is a date: undetermined, so "other".
  await addPassage(auction, "und", "ca. 1928", [oral.id], group!.id, space.id);

  const listenerUser = await createUser(db.prisma);
  await addMember(db.prisma, listenerUser.id, oral.id);
  listener = await principalOf(db.prisma, listenerUser.id);
  const insiderUser = await createUser(db.prisma);
  await addMember(db.prisma, insiderUser.id, oral.id);
  await addMember(db.prisma, insiderUser.id, hidden.id);
  insider = await principalOf(db.prisma, insiderUser.id);
});

describe(`language, media, person and place facets (${testDatabaseMode()})`, () => {
  it("count each dimension for the reader, never naming or counting a restricted person or place", async () => {
    const facets = await recordFacets(db.sql, listener, query({ section: interviews }));
    expect(countsOf(facets.languages)).toEqual({ ca: 1, es: 1, en: 1, other: 1, unknown: 1 });
    expect(facets.languages.map((value) => value.label)).toEqual(["English", "Spanish", "Catalan", "Other or undetermined", "Not yet known (not indexed)"]);
    expect(countsOf(facets.media)).toEqual({ audio: 1, document: 1, none: 3 });
    expect(countsOf(facets.people.values)).toEqual({ [ids.alba!]: 3, [ids.pere!]: 1 });
    expect(facets.people.values[0]).toMatchObject({ label: "Alba Serra", count: 3 });
    expect(facets.people.distinct).toBe(2);
    expect(countsOf(facets.places.values)).toEqual({ [ids.port!]: 1 });
    expect(JSON.stringify(facets)).not.toMatch(/Concealed|Closed testimony/);
  });

  it("let the insider count what they may read: the restricted people, places and passages", async () => {
    const facets = await recordFacets(db.sql, insider, query({ section: interviews }));
    // Caulkers is Catalan for the insider: the passage quoting the restricted project votes.
    expect(countsOf(facets.languages)).toEqual({ ca: 3, es: 1, other: 1, unknown: 1 });
    expect(countsOf(facets.people.values)).toEqual({ [ids.alba!]: 3, [ids.secretPerson!]: 2, [ids.pere!]: 1 });
    expect(countsOf(facets.places.values)).toEqual({ [ids.secretPlace!]: 2, [ids.port!]: 1 });
    expect(facets.people.values.map((value) => value.label)).toContain("Concealed Narrator");
  });

  it("change with the query and the filters, each facet under the others", async () => {
    const alba = await recordFacets(db.sql, listener, query({ section: interviews, person: ids.alba }));
    expect(countsOf(alba.languages)).toEqual({ ca: 1, es: 1, unknown: 1 });
    expect(countsOf(alba.media)).toEqual({ audio: 1, document: 1, none: 1 });
    // The person facet leaves out its own filter; the places are Alba's (the restricted one unnamed).
    expect(countsOf(alba.people.values)).toEqual({ [ids.alba!]: 3, [ids.pere!]: 1 });
    expect(countsOf(alba.places.values)).toEqual({ [ids.port!]: 1 });
    const salt = await recordFacets(db.sql, listener, query({ section: interviews, text: "salt" }));
    expect(countsOf(salt.languages)).toEqual({ es: 1 });
    expect(countsOf(salt.media)).toEqual({ document: 1 });
    const silent = await recordFacets(db.sql, listener, query({ section: interviews, media: "none" }));
    expect(countsOf(silent.languages)).toEqual({ en: 1, other: 1, unknown: 1 });
    expect(countsOf(silent.media)).toEqual({ audio: 1, document: 1, none: 3 });
    const english = await recordFacets(db.sql, listener, query({ section: interviews, language: "en" }));
    expect(countsOf(english.media)).toEqual({ none: 1 });
    expect(countsOf(english.people.values)).toEqual({});
    const pinned = await recordFacets(db.sql, listener, query(), { pinnedIds: [ids["Net menders"]!, ids["Salt fish"]!, ids["Closed testimony"]!] });
    expect(countsOf(pinned.languages)).toEqual({ ca: 1, es: 1 });
    expect(countsOf(pinned.people.values)).toEqual({ [ids.alba!]: 2 });
    const none = { values: [], distinct: 0 };
    expect(await recordFacets(db.sql, nobody, query({ section: interviews }))).toMatchObject({ languages: [], media: [], people: none, places: none });
  });

  it("filter the list the same way; a restricted person filters to nothing, as a missing one", async () => {
    const titles = async (principal: Principal, values: Record<string, unknown>) =>
      (await listRecords(db.sql, principal, query({ section: interviews, ...values }))).items.map((item) => item.title).sort();
    expect(await titles(listener, { person: ids.alba })).toEqual(["Net menders", "Salt fish", "Unindexed"]);
    expect(await titles(listener, { language: "en" })).toEqual(["Caulkers"]);
    expect(await titles(insider, { language: "en" })).toEqual([]);
    expect(await titles(listener, { language: "unknown" })).toEqual(["Unindexed"]);
    expect(await titles(listener, { media: "document" })).toEqual(["Salt fish"]);
    expect(await titles(listener, { media: "none", place: ids.port })).toEqual([]);
    expect(await titles(listener, { person: ids.secretPerson })).toEqual([]);
    expect(await titles(listener, { place: ids.secretPlace })).toEqual([]);
    expect(await titles(listener, { person: crypto.randomUUID() })).toEqual([]);
    expect(await titles(insider, { person: ids.secretPerson })).toEqual(["Caulkers", "Closed testimony"]);
    expect(await titles(nobody, { person: ids.alba })).toEqual([]);
  });

  it("validate the new filters", () => {
    for (const bad of [{ language: "fr" }, { media: "cassette" }, { person: "'; DROP TABLE records; --" }, { place: "x".repeat(65) }]) {
      expect(listRecordsQuerySchema.safeParse(bad).success).toBe(false);
    }
    expect(listRecordsQuerySchema.parse({ language: "", media: " ", person: "" })).toMatchObject({ language: undefined, media: undefined, person: undefined });
  });
});

describe(`the list's default order (${testDatabaseMode()})`, () => {
  const deps = () => ({
    prisma: db.prisma,
    sql: db.sql,
    searchContext: () => Promise.reject(new Error("no search without a query")),
  });

  it("mixes the sections on the first page and pages through every record once", async () => {
    const all = await listRecords(db.sql, admin, query({ sort: "mixed", pageSize: 100 }));
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 4); page++) {
      pages.push(...(await listRecords(db.sql, admin, query({ sort: "mixed", pageSize: 4, page }))).items.map((item) => item.id));
    }
    expect(pages).toEqual(all.items.map((item) => item.id));
    expect(new Set(pages).size).toBe(all.total);
    // Five sections, each in the first five rows: none waits behind another's catalogue.
    expect(new Set(all.items.slice(0, 5).map((item) => item.sectionSlug)).size).toBe(5);
    const byTitle = await listRecords(db.sql, admin, query({ pageSize: 5 }));
    expect(new Set(byTitle.items.map((item) => item.sectionSlug)).size).toBeLessThan(5);
  });

  it("is the default only with nothing chosen: a filter, a sort or a search keeps its own order", async () => {
    const unfiltered = await loadRecordListView(deps(), listener, {});
    expect(unfiltered.mixed).toBe(true);
    expect(
      unfiltered
        .result!.items.slice(0, 3)
        .map((item) => item.sectionSlug)
        .sort(),
    ).toEqual(["people", "places", interviews].sort());
    const filtered = await loadRecordListView(deps(), listener, { section: interviews });
    expect(filtered.mixed).toBe(false);
    expect(filtered.result!.items.map((item) => item.title)).toEqual(["Auction", "Caulkers", "Net menders", "Salt fish", "Unindexed"]);
    expect((await loadRecordListView(deps(), listener, { sort: "-title" })).mixed).toBe(false);
    expect((await loadRecordListView(deps(), listener, { language: "bogus" })).problem).toMatch(/^Language: must be one of en, es, ca/);
  });
});

describe(`dates as written, filtered and faceted by the years they cover (${testDatabaseMode()})`, () => {
  it("match a year filter when their years overlap it, count in the decade they start in, list as written, and stay hidden from outsiders", async () => {
    const archive = await createProject(db.prisma, { restricted: true });
    const catalogue = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true },
      { key: "made", label: "Made", type: "date", listed: true },
    ]);
    for (const [title, made] of [
      ["Approximate", "c. 1850"],
      ["Decade", "1850s"],
      ["Interval", "1850-1860"],
      ["Century", "s. XVIII"],
      ["Month", "1923-05"],
      ["Open", "1840/.."],
    ] as const) {
      await createRecord(db.prisma, catalogue, archive.id, { title, made });
    }
    const member = await createUser(db.prisma);
    await addMember(db.prisma, member.id, archive.id);
    const curator = await principalOf(db.prisma, member.id);
    const titles = async (principal: Principal, from: number, to: number) =>
      (await listRecords(db.sql, principal, query({ section: catalogue.slug, from, to, pageSize: 100 }))).items.map((item) => item.title).sort();
    // c. 1850 covers 1850; 1850s 1850–1859; 1850-1860 1850–1860; s. XVIII 1700–1799; an open end counts as its known end.
    expect(await titles(curator, 1845, 1855)).toEqual(["Approximate", "Decade", "Interval"]);
    expect(await titles(curator, 1856, 1860)).toEqual(["Decade", "Interval"]);
    expect(await titles(curator, 1790, 1800)).toEqual(["Century"]);
    expect(await titles(curator, 1923, 1923)).toEqual(["Month"]);
    expect(await titles(curator, 1840, 1840)).toEqual(["Open"]);
    const facets = await recordFacets(db.sql, curator, query({ section: catalogue.slug }));
    expect(countsOf(facets.decades)).toEqual({ "1700": 1, "1840": 1, "1850": 3, "1920": 1 });
    const listed = await listRecords(db.sql, curator, query({ section: catalogue.slug, sort: "date", pageSize: 100 }));
    expect(listed.items.map((item) => item.title).slice(0, 2)).toEqual(["Century", "Open"]);
    expect(Object.fromEntries(listed.items.map((item) => [item.title, item.dateText]))).toEqual({
      Century: "s. XVIII",
      Open: "1840 onwards",
      Approximate: "c. 1850",
      Decade: "1850s",
      Interval: "1850-1860",
      Month: "May 1923",
    });
    // Someone outside the restricted project finds none of them, and counts none.
    expect(await titles(reader, 1700, 1999)).toEqual([]);
    expect(countsOf((await recordFacets(db.sql, reader, query({ section: catalogue.slug }))).decades)).toEqual({});
  });
});
