import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { setProjectPublic } from "../../lib/admin/people/set-project-public";
import { getSectionDcMapping, setSectionDcMapping } from "../../lib/admin/section-dc-mapping";
import type { OaiContext } from "../../lib/archive/oai/answer-oai-request";
import { deleteRecord } from "../../lib/archive/delete-record";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { oaiResponse } from "../../lib/http/oai-response";
import { appErrorOf } from "../support/app-error-of";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { dublinCoreOf, headersOf, oaiErrorOf, resumptionOf, schemaProblems } from "../support/oai-pmh";
import { openTestDatabase } from "../support/test-database";

/**
 * OAI-PMH at /oai (lib/archive/oai, lib/http/oai-response.ts): a harvester's whole sequence over
 * public projects, with resumption, returns every public record exactly once and nothing of any
 * other project; from/until, sets, deleted records (deleted, moved out, unpublished), every
 * protocol error, and the admin's Dublin Core mapping. Every response is validated against the
 * protocol's XSDs (OAI-PMH.xsd and oai_dc.xsd, offline).
 */
const origin = "http://archive.example.org";
const repository = "archive.example.org";
let db: Database;
let context: OaiContext;
let admin: Principal;
let curator: Principal;
let section: { id: string; slug: string; name: string };
const projects: Record<"open" | "other" | "locked", { id: string; slug: string }> = {} as never;
const openIds: string[] = [];
const hidden: { ids: string[]; titles: string[] } = { ids: [], titles: [] };
const ids: Record<string, string> = {};
const responses: string[] = [];

/** One request to /oai as its route sends it (GET query or form POST), the response validated. */
async function oai(query: Record<string, string> | string, method: "GET" | "POST" = "GET"): Promise<string> {
  const search = typeof query === "string" ? query : new URLSearchParams(query).toString();
  const request =
    method === "GET"
      ? new Request(`${origin}/oai?${search}`)
      : new Request(`${origin}/oai`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: search });
  const response = await oaiResponse(request, context);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/xml; charset=utf-8");
  const xml = await response.text();
  expect(await schemaProblems(xml), xml.slice(0, 600)).toEqual([]);
  responses.push(xml);
  return xml;
}

const identifier = (id: string) => `oai:${repository}:${id}`;
const idOf = (oaiIdentifier: string) => oaiIdentifier.split(":").at(-1)!;

/** ListRecords (or ListIdentifiers) followed to its end: every page's headers, and the pages. */
async function harvest(verb: "ListRecords" | "ListIdentifiers", args: Record<string, string>, method: "GET" | "POST" = "GET") {
  const pages: string[] = [];
  let xml = await oai({ verb, metadataPrefix: "oai_dc", ...args }, method);
  pages.push(xml);
  for (let resumption = resumptionOf(xml); resumption?.token; resumption = resumptionOf(xml)) {
    xml = await oai({ verb, resumptionToken: resumption.token }, method);
    pages.push(xml);
  }
  return { pages, headers: pages.flatMap(headersOf) };
}

beforeAll(async () => {
  db = await openTestDatabase();
  const { prisma } = db;
  projects.open = await createProject(prisma);
  projects.other = await createProject(prisma);
  projects.locked = await createProject(prisma, { restricted: true });
  const created = await createSection(prisma);
  section = { id: created.id, slug: created.slug, name: created.name };
  admin = await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id);
  const curatorUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, curatorUser.id, projects.open.id, "editor");
  curator = await principalOf(prisma, curatorUser.id);
  context = { prisma, sql: db.sql, origin, repositoryName: "Test archive", pageSize: 3, tokenKey: "test-key" };

  for (const project of ["other", "locked"] as const) {
    for (let n = 0; n < 3; n++) {
      const title = `Hidden ${project} ${n} ${crypto.randomUUID().slice(0, 8)}`;
      const record = await createRecord(prisma, section, projects[project].id, { title, summary: `Secret summary of ${title}` });
      hidden.ids.push(record.id);
      hidden.titles.push(title);
    }
  }
  ids.privateTarget = hidden.ids[0]!;
  for (let n = 0; n < 8; n++) {
    const record = await createRecord(prisma, section, projects.open.id, {
      title: `Open letter ${n} <&> "quoted"`,
      summary: `Summary ${n}`,
      kind: "letter",
      period: n === 3 ? "c. 1953" : { from: 1950 + n, to: 1960 + n },
    });
    openIds.push(record.id);
  }
  // An open record linking an open one and a private one: only the open one may be named.
  const linking = await createRecord(prisma, section, projects.open.id, { title: "Open letter with links", related: [openIds[0], ids.privateTarget] });
  ids.linking = linking.id;
  openIds.push(linking.id);
  await setProjectPublic(prisma, admin, { projectSlug: projects.open.slug, isPublic: true });
}, 120_000);

