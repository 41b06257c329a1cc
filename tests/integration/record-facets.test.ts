import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { decadeLabel, listRecordsQuerySchema, recordFacets } from "../../lib/archive/list-records";
import type { Database } from "../../lib/db/database";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The record list's facets: counts per section, project and decade under the query and the
 * other filters, over the records the principal may read only — a restricted project's records
 * are never counted for someone outside it, and a principal with no project counts nothing.
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
    expect(countsOf(everything.sections)).toEqual({ [slugs.letters]: 5, [slugs.photos]: 2 });
    expect(countsOf(everything.decades)).toEqual({ "1960": 3, "1970": 2, "1990": 1 });
    expect(await recordFacets(db.sql, nobody, query())).toEqual({ sections: [], projects: [], decades: [] });
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
    const ids = (await db.prisma.record.findMany({ where: { title: { in: ["Harbour photo", "Harbour letter, closed"] } }, select: { id: true } })).map((row) => row.id);
    const pinned = await recordFacets(db.sql, reader, query(), { pinnedIds: ids });
    // The closed letter is among the pinned ids, but the reader cannot read it: not counted.
    expect(countsOf(pinned.sections)).toEqual({ [slugs.photos]: 1 });
  });

  it("label decades, years BC too", () => {
    expect(decadeLabel(1960)).toBe("1960s");
    expect(decadeLabel(-330)).toBe("330s BC");
  });
});
