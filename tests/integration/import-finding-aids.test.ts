import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { readDateValue } from "../../lib/archive/date-values";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { type ImportFile, type ImportPlan, dryRunImport, getImportJob, previewImport, runImportJobs, startImport } from "../../lib/archive/import";
import { personAuthorityRecord, projectFindingAid } from "../../lib/archive/finding-aids/export-finding-aids";
import { saveRecord } from "../../lib/archive/save-record";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { peopleSection as demoPeople, placeSection } from "../../prisma/seed/text-collections";
import { callApi } from "../support/api-request";
import { appErrorOf } from "../support/app-error-of";
import { addMember, createProject, createSection, createUser, principalOf, temporaryStorageDir } from "../support/factories";
import { apiDepsWithoutModels } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * EAD3 finding aids and EAC-CPF records through the bulk import: the preview's suggested mapping,
 * the dry run, the job, a second run that changes nothing, the same refusals as any file for
 * someone who may not write to the project, malformed or entity-declaring XML refused whole, and
 * Mnemo's own exports (lib/archive/finding-aids) read back to the same values.
 * How the files become tables is in lib/archive/import/read-finding-aids.test.ts.
 */
const fixtures = join(__dirname, "..", "fixtures", "import");
const fixture = (name: string): ImportFile => ({ fileName: name, bytes: new Uint8Array(readFileSync(join(fixtures, name))) });

/** Archival units as a demo section would describe them. */
const unitFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "date", label: "Date", type: "daterange" },
  { key: "series", label: "Series", type: "text" },
  { key: "description", label: "Description", type: "longtext" },
  { key: "extent", label: "Extent", type: "text" },
  { key: "language", label: "Language", type: "category", options: ["cat", "spa", "eng"] },
  { key: "access", label: "Access", type: "longtext" },
  { key: "creator", label: "Creator", type: "text" },
  { key: "subjects", label: "Subjects", type: "text" },
  { key: "places", label: "Places mentioned", type: "text" },
  { key: "digitalObject", label: "Digital object", type: "text" },
];

let db: Database;
let storageDir: string;
let curator: Principal;
let otherCurator: Principal;
let researcher: Principal;
let projectId: string;
let otherProjectId: string;
let units: { id: string; slug: string };
let peopleSection: { id: string; slug: string };
let placeIds: Record<string, string>;

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const { prisma } = db;
  projectId = (await createProject(prisma)).id;
  otherProjectId = (await createProject(prisma)).id;
  units = await createSection(prisma, unitFields);
  // The demo's people and places sections.
  const places = await createSection(prisma, placeSection.fields);
  peopleSection = await createSection(
    prisma,
    demoPeople.fields.map((field) => (field.type === "relation" ? { ...field, targetSection: places.slug } : field)),
  );
  placeIds = {};
  for (const name of ["Port de la Calma", "Barcelona", "Alcaraví"]) {
    placeIds[name] = (await saveRecord(prisma, systemPrincipal, { sectionSlug: places.slug, projectId, values: { name, kind: "town" } })).id;
  }
  const curatorUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, curatorUser.id, projectId, "editor");
  curator = await principalOf(prisma, curatorUser.id);
  // A curator who edits another project and only reads this one.
  const otherUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, otherUser.id, otherProjectId, "editor");
  await addMember(prisma, otherUser.id, projectId, "reader");
  otherCurator = await principalOf(prisma, otherUser.id);
  const researcherUser = await createUser(prisma);
  await addMember(prisma, researcherUser.id, projectId, "reader");
  researcher = await principalOf(prisma, researcherUser.id);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

async function valuesByExternalId(sectionId: string): Promise<Map<string, Record<string, unknown>>> {
  const records = await db.prisma.record.findMany({ where: { sectionId } });
  return new Map(records.map((record) => [record.externalId ?? "", record.values as Record<string, unknown>]));
}