afterAll(async () => {
  // Nothing of a non-public project, in any response of the whole file (but the request echoed, which is the harvester's own).
  for (const xml of responses) {
    const answer = xml.replace(/<request[^>]*>[^<]*<\/request>/, "");
    for (const secret of [...hidden.ids, ...hidden.titles]) expect(answer.includes(secret), `a response names ${secret}`).toBe(false);
  }
  await db?.close();
});

describe("an OAI-PMH harvester", () => {
  it("identifies the repository, its format and its sets", async () => {
    const identify = await oai({ verb: "Identify" });
    expect(identify).toContain(`<baseURL>${origin}/oai</baseURL>`);
    expect(identify).toContain("<deletedRecord>persistent</deletedRecord>");
    expect(identify).toContain("<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>");
    expect(identify).toContain("<adminEmail>oai@archive.example.org</adminEmail>");
    const formats = await oai({ verb: "ListMetadataFormats" });
    expect(formats).toContain("<metadataPrefix>oai_dc</metadataPrefix>");
    expect(await oai({ verb: "ListMetadataFormats", identifier: identifier(openIds[0]!) })).toContain("<metadataPrefix>oai_dc</metadataPrefix>");
    const sets = await oai({ verb: "ListSets" });
    expect(sets).toContain(`<setSpec>project:${projects.open.slug}</setSpec>`);
    expect(sets).toContain(`<setSpec>section:${section.slug}</setSpec>`);
    expect(sets).not.toContain(projects.other.slug);
    expect(sets).not.toContain(projects.locked.slug);
  });

  it("harvests every public record exactly once over several pages, and nothing else", async () => {
    for (const method of ["GET", "POST"] as const) {
      const { pages, headers } = await harvest("ListRecords", {}, method);
      expect(pages.length).toBe(Math.ceil(openIds.length / context.pageSize));
      expect(headers.map((header) => idOf(header.identifier)).sort()).toEqual([...openIds].sort());
      expect(
        headers.every(
          (header) => !header.deleted && header.setSpecs.includes(`project:${projects.open.slug}`) && header.setSpecs.includes(`section:${section.slug}`),
        ),
      ).toBe(true);
      // The cursor counts the records before each page; the last page carries an empty token.
      expect(pages.map((page) => resumptionOf(page)?.cursor)).toEqual(pages.map((_page, index) => index * context.pageSize));
      expect(resumptionOf(pages[0]!)!.completeListSize).toBe(openIds.length);
      expect(resumptionOf(pages.at(-1)!)!.token).toBe("");
      const datestamps = headers.map((header) => header.datestamp);
      expect([...datestamps].sort()).toEqual(datestamps);
    }
    const identifiers = await harvest("ListIdentifiers", {});
    expect(identifiers.headers.map((header) => idOf(header.identifier)).sort()).toEqual([...openIds].sort());
    expect(identifiers.pages.join("")).not.toContain("<metadata>");
    expect((await harvest("ListRecords", { set: `project:${projects.open.slug}` })).headers).toHaveLength(openIds.length);
    expect((await harvest("ListRecords", { set: `section:${section.slug}` })).headers).toHaveLength(openIds.length);
  });

  it("maps each record to Dublin Core, naming only public relation targets", async () => {
    const one = await oai({ verb: "GetRecord", identifier: identifier(openIds[2]!), metadataPrefix: "oai_dc" });
    const dc = dublinCoreOf(one);
    expect(dc.title).toEqual(['Open letter 2 &lt;&amp;&gt; "quoted"']);
    expect(dc.description).toEqual(["Summary 2"]);
    expect(dc.date).toEqual(["1952/1962"]);
    expect(dc.subject).toEqual(["letter"]);
    expect(dc.identifier).toEqual([`${origin}/records/${openIds[2]}`]);
    expect(dc.type).toEqual([section.name]);
    expect(dc.source).toEqual([`Project ${projects.open.slug}`]);
    // A date written "c. 1953" goes out as its EDTF.
    expect(dublinCoreOf(await oai({ verb: "GetRecord", identifier: identifier(openIds[3]!), metadataPrefix: "oai_dc" })).date).toEqual(["1953~"]);
    const linking = dublinCoreOf(await oai({ verb: "GetRecord", identifier: identifier(ids.linking!), metadataPrefix: "oai_dc" }));
    expect(linking.relation).toEqual(['Open letter 0 &lt;&amp;&gt; "quoted"']);
  });

  it("answers a record of a project that is not public exactly like a missing one", async () => {
    const denied = await oai({ verb: "GetRecord", identifier: identifier(hidden.ids[0]!), metadataPrefix: "oai_dc" });
    const missing = await oai({ verb: "GetRecord", identifier: identifier(crypto.randomUUID()), metadataPrefix: "oai_dc" });
    expect(oaiErrorOf(denied)).toEqual(oaiErrorOf(missing));
    expect(oaiErrorOf(denied)?.code).toBe("idDoesNotExist");
    expect(oaiErrorOf(await oai({ verb: "ListMetadataFormats", identifier: identifier(hidden.ids[3]!) }))?.code).toBe("idDoesNotExist");
    expect(oaiErrorOf(await oai({ verb: "ListRecords", metadataPrefix: "oai_dc", set: `project:${projects.other.slug}` }))?.code).toBe("noRecordsMatch");
  });

  it("selects by from and until, inclusive, in either granularity", async () => {
    const stamps: [string, string][] = [
      [openIds[0]!, "2025-01-10 10:00:00"],
      [openIds[1]!, "2025-01-20 08:30:00"],
      [openIds[2]!, "2025-02-01 00:00:00"],
    ];
    for (const [id, at] of stamps) await db.sql.query(`UPDATE records SET updated_at = $1::timestamp WHERE id = $2`, [at, id]);
    await db.prisma.project.update({ where: { id: projects.open.id }, data: { publicSince: new Date("2020-01-01T00:00:00Z") } });
    const between = async (args: Record<string, string>) => (await harvest("ListIdentifiers", args)).headers.map((header) => idOf(header.identifier)).sort();
    expect(await between({ from: "2025-01-10", until: "2025-01-20" })).toEqual([openIds[0]!, openIds[1]!].sort());
    expect(await between({ from: "2025-01-10T10:00:00Z", until: "2025-01-10T10:00:00Z" })).toEqual([openIds[0]!]);
    expect(await between({ until: "2025-01-31" })).toEqual([openIds[0]!, openIds[1]!].sort());
    expect(await between({ from: "2025-02-01T00:00:00Z", until: "2025-02-01T00:00:00Z" })).toEqual([openIds[2]!]);
    const none = await oai({ verb: "ListIdentifiers", metadataPrefix: "oai_dc", from: "2025-01-10T10:00:01Z", until: "2025-01-20T08:29:59Z" });
    expect(oaiErrorOf(none)?.code).toBe("noRecordsMatch");
    const header = headersOf(await oai({ verb: "GetRecord", identifier: identifier(openIds[1]!), metadataPrefix: "oai_dc" }))[0]!;
    expect(header.datestamp).toBe("2025-01-20T08:30:00Z");
    const identify = await oai({ verb: "Identify" });
    expect(identify).toContain("<earliestDatestamp>2025-01-10T10:00:00Z</earliestDatestamp>");
  });

  it("dates a project's records no earlier than its publication, so incremental harvesters get them", async () => {
    const late = await createProject(db.prisma);
    const old = await createRecord(db.prisma, section, late.id, { title: "Published late" });
    await db.sql.query(`UPDATE records SET updated_at = '2024-01-01 00:00:00'::timestamp WHERE id = $1`, [old.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(oaiErrorOf(await oai({ verb: "ListIdentifiers", metadataPrefix: "oai_dc", set: `project:${late.slug}` }))?.code).toBe("noRecordsMatch");
    await setProjectPublic(db.prisma, admin, { projectSlug: late.slug, isPublic: true });
    const since = await harvest("ListIdentifiers", { from: today, set: `project:${late.slug}` });
    expect(since.headers.map((header) => idOf(header.identifier))).toEqual([old.id]);
    expect(since.headers[0]!.datestamp.slice(0, 10)).toBe(today);
    await setProjectPublic(db.prisma, admin, { projectSlug: late.slug, isPublic: false });
  });

  it("reports deleted and moved-out records as deleted, and a record served again as live", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const [gone, moved] = [openIds[6]!, openIds[7]!];
    const goneRow = await db.prisma.record.findUniqueOrThrow({ where: { id: gone } });
    await deleteRecord(db.prisma, admin, { id: gone, version: goneRow.version });
    const movedRow = await db.prisma.record.findUniqueOrThrow({ where: { id: moved } });
    const saved = await saveRecord(db.prisma, admin, {
      id: moved,
      version: movedRow.version,
      sectionSlug: section.slug,
      projectId: projects.other.id,
      values: movedRow.values as Record<string, unknown>,
    });
    hidden.titles.push("Open letter 7 ");

    for (const id of [gone, moved]) {
      const record = await oai({ verb: "GetRecord", identifier: identifier(id), metadataPrefix: "oai_dc" });
      expect(headersOf(record)[0]).toMatchObject({ deleted: true, setSpecs: [`section:${section.slug}`, `project:${projects.open.slug}`] });
      expect(record).not.toContain("<metadata>");
    }
    const openSet = `project:${projects.open.slug}`;
    const recent = await harvest("ListRecords", { from: today, set: openSet });
    const deleted = recent.headers.filter((header) => header.deleted).map((header) => idOf(header.identifier));
    expect(deleted.sort()).toEqual([gone, moved].sort());
    const all = await harvest("ListIdentifiers", { set: openSet });
    expect(all.headers.map((header) => idOf(header.identifier)).sort()).toEqual([...openIds].sort());

    // Moved back into the public project: live again, its tombstone gone.
    await saveRecord(db.prisma, admin, {
      id: moved,
      version: saved.version,
      sectionSlug: section.slug,
      projectId: projects.open.id,
      values: movedRow.values as Record<string, unknown>,
    });
    hidden.titles.pop();
    const back = await oai({ verb: "GetRecord", identifier: identifier(moved), metadataPrefix: "oai_dc" });
    expect(headersOf(back)[0]!.deleted).toBe(false);
    expect(back).toContain("<metadata>");
    expect(await db.prisma.oaiTombstone.count({ where: { recordId: moved } })).toBe(0);
  });

  it("tombstones the records of an unpublished project, and revives them when it is published again", async () => {
    const live = openIds.slice(0, 6);
    const openSet = `project:${projects.open.slug}`;
    await setProjectPublic(db.prisma, admin, { projectSlug: projects.open.slug, isPublic: false });
    const hiddenNow = await harvest("ListIdentifiers", { set: openSet });
    expect(hiddenNow.headers.filter((header) => !header.deleted)).toEqual([]);
    expect(hiddenNow.headers.map((header) => idOf(header.identifier))).toEqual(expect.arrayContaining(live));
    expect(hiddenNow.pages.join("")).not.toContain("Open letter");
    // Its set is no longer listed; its section still is, for the deletions to be harvested by set.
    const sets = await oai({ verb: "ListSets" });
    expect(sets).not.toContain(`<setSpec>${openSet}</setSpec>`);
    expect(sets).toContain(`<setSpec>section:${section.slug}</setSpec>`);
    await setProjectPublic(db.prisma, admin, { projectSlug: projects.open.slug, isPublic: true });
    const again = await harvest("ListIdentifiers", { set: openSet });
    expect(again.headers.filter((header) => !header.deleted).map((header) => idOf(header.identifier))).toEqual(expect.arrayContaining(live));
    expect(again.headers.filter((header) => header.deleted).map((header) => idOf(header.identifier))).toEqual([openIds[6]!]);
  });

  it("answers every bad argument with the protocol's error code", async () => {
    const token = resumptionOf(await oai({ verb: "ListRecords", metadataPrefix: "oai_dc" }))!.token;
    const tampered = `${token.slice(0, 10)}${token[10] === "x" ? "y" : "x"}${token.slice(11)}`;
    const cases: [string, string][] = [
      ["", "badVerb"],
      ["verb=Explode", "badVerb"],
      ["verb=Identify&verb=ListSets", "badVerb"],
      ["verb=Identify&metadataPrefix=oai_dc", "badArgument"],
      ["verb=ListRecords", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2025-13-01", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2025-01-01&until=2025-02-01T00:00:00Z", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2025-03-01&until=2025-02-01", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&set=%3Cscript%3E", "badArgument"],
      [`verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=${token}`, "badArgument"],
      ["verb=GetRecord&identifier=x", "badArgument"],
      [`verb=ListRecords&resumptionToken=${tampered}`, "badResumptionToken"],
      [`verb=ListIdentifiers&resumptionToken=${token}`, "badResumptionToken"],
      ["verb=ListRecords&resumptionToken=%27%20OR%201%3D1", "badResumptionToken"],
      ["verb=ListSets&resumptionToken=abc", "badResumptionToken"],
      ["verb=ListRecords&metadataPrefix=marc21", "cannotDisseminateFormat"],
      [`verb=GetRecord&identifier=${identifier(openIds[0]!)}&metadataPrefix=mods`, "cannotDisseminateFormat"],
      [`verb=GetRecord&identifier=oai:elsewhere.org:${openIds[0]}&metadataPrefix=oai_dc`, "idDoesNotExist"],
      ["verb=GetRecord&identifier=%3Cnot%20an%20id%3E&metadataPrefix=oai_dc", "idDoesNotExist"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=1990-01-01&until=1990-12-31", "noRecordsMatch"],
      ["verb=ListRecords&metadataPrefix=oai_dc&set=collection:none", "noRecordsMatch"],
    ];
    for (const [query, code] of cases) {
      const xml = await oai(query);
      expect(oaiErrorOf(xml)?.code, query).toBe(code);
      if (code === "badVerb" || code === "badArgument") expect(xml, query).toContain(`<request>${origin}/oai</request>`);
    }
    const wrongType = await oaiResponse(
      new Request(`${origin}/oai`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"verb":"Identify"}' }),
      context,
    );
    expect(oaiErrorOf(await wrongType.text())?.code).toBe("badArgument");
  });
});

describe("the Dublin Core mapping", () => {
  it("is edited by admins only, audited, and changes what harvesters get", async () => {
    const missingSection = await appErrorOf(setSectionDcMapping(db.prisma, admin, { sectionSlug: "no-such-section", mapping: {} }));
    const refused = await appErrorOf(setSectionDcMapping(db.prisma, curator, { sectionSlug: section.slug, mapping: { subject: ["summary"] } }));
    expect(refused.code).toBe("not_found");
    expect(refused).toEqual(missingSection);
    expect((await appErrorOf(getSectionDcMapping(db.prisma, curator, section.slug))).code).toBe("not_found");
    expect((await appErrorOf(setSectionDcMapping(db.prisma, admin, { sectionSlug: section.slug, mapping: { abstract: ["summary"] } }))).code).toBe(
      "bad_request",
    );
    expect((await appErrorOf(setSectionDcMapping(db.prisma, admin, { sectionSlug: section.slug, mapping: { subject: ["../../etc"] } }))).code).toBe(
      "bad_request",
    );

    await setSectionDcMapping(db.prisma, admin, { sectionSlug: section.slug, mapping: { title: ["title"], subject: ["summary"], coverage: ["kind"] } });
    expect((await getSectionDcMapping(db.prisma, admin, section.slug)).custom).toBe(true);
    const dc = dublinCoreOf(await oai({ verb: "GetRecord", identifier: identifier(openIds[3]!), metadataPrefix: "oai_dc" }));
    expect(dc.subject).toEqual(["Summary 3"]);
    expect(dc.coverage).toEqual(["letter"]);
    expect(dc.description).toBeUndefined();
    expect(dc.date).toBeUndefined();
    const events = await db.prisma.auditEvent.findMany({ where: { action: "section.dc_mapping", targetId: section.id } });
    expect(events).toHaveLength(1);

    await setSectionDcMapping(db.prisma, admin, { sectionSlug: section.slug, mapping: null });
    expect((await getSectionDcMapping(db.prisma, admin, section.slug)).custom).toBe(false);
    expect(dublinCoreOf(await oai({ verb: "GetRecord", identifier: identifier(openIds[3]!), metadataPrefix: "oai_dc" })).description).toEqual(["Summary 3"]);
  });
});
