import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, publicReader, systemPrincipal, withPublicProjects } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { getRecord } from "../../lib/archive/get-record";
import { recordManifest } from "../../lib/archive/iiif/record-manifest";
import { validatePresentation } from "../../lib/archive/iiif/validate-presentation";
import { linkedArtUrl } from "../../lib/archive/linked-data/linked-art";
import { schemaOrgRecord } from "../../lib/archive/linked-data/schema-org";
import type { OaiContext } from "../../lib/archive/oai/answer-oai-request";
import { publicProjectIds } from "../../lib/archive/public-projects";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { linkedArtParamsSchema, linkedArtResponse } from "../../lib/http/linked-art-response";
import { oaiResponse } from "../../lib/http/oai-response";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import { addMember, createProject, createUser, principalOf, storeTestImage, temporaryStorageDir } from "../support/factories";
import { dublinCoreOf, schemaProblems } from "../support/oai-pmh";
import { openTestDatabase } from "../support/test-database";

/**
 * Authority links in every export, and the Linked Art route: an object's OAI-PMH record carries
 * the links' labels and URIs and validates against the protocol's schemas; its IIIF Manifest shows
 * them as links, names its Linked Art in seeAlso and validates; its Linked Art answers a reader,
 * and for an outsider, the public reader on a restricted project, a record that is no object, a
 * missing id and a malformed one exactly the same 404. A linked person the reader may not read is
 * named by neither the schema.org nor the Linked Art JSON-LD.
 */
const origin = "https://archive.example";
const missingId = "00000000-0000-4000-8000-000000000000";

let db: Database;
let storageDir: string;
let reader: Principal;
let outsider: Principal;
let anonymous: Principal;
const ids = { coin: "", lockedCoin: "", person: "", lockedPerson: "" };
const lockedPersonName = "Hidden engraver Quintus";

const peopleFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true, listed: true },
  { key: "wikidata", label: "Wikidata", type: "authority", authorities: ["wikidata"] },
];

function coinFields(peopleSlug: string): FieldDefinition[] {
  return [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "date", label: "Date", type: "daterange" },
    { key: "accessionNumber", label: "Accession number", type: "text" },
    { key: "coinType", label: "Coin type", type: "authority", authorities: ["ocre", "crro"] },
    { key: "material", label: "Material", type: "authority", authorities: ["nomisma", "aat"], multiple: true },
    { key: "findspot", label: "Findspot", type: "authority", authorities: ["tgn", "geonames"] },
    { key: "maker", label: "Maker", type: "relation", targetSection: peopleSlug, multiple: true },
    { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
  ];
}

/** GET /api/records/<id>/linked-art as its route runs it (the same params schema and service). */
function linkedArt(principal: Principal, id: string): Promise<Response> {
  return runAuthorizedRoute(
    linkedArtParamsSchema,
    (_request, { principal: asked, params }) => linkedArtResponse(db.prisma, asked, { recordId: params.id, origin }),
    async () => principal,
    new Request(linkedArtUrl(origin, id)),
    { id },
  );
}