describe(`EAD3 and EAC-CPF import (${testDatabaseMode()})`, () => {
  const findingAid = fixture("guild-finding-aid.ead3.xml");
  const person = fixture("person.eac-cpf.xml");

  it("imports an EAD3 finding aid's units with a dry run first, and a second run changes nothing", async () => {
    const preview = await previewImport(db.prisma, curator, findingAid, units.slug);
    expect(preview).toMatchObject({ format: "ead3", rowCount: 5 });
    expect(preview.suggestedMapping).toEqual({
      externalIdColumn: "identifier",
      columns: {
        title: "title",
        date: "date",
        "date normal": null,
        level: null,
        series: "series",
        collection: null,
        description: "description",
        abstract: null,
        extent: "extent",
        dimensions: null,
        language: "language",
        access: "access",
        creator: "creator",
        "creator URI": null,
        subjects: "subjects",
        "subjects URI": null,
        places: "places",
        "places URI": null,
        persons: null,
        container: null,
        "digital object": "digitalObject",
      },
    });
    // The dates as written ("May 1923", "c. 1850"); two languages in one cell do not fit a category.
    const plan: ImportPlan = { sectionSlug: units.slug, projectId, mapping: preview.suggestedMapping };
    const dryRun = await dryRunImport(db.prisma, curator, findingAid, plan);
    expect(dryRun).toMatchObject({ rows: 5, valid: 4, creates: 4, updates: 0 });
    expect(dryRun.problems).toHaveLength(1);
    expect(dryRun.problems[0]).toMatchObject({ row: 2, column: "language", field: "language" });
    expect(await db.prisma.record.count({ where: { sectionId: units.id } })).toBe(0);

    const { jobId } = await startImport(db.prisma, curator, findingAid, plan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", created: 4, skipped: 1 });
    const records = await valuesByExternalId(units.id);
    expect([...records.keys()].sort()).toEqual(["PDLC-CF/1/1", "PDLC-CF/2/1", "PDLC-CF/2/2", "PDLC-CF/4"]);
    expect(records.get("PDLC-CF/1/1")).toMatchObject({
      title: "Minutes of the general assembly, 1923",
      series: "Minutes > General assemblies",
      description: "Election of the board; the vaga of the net-makers.\n\nSigned by the secretary, Montserrat Vidal.",
      extent: "1 volume",
      language: "cat",
      access: "Open for research.",
      creator: "Confraria de Pescadors de Port de la Calma",
      subjects: "minutes (administrative records); Strikes",
      places: "Barcelona",
      digitalObject: "https://archive.example.org/iiif/pdlc-cf-1-1/manifest",
    });
    const first = await db.prisma.record.findFirstOrThrow({ where: { sectionId: units.id, externalId: "PDLC-CF/1/1" } });
    expect([first.dateFrom, first.dateTo]).toEqual([1923, 1923]);
    const accounts = await db.prisma.record.findFirstOrThrow({ where: { sectionId: units.id, externalId: "PDLC-CF/4" } });
    expect([accounts.dateFrom, accounts.dateTo]).toEqual([1950, 1975]);

    const again = await dryRunImport(db.prisma, curator, findingAid, plan);
    expect(again).toMatchObject({ creates: 0, updates: 0, unchanged: 4 });
  });

  it("gives authority fields the links of the '… URI' columns, each with its term as the label", async () => {
    const linked = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true, listed: true },
      { key: "subjects", label: "Subjects", type: "authority", multiple: true },
      { key: "places", label: "Places", type: "authority", authorities: ["wikidata", "tgn", "geonames"], multiple: true },
    ]);
    const preview = await previewImport(db.prisma, curator, findingAid, linked.slug);
    // The URI cells carry their terms as labels (Name <URI>): the suggestion leaves the names
    // columns, which also hold terms without a URI, out rather than pairing them as labels.
    expect(preview.suggestedMapping.columns).toMatchObject({ "subjects URI": "subjects", "places URI": "places", subjects: null, places: null });
    const plan: ImportPlan = { sectionSlug: linked.slug, projectId, mapping: preview.suggestedMapping };
    expect(await dryRunImport(db.prisma, curator, findingAid, plan)).toMatchObject({ rows: 5, valid: 5, problems: [] });
    await startImport(db.prisma, curator, findingAid, plan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    const records = await valuesByExternalId(linked.id);
    expect(records.get("PDLC-CF/1/1")).toMatchObject({
      subjects: [{ uri: "http://vocab.getty.edu/aat/300027440", label: "minutes (administrative records)" }],
      places: [{ uri: "http://www.wikidata.org/entity/Q1492", label: "Barcelona" }],
    });
    expect(records.get("PDLC-CF/2/1")).toMatchObject({ subjects: [{ uri: "http://vocab.getty.edu/aat/300046300", label: "photographs" }] });
    expect(records.get("PDLC-CF/2/1")?.places).toBeUndefined();
  });

  it("imports an EAC-CPF record into a people section, its places linked by name", async () => {
    const preview = await previewImport(db.prisma, curator, person, peopleSection.slug);
    expect(preview).toMatchObject({ format: "eac-cpf", rowCount: 1 });
    expect(preview.suggestedMapping).toMatchObject({
      externalIdColumn: "identifier",
      columns: {
        name: "name",
        "other names": null,
        "entity type": null,
        born: "born",
        died: "died",
        dates: null,
        biography: "biography",
        places: "places",
        occupation: "occupation",
      },
    });
    const plan: ImportPlan = { sectionSlug: peopleSection.slug, projectId, mapping: preview.suggestedMapping };
    expect(await dryRunImport(db.prisma, curator, person, plan)).toMatchObject({ rows: 1, valid: 1, creates: 1, problems: [] });
    await startImport(db.prisma, curator, person, plan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    const record = await db.prisma.record.findFirstOrThrow({
      where: { sectionId: peopleSection.id, externalId: "pdlc-person-vidal-roca" },
      include: { linksOut: true },
    });
    expect(record.values).toMatchObject({ name: "Vidal i Roca, Montserrat", occupation: "net-maker; secretary of the fishermen's guild" });
    expect((record.values as Record<string, string>).biography).toMatch(
      /^Montserrat Vidal i Roca mended and made nets.*\n\n1923: Elected secretary of the guild\./s,
    );
    expect(record.linksOut.map((link) => link.targetId).sort()).toEqual([placeIds["Port de la Calma"], placeIds.Barcelona].sort());
    expect(record.dateFrom).toBe(1898);
  });

  it("imports the README's sample record into the demo's People", async () => {
    const sample: ImportFile = { fileName: "montserrat-vidal.eac-cpf.xml", bytes: new Uint8Array(readFileSync("samples/import/montserrat-vidal.eac-cpf.xml")) };
    const preview = await previewImport(db.prisma, curator, sample, peopleSection.slug);
    const result = await dryRunImport(db.prisma, curator, sample, { sectionSlug: peopleSection.slug, projectId, mapping: preview.suggestedMapping });
    expect(result).toMatchObject({ rows: 1, valid: 1, creates: 1, problems: [] });
  });

  it("reads back what Mnemo's own EAD3 and EAC-CPF exports write", async () => {
    const { prisma } = db;
    const origin = "http://mnemo.test";
    const project = await createProject(prisma);
    await addMember(prisma, curator.userId, project.id, "editor");
    const exporter = await principalOf(prisma, curator.userId);
    const source = await createSection(prisma, unitFields);
    const written = [
      { title: "Net-makers' ledger", date: "c. 1850", description: "Wages of the net-makers.\n\nSigned by the guild's secretary." },
      { title: "The quay in winter", date: "1956-02", description: "A photograph of the frozen harbour." },
    ];
    for (const values of written) await saveRecord(prisma, exporter, { sectionSlug: source.slug, projectId: project.id, values });
    const findingAid = await projectFindingAid(prisma, exporter, { slug: project.slug, origin, url: `${origin}/api/v1/projects/${project.slug}/ead3` });
    const file: ImportFile = { fileName: findingAid.fileName, bytes: new TextEncoder().encode(findingAid.body) };
    const target = await createSection(prisma, unitFields);
    const preview = await previewImport(prisma, exporter, file, target.slug);
    const plan: ImportPlan = { sectionSlug: target.slug, projectId: project.id, mapping: preview.suggestedMapping };
    expect(await dryRunImport(prisma, exporter, file, plan)).toMatchObject({ rows: 2, valid: 2, creates: 2, problems: [] });
    await startImport(prisma, exporter, file, plan, { storageDir });
    await runImportJobs(prisma, { storageDir, workerId: "test" });
    const recordsOf = (sectionId: string) =>
      prisma.record.findMany({
        where: { sectionId },
        orderBy: { title: "asc" },
        select: { id: true, title: true, values: true, dateFrom: true, dateTo: true, externalId: true },
      });
    const before = await recordsOf(source.id);
    const after = await recordsOf(target.id);
    expect(after.map(({ title, dateFrom, dateTo }) => ({ title, dateFrom, dateTo }))).toEqual(
      before.map(({ title, dateFrom, dateTo }) => ({ title, dateFrom, dateTo })),
    );
    for (const [index, record] of after.entries()) {
      const original = before[index]!;
      // The exported record's id is its unitid: the import's external id.
      expect(record.externalId).toBe(original.id);
      const { date, description } = original.values as Record<string, unknown>;
      expect(record.values).toMatchObject({ date, description, series: `Section ${source.slug}` });
    }

    // A person exported as EAC-CPF 2.0 and imported into another people section.
    const places = await createSection(prisma, placeSection.fields);
    const peopleFields = demoPeople.fields.map((field) => (field.type === "relation" ? { ...field, targetSection: places.slug } : field));
    const people = await prisma.section.create({ data: { slug: "people", name: "People", fields: peopleFields } });
    const harbour = await saveRecord(prisma, exporter, {
      sectionSlug: places.slug,
      projectId: project.id,
      values: { name: "Port de la Calma", kind: "harbour" },
    });
    const person = await saveRecord(prisma, exporter, {
      sectionSlug: people.slug,
      projectId: project.id,
      values: {
        name: "Joan Soler i Mas",
        occupation: "caulker",
        born: "c. 1850",
        died: "1921-03-04",
        biography: "Caulked boats.\n\nBuilt the slipway.",
        places: [harbour.id],
      },
    });
    const authority = await personAuthorityRecord(prisma, exporter, { id: person.id, origin });
    const personFile: ImportFile = { fileName: authority.fileName, bytes: new TextEncoder().encode(authority.body) };
    const otherPeople = await createSection(prisma, peopleFields);
    const personPreview = await previewImport(prisma, exporter, personFile, otherPeople.slug);
    expect(personPreview.format).toBe("eac-cpf");
    const personPlan: ImportPlan = { sectionSlug: otherPeople.slug, projectId: project.id, mapping: personPreview.suggestedMapping };
    expect(await dryRunImport(prisma, exporter, personFile, personPlan)).toMatchObject({ rows: 1, valid: 1, problems: [] });
    await startImport(prisma, exporter, personFile, personPlan, { storageDir });
    await runImportJobs(prisma, { storageDir, workerId: "test" });
    const original = await prisma.record.findFirstOrThrow({ where: { sectionId: people.id } });
    const copy = await prisma.record.findFirstOrThrow({ where: { sectionId: otherPeople.id }, include: { linksOut: true } });
    expect(copy.externalId).toBe(original.id);
    const { name, occupation, biography } = original.values as Record<string, unknown>;
    expect(copy.values).toMatchObject({ name, occupation, biography });
    // The dates mean the same and are shown alike ("1921-03-04" comes back as its words, "4 March 1921").
    for (const key of ["born", "died"]) {
      const [was, is] = [readDateValue((original.values as Record<string, unknown>)[key]), readDateValue((copy.values as Record<string, unknown>)[key])];
      expect({ edtf: is?.edtf, shown: is?.shown }).toEqual({ edtf: was?.edtf, shown: was?.shown });
    }
    expect(readDateValue((copy.values as Record<string, unknown>).born)?.edtf).toBe("1850~");
    expect(copy.linksOut.map((link) => link.targetId)).toEqual([harbour.id]);
  });

  it("refuses a user who may not write to the project exactly as for any file", async () => {
    const plan: ImportPlan = { sectionSlug: units.slug, projectId, mapping: { externalIdColumn: "identifier", columns: { title: "title" } } };
    for (const [who, project] of [
      [researcher, projectId],
      [otherCurator, projectId],
      [curator, otherProjectId],
      [curator, "no-such-project"],
    ] as const) {
      for (const attempt of [
        dryRunImport(db.prisma, who, findingAid, { ...plan, projectId: project }),
        startImport(db.prisma, who, person, { ...plan, projectId: project }, { storageDir }),
      ]) {
        expect((await appErrorOf(attempt)).code).toBe("not_found");
      }
    }
    expect((await appErrorOf(previewImport(db.prisma, researcher, findingAid, units.slug))).code).toBe("not_found");
  });

  it("refuses malformed XML and entity declarations whole, naming the problem, and writes nothing", async () => {
    const before = { records: await db.prisma.record.count(), jobs: await db.prisma.importJob.count() };
    const plan: ImportPlan = { sectionSlug: units.slug, projectId, mapping: { columns: {} } };
    for (const [file, message] of [
      [fixture("malformed.ead3.xml"), /^The XML is not well-formed: line 6, column \d+: /],
      [fixture("entity-declaration.xml"), /DOCTYPE declares entities/],
    ] as const) {
      for (const attempt of [
        previewImport(db.prisma, curator, file, units.slug),
        dryRunImport(db.prisma, curator, file, plan),
        startImport(db.prisma, curator, file, plan, { storageDir }),
      ]) {
        const error = await appErrorOf(attempt);
        expect(error.code).toBe("bad_request");
        expect(error.message).toMatch(message);
      }
    }
    expect({ records: await db.prisma.record.count(), jobs: await db.prisma.importJob.count() }).toEqual(before);
  });

  it("takes XML over the API (format xml), EAD3 or EAC-CPF by its root", async () => {
    const token = (await createApiToken(db.prisma, curator, { name: "finding aids", expiresInDays: 30, scopes: ["read", "write"] })).token;
    const origin = "http://mnemo.test";
    const response = await callApi(
      apiDepsWithoutModels(db, origin),
      "create_import",
      {
        sectionSlug: peopleSection.slug,
        projectId,
        format: "xml",
        content: readFileSync(join(fixtures, "person.eac-cpf.xml"), "utf8"),
        dryRun: true,
      },
      { origin, token },
    );
    const text = await response.text();
    expect(response.status, text).toBe(200);
    // Imported by the test before: the same record id now updates nothing.
    expect(JSON.parse(text)).toMatchObject({ dryRun: true, mapping: { externalIdColumn: "identifier" }, result: { rows: 1, unchanged: 1 } });
  });
});
