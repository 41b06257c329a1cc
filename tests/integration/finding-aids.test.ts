import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { personSectionSlug } from "../../lib/archive/finding-aids/links";
import { storeMedia } from "../../lib/archive/media-storage";
import { createApiToken } from "../../lib/auth/api-tokens";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { personEacCpfResponse, projectEad3Response } from "../../lib/http/finding-aid-download";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import {
  addMember,
  createProject,
  createRecord,
  createSection,
  createUser,
  principalOf,
  readerNobodyAdmin,
  storeTestImage,
  temporaryStorageDir,
} from "../support/factories";
import { openTestDatabase } from "../support/test-database";
import { xmlSchemaProblems, xmlSchemas } from "../support/xml-schema";
import { GET as agentEad3 } from "../../app/api/v1/projects/[slug]/ead3/route";
import { GET as agentEacCpf } from "../../app/api/v1/records/[recordId]/eac-cpf/route";
import { silentWav } from "../support/silent-wav";

/** The routes under /api/v1 run on the process's runtime: here, over this file's database. */
const testRuntime = vi.hoisted(() => ({ database: undefined as unknown }));
vi.mock("../../lib/runtime", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../lib/runtime")>();
  return { ...actual, getRuntime: async () => actual.runtimeOver(testRuntime.database as Database) };
});

/**
 * The finding aids through the route handlers' own functions and the wrapper every route runs
 * (runAuthorizedRoute): a project as EAD3 and a person as EAC-CPF, each valid against the
 * official schema (tests/fixtures, xmllint, offline); only what the reader may read appears; a
 * project or record they may not read answers exactly like a missing one.
 */
const origin = "http://mnemo.test";
const hush = `hush${randomUUID().slice(0, 8)}`;
const openSlug = `valley-${randomUUID().slice(0, 8)}`;

let db: Database;
let reader: Principal;
let nobody: Principal;
let admin: Principal;
/** A member of both projects. */
let insider: Principal;
const slugs: Record<string, string> = {};
const ids: Record<string, string> = {};

function ead3(principal: Principal, slug: string) {
  return runAuthorizedRoute(
    z.object({ slug: z.string().max(200) }),
    (request, { principal: signedIn, params }) => projectEad3Response(db.prisma, signedIn, request, { slug: params.slug, origin }),
    async () => principal,
    new Request(`${origin}/api/projects/${encodeURIComponent(slug)}/ead3`),
    { slug },
  );
}

function eacCpf(principal: Principal, id: string) {
  return runAuthorizedRoute(
    z.object({ id: z.string().max(100) }),
    (_request, { principal: signedIn, params }) => personEacCpfResponse(db.prisma, signedIn, { id: params.id, origin }),
    async () => principal,
    new Request(`${origin}/api/records/${encodeURIComponent(id)}/eac-cpf`),
    { id },
  );
}

async function answer(response: Promise<Response>): Promise<{ status: number; type: string | null; disposition: string | null; body: string }> {
  const done = await response;
  return { status: done.status, type: done.headers.get("content-type"), disposition: done.headers.get("content-disposition"), body: await done.text() };
}