async function answer(response: Response): Promise<{ status: number; type: string | null; body: string }> {
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

beforeAll(async () => {
  db = await openTestDatabase();
  const { prisma } = db;
  storageDir = temporaryStorageDir();
  const open = await createProject(prisma);
  const locked = await createProject(prisma, { restricted: true });
  await prisma.project.update({ where: { id: open.id }, data: { isPublic: true, publicSince: new Date() } });
  const suffix = crypto.randomUUID().slice(0, 8);
  const people = await prisma.section.create({ data: { slug: `people-${suffix}`, name: "People", fields: peopleFields as never } });
  const coinsSlug = `coins-${suffix}`;
  await prisma.section.create({
    data: {
      slug: coinsSlug,
      name: "Coins",
      fields: coinFields(people.slug) as never,
      objectContext: { images: [{ field: "obverse", view: "obverse" }], roles: { date: "date" }, compareWith: [coinsSlug] } as never,
    },
  });
  const save = async (sectionSlug: string, projectId: string, values: Record<string, unknown>) =>
    (await saveRecord(prisma, systemPrincipal, { sectionSlug, projectId, values })).id;
  ids.person = await save(people.slug, open.id, { name: "Open engraver Gaius", wikidata: "https://www.wikidata.org/wiki/Q1405" });
  ids.lockedPerson = await save(people.slug, locked.id, { name: lockedPersonName });
  const image = await storeTestImage(prisma, open.id, storageDir);
  const coinValues = {
    date: { from: -19, to: -18 },
    accessionNumber: "1944.100.39",
    coinType: { uri: "https://numismatics.org/ocre/id/ric.1(2).aug.37a", label: "RIC I (second edition) Augustus 37A" },
    material: [{ uri: "http://nomisma.org/id/ar", label: "Silver & <alloy>" }],
    findspot: { uri: "http://www.geonames.org/3128760/barcelona.html", label: "Barcelona" },
    maker: [ids.person, ids.lockedPerson],
  };
  ids.coin = await save(coinsSlug, open.id, { title: "Denarius of Augustus", ...coinValues, obverse: image.id });
  ids.lockedCoin = await save(coinsSlug, locked.id, { title: "Locked denarius", ...coinValues, maker: [ids.lockedPerson] });

  const publicIds = await publicProjectIds(prisma);
  const readerUser = await createUser(prisma);
  await addMember(prisma, readerUser.id, locked.id);
  reader = withPublicProjects(await principalOf(prisma, readerUser.id), publicIds);
  outsider = withPublicProjects(await principalOf(prisma, (await createUser(prisma)).id), publicIds);
  anonymous = publicReader(publicIds);
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe("authority links in OAI-PMH", () => {
  it("are the labels and canonical URIs of dc:subject and dc:coverage, in a record that validates", async () => {
    const context: OaiContext = { prisma: db.prisma, sql: db.sql, origin, repositoryName: "Test archive", pageSize: 10, tokenKey: "test-key" };
    const query = new URLSearchParams({ verb: "GetRecord", metadataPrefix: "oai_dc", identifier: `oai:archive.example:${ids.coin}` });
    const response = await oaiResponse(new Request(`${origin}/oai?${query}`), context);
    const xml = await response.text();
    expect(await schemaProblems(xml), xml.slice(0, 800)).toEqual([]);
    const dc = dublinCoreOf(xml);
    expect(dc.subject).toEqual([
      "RIC I (second edition) Augustus 37A",
      "http://numismatics.org/ocre/id/ric.1(2).aug.37a",
      "Silver &amp; &lt;alloy&gt;",
      "http://nomisma.org/id/ar",
    ]);
    expect(dc.coverage).toEqual(["Barcelona", "https://sws.geonames.org/3128760/"]);
    expect(xml).not.toContain(lockedPersonName);
  });
});

describe("authority links in IIIF", () => {
  it("are <a href> links in the manifest's metadata, which names the Linked Art in seeAlso and validates", async () => {
    const manifest = await recordManifest(db.prisma, anonymous, { recordId: ids.coin, origin, storageDir });
    expect(validatePresentation(manifest)).toEqual([]);
    expect(manifest.metadata).toEqual(
      expect.arrayContaining([
        { label: { en: ["Material"] }, value: { none: ['<span><a href="http://nomisma.org/id/ar">Silver &amp; &lt;alloy&gt;</a></span>'] } },
        { label: { en: ["Findspot"] }, value: { none: ['<span><a href="https://sws.geonames.org/3128760/">Barcelona</a></span>'] } },
        { label: { en: ["Maker"] }, value: { none: ["Open engraver Gaius"] } },
      ]),
    );
    expect(manifest.seeAlso).toEqual([
      {
        id: linkedArtUrl(origin, ids.coin),
        type: "Dataset",
        label: { en: ["Linked Art"] },
        format: "application/ld+json",
        profile: "https://linked.art/ns/v1/linked-art.json",
      },
    ]);
    expect(JSON.stringify(manifest)).not.toContain(lockedPersonName);
  });
});

describe("the Linked Art route", () => {
  it("gives a reader the object as a HumanMadeObject with its links, its manifest, and only the people they may read", async () => {
    const response = await answer(await linkedArt(reader, ids.coin));
    expect(response.status).toBe(200);
    expect(response.type).toBe('application/ld+json;profile="https://linked.art/ns/v1/linked-art.json"');
    const object = JSON.parse(response.body) as Record<string, unknown>;
    expect(object).toMatchObject({ id: linkedArtUrl(origin, ids.coin), type: "HumanMadeObject", _label: "Denarius of Augustus" });
    expect(object.made_of).toEqual([{ id: "http://nomisma.org/id/ar", type: "Material", _label: "Silver & <alloy>" }]);
    expect(object.produced_by).toMatchObject({
      took_place_at: [{ id: "https://sws.geonames.org/3128760/", type: "Place" }],
      timespan: { begin_of_the_begin: "-0018-01-01T00:00:00Z", end_of_the_end: "-0017-12-31T23:59:59Z" },
    });
    // The reader may read the locked project too: both makers are named.
    expect((object.produced_by as { carried_out_by: { _label: string }[] }).carried_out_by.map((agent) => agent._label)).toEqual([
      "Open engraver Gaius",
      lockedPersonName,
    ]);
    expect(response.body).toContain(`${origin}/iiif/${ids.coin}/manifest`);
  });

  it("names no linked record the reader may not read", async () => {
    for (const principal of [anonymous, outsider]) {
      const response = await answer(await linkedArt(principal, ids.coin));
      expect(response.status).toBe(200);
      expect(response.body).toContain("Open engraver Gaius");
      expect(response.body).not.toContain(lockedPersonName);
      expect(response.body).not.toContain(ids.lockedPerson);
    }
  });

  it("answers an outsider, the public reader on a restricted project, a record that is no object, a missing and a malformed id with one 404", async () => {
    const missing = await answer(await linkedArt(reader, missingId));
    expect(missing.status).toBe(404);
    expect(await answer(await linkedArt(reader, ids.lockedCoin))).toMatchObject({ status: 200 });
    for (const [principal, id] of [
      [outsider, ids.lockedCoin],
      [anonymous, ids.lockedCoin],
      [anonymous, missingId],
      [reader, ids.person],
      [reader, "not-a-record-id"],
      [reader, `${ids.coin}\u0000`],
    ] as const) {
      expect(await answer(await linkedArt(principal, id)), `${principal.userId} ${id}`).toEqual(missing);
    }
  });
});

describe("schema.org JSON-LD on the record page", () => {
  it("names a linked person only to a reader who may read them", async () => {
    const asOutsider = schemaOrgRecord(await getRecord(db.prisma, outsider, ids.coin), { origin, object: true });
    expect(asOutsider).toMatchObject({ "@type": "ArchiveComponent", name: "Denarius of Augustus", identifier: "1944.100.39", temporalCoverage: "-0018/-0017" });
    expect(asOutsider.creator).toEqual([{ "@type": "Person", "@id": `${origin}/records/${ids.person}`, name: "Open engraver Gaius" }]);
    expect(asOutsider.material).toEqual(["http://nomisma.org/id/ar"]);
    expect(asOutsider.spatialCoverage).toEqual([{ "@type": "Place", "@id": "https://sws.geonames.org/3128760/", name: "Barcelona" }]);
    expect(JSON.stringify(asOutsider)).not.toContain(lockedPersonName);
    expect(JSON.stringify(asOutsider)).not.toContain(ids.lockedPerson);
    const asReader = schemaOrgRecord(await getRecord(db.prisma, reader, ids.coin), { origin, object: true });
    expect(JSON.stringify(asReader)).toContain(lockedPersonName);
  });

  it("gives a person their Wikidata link as sameAs", async () => {
    const person = schemaOrgRecord(await getRecord(db.prisma, anonymous, ids.person), { origin, object: false });
    expect(person).toMatchObject({ "@type": "Person", name: "Open engraver Gaius", sameAs: ["http://www.wikidata.org/entity/Q1405"] });
  });
});
