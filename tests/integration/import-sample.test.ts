import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { dryRunImport, getImportJob, previewImport, runImportJobs, startImport, type ImportFile, type ImportPlan } from "../../lib/archive/import";
import { saveRecord } from "../../lib/archive/save-record";
import { systemPrincipal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { peopleSection, placeSection } from "../../prisma/seed/text-collections";
import { addMember, createProject, createSection, createUser, principalOf, temporaryStorageDir } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The sample the README offers for trying the /import page on the demo: samples/import/people-200.csv
 * into the demo's People section, with exactly five bad rows (an impossible date, a missing name, a
 * place that does not exist, a repeated id, an impossible month).
 */
const sample: ImportFile = { fileName: "people-200.csv", bytes: readFileSync("samples/import/people-200.csv") };
const badRows = [17, 50, 90, 120, 160];

let db: Database;
let storageDir: string;
let curator: Principal;
let outsider: Principal;
let plan: ImportPlan;

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const { prisma } = db;
  const project = await createProject(prisma);
  const places = await createSection(prisma, placeSection.fields);
  const people = await createSection(
    prisma,
    peopleSection.fields.map((field) => (field.type === "relation" ? { ...field, targetSection: places.slug } : field)),
  );
  for (const name of ["Port de la Calma", "Sant Romà de Vall", "Vilanova del Segrell"]) {
    await saveRecord(prisma, systemPrincipal, { sectionSlug: places.slug, projectId: project.id, values: { name, kind: "village" } });
  }
  const user = await createUser(prisma, { role: "curator" });
  await addMember(prisma, user.id, project.id, "editor");
  curator = await principalOf(prisma, user.id);
  const other = await createUser(prisma, { role: "curator" });
  await addMember(prisma, other.id, (await createProject(prisma)).id, "editor");
  outsider = await principalOf(prisma, other.id);
  const preview = await previewImport(prisma, curator, sample, people.slug);
  plan = { sectionSlug: people.slug, projectId: project.id, mapping: preview.suggestedMapping };
});

afterAll(async () => {
  await db.close();
});

describe(`the demo's import sample (${testDatabaseMode()})`, () => {
  it("maps every column by its label and dry-runs with exactly its five bad rows", async () => {
    expect(plan.mapping).toEqual({
      externalIdColumn: "ID",
      columns: { Name: "name", Occupation: "occupation", Born: "born", Died: "died", Places: "places", Biography: "biography" },
    });
    const result = await dryRunImport(db.prisma, curator, sample, plan);
    expect(result.problems.map((problem) => problem.row)).toEqual(badRows);
    expect(result).toMatchObject({ rows: 200, valid: 195, creates: 195 });
  });

  it("imports 195 people, and a second run creates none", async () => {
    const first = await startImport(db.prisma, curator, sample, plan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "sample" });
    expect(await getImportJob(db.prisma, curator, first.jobId)).toMatchObject({ status: "done", created: 195, skipped: 5 });
    const second = await startImport(db.prisma, curator, sample, plan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "sample" });
    expect(await getImportJob(db.prisma, curator, second.jobId)).toMatchObject({ status: "done", created: 0, skipped: 5 });
    expect(await db.prisma.record.count({ where: { section: { slug: plan.sectionSlug } } })).toBe(195);
  });

  it("is not found for a curator who cannot edit the project", async () => {
    await expect(dryRunImport(db.prisma, outsider, sample, plan)).rejects.toMatchObject({ code: "not_found" });
  });
});