beforeAll(async () => {
  db = await openTestDatabase();
  testRuntime.database = db;
  const storageDir = temporaryStorageDir();
  const open = await db.prisma.project.create({
    data: { slug: openSlug, name: 'The drowned valley & its "mills"', description: "Interviews and objects from a valley under a reservoir." },
  });
  const closed = await createProject(db.prisma, { restricted: true });
  slugs.open = open.slug;
  slugs.closed = closed.slug;

  const places = await createSection(db.prisma, [
    { key: "name", label: "Name", type: "text", required: true },
    { key: "sameAs", label: "Same as", type: "authority", authorities: ["geonames", "tgn", "wikidata"] },
  ]);
  const people = await db.prisma.section.create({
    data: {
      slug: personSectionSlug,
      name: "People",
      fields: [
        { key: "name", label: "Name", type: "text", required: true },
        { key: "occupation", label: "Occupation", type: "text" },
        { key: "born", label: "Born", type: "date" },
        { key: "died", label: "Died", type: "date" },
        { key: "biography", label: "Biography", type: "longtext" },
        { key: "places", label: "Places", type: "relation", targetSection: places.slug, multiple: true },
        { key: "sameAs", label: "Same as", type: "authority", multiple: true },
      ],
    },
  });
  const interviews = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
    { key: "narrator", label: "Narrator", type: "relation", targetSection: people.slug },
    { key: "interviewer", label: "Interviewer", type: "relation", targetSection: people.slug },
    { key: "recordedOn", label: "Recorded on", type: "date" },
    { key: "summary", label: "Summary", type: "longtext" },
    { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
    { key: "subjects", label: "Subjects", type: "authority", multiple: true },
  ]);
  const objects = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "date", label: "Date", type: "daterange" },
    { key: "medium", label: "Medium", type: "text" },
    { key: "photo", label: "Photo", type: "image", view: "front" },
    { key: "material", label: "Material", type: "authority", authorities: ["aat"] },
  ]);

  const place = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: places.slug,
    projectId: open.id,
    values: { name: "Sant Romà de Sau", sameAs: "https://www.geonames.org/3111381/sant-roma-de-sau.html" },
  });
  const narrator = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: people.slug,
    projectId: open.id,
    values: {
      name: "Marta Puig",
      occupation: "Miller",
      born: "c. 1901",
      died: "1985",
      biography: "Kept the mill <until> the flood & after.\n\nMoved to the town.",
      places: [place.id],
      sameAs: [{ uri: "https://www.wikidata.org/wiki/Q42", label: "Marta Puig" }],
    },
  });
  ids.narrator = narrator.id;
  const sealedPerson = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: people.slug,
    projectId: closed.id,
    values: { name: `Sealed Interviewer ${hush}` },
  });
  ids.sealedPerson = sealedPerson.id;
  const recording = await storeMedia(db.prisma, systemPrincipal, {
    projectId: open.id,
    file: { name: "talk.wav", bytes: silentWav(1) },
    expectedKind: "audio",
    storageDir,
    maxBytes: 1024 * 1024,
  });
  ids.interview = (
    await createRecord(db.prisma, interviews, open.id, {
      title: "The last harvest <before> the dam",
      language: "ca",
      narrator: narrator.id,
      interviewer: sealedPerson.id,
      recordedOn: "c. 1962",
      summary: "The mill, the flood\u0007 and the new town.",
      recording: recording.id,
      subjects: [{ uri: "http://www.wikidata.org/entity/Q12323", label: "Dam" }],
    })
  ).id;
  const photo = await storeTestImage(db.prisma, open.id, storageDir);
  ids.object = (
    await createRecord(db.prisma, objects, open.id, {
      title: "Millstone",
      date: "1850-1860",
      medium: "Granite",
      photo: photo.id,
      material: "http://vocab.getty.edu/page/aat/300011144",
    })
  ).id;
  ids.closedInterview = (await createRecord(db.prisma, interviews, closed.id, { title: `Sealed testimony ${hush}`, narrator: narrator.id })).id;

  ({ reader, nobody, admin } = await readerNobodyAdmin(db.prisma, open.id));
  const insiderUser = await createUser(db.prisma);
  await addMember(db.prisma, insiderUser.id, open.id);
  await addMember(db.prisma, insiderUser.id, closed.id);
  insider = await principalOf(db.prisma, insiderUser.id);
});

afterAll(async () => {
  await db?.close();
});

describe("a project as an EAD3 finding aid", () => {
  it("is valid EAD3, with the project, its sections and records, dates, languages, extents and digital objects", async () => {
    const response = await answer(ead3(reader, slugs.open!));
    expect(response.status).toBe(200);
    expect(response.type).toBe("application/xml; charset=utf-8");
    expect(response.disposition).toBe(`attachment; filename="${openSlug}-ead3.xml"`);
    expect(await xmlSchemaProblems(response.body, xmlSchemas.ead3)).toEqual([]);
    const xml = response.body;
    expect(xml).toContain(`<recordid instanceurl="${origin}/api/projects/${openSlug}/ead3">${openSlug}</recordid>`);
    expect(xml).toContain('<unittitle>The drowned valley &amp; its "mills"</unittitle>');
    expect(xml).toContain("<abstract>Interviews and objects from a valley under a reservoir.</abstract>");
    expect(xml).toContain('<daterange><fromdate standarddate="1850">1850</fromdate><todate standarddate="1962">1962</todate></daterange>');
    expect(xml).toContain("<quantity>4</quantity><unittype>records</unittype>");
    expect(xml).toContain('<langmaterial><language langcode="cat">Catalan</language></langmaterial>');
    expect(xml).toContain("<unittitle>The last harvest &lt;before&gt; the dam</unittitle>");
    expect(xml).toContain('<unitdate normal="1962" certainty="approximate" label="Recorded on">c. 1962</unitdate>');
    expect(xml).toContain('<unitdate normal="1850/1860" label="Date" unitdatetype="inclusive">1850-1860</unitdate>');
    expect(xml).toContain('<persname relator="narrator" identifier="http://www.wikidata.org/entity/Q42"><part>Marta Puig</part></persname>');
    expect(xml).toContain(`<dao daotype="unknown" href="${origin}/iiif/${ids.interview}/manifest"`);
    expect(xml).toContain(`<dao daotype="derived" href="${origin}/iiif/${ids.object}/manifest"`);
    expect(xml).toContain("<physdesc>Medium: Granite</physdesc>");
    expect(xml).toContain("<scopecontent><p>The mill, the flood and the new town.</p></scopecontent>");
    expect(xml).toContain('<subject identifier="http://vocab.getty.edu/aat/300011144" source="aat">');
    expect(xml).toContain('<geogname identifier="https://sws.geonames.org/3111381/" source="geonames">');
    expect(xml).toContain("<accessrestrict><p>Only the project's members may read its records.</p></accessrestrict>");
  });

  it("never names a linked person in a project the reader may not read", async () => {
    const forReader = await answer(ead3(reader, slugs.open!));
    expect(forReader.body).not.toContain(hush);
    expect(forReader.body).not.toContain(ids.sealedPerson);
    // The same project for a member of both names the interviewer: the test above can fail.
    const forInsider = await answer(ead3(insider, slugs.open!));
    expect(forInsider.body).toContain(`<persname relator="interviewer"><part>Sealed Interviewer ${hush}</part></persname>`);
    expect(await xmlSchemaProblems(forInsider.body, xmlSchemas.ead3)).toEqual([]);
  });

  it("answers a project the requester may not read exactly like one that does not exist", async () => {
    const missing = await answer(ead3(reader, `no-such-project-${hush}`));
    expect(missing.status).toBe(404);
    for (const [principal, slug] of [
      [reader, slugs.closed!],
      [nobody, slugs.open!],
      [reader, "a\u0000b"],
      [reader, "x".repeat(201)],
    ] as const) {
      const refused = await answer(ead3(principal, slug));
      expect(refused.status).toBe(404);
      expect(refused.body).toBe(missing.body);
      expect(refused.type).toBe(missing.type);
    }
    expect((await answer(ead3(admin, slugs.closed!))).status).toBe(200);
  });

  it("describes a restricted project as restricted", async () => {
    const xml = (await answer(ead3(insider, slugs.closed!))).body;
    expect(xml).toContain("<accessrestrict><p>Restricted: only the project's members may read its records.</p></accessrestrict>");
    expect(await xmlSchemaProblems(xml, xmlSchemas.ead3)).toEqual([]);
  });
});

describe("a person as EAC-CPF", () => {
  it("is valid EAC-CPF 2.0, with the name, dates, places, biography, authority and the readable records they relate to", async () => {
    const response = await answer(eacCpf(reader, ids.narrator!));
    expect(response.status).toBe(200);
    expect(response.type).toBe("application/xml; charset=utf-8");
    expect(response.disposition).toBe('attachment; filename="Marta-Puig-eac-cpf.xml"');
    expect(await xmlSchemaProblems(response.body, xmlSchemas.eacCpf)).toEqual([]);
    const xml = response.body;
    expect(xml).toContain('<nameEntry status="authorized"><part>Marta Puig</part></nameEntry>');
    expect(xml).toContain('<identityId valueURI="http://www.wikidata.org/entity/Q42" vocabularySource="wikidata">');
    expect(xml).toContain('<place><placeName valueURI="https://sws.geonames.org/3111381/">Sant Romà de Sau</placeName></place>');
    expect(xml).toContain('<fromDate standardDate="1901" certainty="approximate">c. 1901</fromDate><toDate standardDate="1985">');
    expect(xml).toContain("<biogHist><p>Kept the mill &lt;until&gt; the flood &amp; after.</p><p>Moved to the town.</p></biogHist>");
    expect(xml).toContain(
      `<targetEntity targetType="resource" valueURI="${origin}/records/${ids.interview}"><part>The last harvest &lt;before&gt; the dam</part></targetEntity><relationType>Narrator</relationType>`,
    );
    expect(xml).not.toContain(hush);
    expect(xml).not.toContain(ids.closedInterview);
  });

  it("relates the person to a record in another project only for a reader of that project", async () => {
    const xml = (await answer(eacCpf(insider, ids.narrator!))).body;
    expect(xml).toContain(`<part>Sealed testimony ${hush}</part>`);
    expect(await xmlSchemaProblems(xml, xmlSchemas.eacCpf)).toEqual([]);
  });

  it("answers a person the requester may not read exactly like a missing or malformed id", async () => {
    const missing = await answer(eacCpf(reader, randomUUID()));
    expect(missing.status).toBe(404);
    for (const [principal, id] of [
      [reader, ids.sealedPerson!],
      [nobody, ids.narrator!],
      [reader, "not-a-uuid"],
      [reader, `${ids.narrator}\u0000`],
    ] as const) {
      const refused = await answer(eacCpf(principal, id));
      expect(refused.status).toBe(404);
      expect(refused.body).toBe(missing.body);
    }
  });

  it("says that a readable record which is not a person has no EAC-CPF", async () => {
    const response = await answer(eacCpf(reader, ids.interview!));
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body).error.message).toMatch(/is not a person: EAC-CPF describes the records of the People section/);
  });
});

describe("the finding aids for an agent's token (/api/v1)", () => {
  const call = (route: typeof agentEad3, path: string, params: Record<string, string>, token?: string) =>
    answer(route(new Request(`${origin}/api/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { params: Promise.resolve(params) }));

  it("serves the token's user what they may read, and nothing else", async () => {
    const token = (await createApiToken(db.prisma, reader, { name: "finding aids", expiresInDays: 1 })).token;
    const project = await call(agentEad3, `/projects/${openSlug}/ead3`, { slug: openSlug }, token);
    expect(project.status).toBe(200);
    expect(project.type).toBe("application/xml; charset=utf-8");
    expect(project.body).toContain(`<recordid instanceurl="${origin}/api/v1/projects/${openSlug}/ead3">`);
    expect(project.body).not.toContain(hush);
    expect(await xmlSchemaProblems(project.body, xmlSchemas.ead3)).toEqual([]);
    const person = await call(agentEacCpf, `/records/${ids.narrator}/eac-cpf`, { recordId: ids.narrator! }, token);
    expect(person.status).toBe(200);
    expect(person.body).not.toContain(hush);
    expect(await xmlSchemaProblems(person.body, xmlSchemas.eacCpf)).toEqual([]);

    const missing = await call(agentEad3, "/projects/no-such-project/ead3", { slug: "no-such-project" }, token);
    expect(missing.status).toBe(404);
    expect((await call(agentEad3, `/projects/${slugs.closed}/ead3`, { slug: slugs.closed! }, token)).body).toBe(missing.body);
    const missingPerson = await call(agentEacCpf, `/records/${randomUUID()}/eac-cpf`, { recordId: randomUUID() }, token);
    expect(missingPerson.status).toBe(404);
    expect((await call(agentEacCpf, `/records/${ids.sealedPerson}/eac-cpf`, { recordId: ids.sealedPerson! }, token)).body).toBe(missingPerson.body);
  });

  it("refuses a call without a valid token", async () => {
    expect((await call(agentEad3, `/projects/${openSlug}/ead3`, { slug: openSlug })).status).toBe(401);
    expect((await call(agentEacCpf, `/records/${ids.narrator}/eac-cpf`, { recordId: ids.narrator! }, "mnemo_not-a-token")).status).toBe(401);
  });
});
