import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../lib/db/database";
import { defaultMigrationsDir, migrate } from "../../lib/db/migrate";
import { keywordStatisticsDrift } from "../support/index-checks";

/**
 * The migration that makes derived rows list their source records fills them in for what was
 * stored before it: passages get every record their group's field paths reach through the
 * current links (and those records' projects in their scope), records whose passages quote
 * linked records are queued again, proposals get their evidence records and saved answers the
 * records their citations hold. Embedded mode only: the migration is the same SQL in both.
 */
const migration = "20261202120000_scope_follows_records";
let db: Database;

const id = {
  user: "u-1",
  open: "p-open",
  mine: "p-mine",
  places: "s-places",
  people: "s-people",
  interviews: "s-interviews",
  place: "r-place",
  person: "r-person",
  stranger: "r-stranger",
  interview: "r-interview",
  second: "r-second",
  about: "g-about",
  birthplaces: "g-birthplaces",
  profile: "g-profile",
  placeGroup: "g-place",
  space: "space-1",
};

beforeAll(async () => {
  db = await openDatabase({ dataDir: "memory://", migrateOnOpen: false });
  const before = mkdtempSync(join(tmpdir(), "mnemo-migrations-"));
  for (const name of readdirSync(defaultMigrationsDir, { withFileTypes: true })) {
    if (name.isDirectory() && name.name < migration) cpSync(join(defaultMigrationsDir, name.name), join(before, name.name), { recursive: true });
  }
  await migrate(db.sql, { migrationsDir: before });
  const q = (sql: string, params: unknown[] = []) => db.sql.query(sql, params);
  await q(`INSERT INTO users (id, email, name, role, updated_at) VALUES ($1, 'u@example.test', 'U', 'researcher', now())`, [id.user]);
  await q(`INSERT INTO projects (id, slug, name) VALUES ($1, 'open', 'Open'), ($2, 'mine', 'Mine')`, [id.open, id.mine]);
  const text = (key: string) => ({ key, label: key, type: "text" });
  const relation = (key: string, target: string) => ({ key, label: key, type: "relation", targetSection: target });
  await q(
    `INSERT INTO sections (id, slug, name, fields, updated_at) VALUES ($1, 'places', 'Places', $2, now()), ($3, 'people', 'People', $4, now()), ($5, 'interviews', 'Interviews', $6, now())`,
    [
      id.places,
      JSON.stringify([text("name"), text("description")]),
      id.people,
      JSON.stringify([text("name"), text("occupation"), relation("birthplace", "places")]),
      id.interviews,
      JSON.stringify([text("title"), relation("narrator", "people")]),
    ],
  );
  const record = (recordId: string, section: string, project: string, values: object) =>
    q(`INSERT INTO records (id, section_id, project_id, title, "values", updated_at) VALUES ($1, $2, $3, $1, $4, now())`, [
      recordId,
      section,
      project,
      JSON.stringify(values),
    ]);
  await record(id.place, id.places, id.open, { name: "Sau", description: "drowned" });
  await record(id.person, id.people, id.mine, { name: "Andrés", occupation: "warden", birthplace: id.place });
  await record(id.stranger, id.people, id.open, { name: "Someone", occupation: "miller" });
  await record(id.interview, id.interviews, id.open, { title: "La moneda", narrator: id.person });
  await record(id.second, id.interviews, id.open, { title: "El pantano", narrator: id.person });
  await q(`INSERT INTO record_links (source_id, field_key, target_id) VALUES ($1, 'birthplace', $2), ($3, 'narrator', $1), ($4, 'narrator', $1)`, [
    id.person,
    id.place,
    id.interview,
    id.second,
  ]);
  const group = (groupId: string, section: string, fields: string[]) =>
    q(`INSERT INTO embed_groups (id, section_id, slug, label, fields, updated_at) VALUES ($1, $2, $1, $1, $3, now())`, [
      groupId,
      section,
      JSON.stringify(fields),
    ]);
  await group(id.about, id.interviews, ["title", "narrator.occupation", "narrator.birthplace.description"]);
  await group(id.birthplaces, id.interviews, ["narrator.birthplace.description"]);
  await group(id.profile, id.people, ["name", "occupation"]);
  await group(id.placeGroup, id.places, ["name", "description"]);
  await q(`INSERT INTO index_spaces (id, name, provider, model, dimension, chunker_version) VALUES ($1, 'test', 'hash', 'hash', 8, 2)`, [id.space]);
  const chunk = (chunkId: string, recordId: string, project: string, section: string, groupId: string, contributing: string[], words: string) =>
    q(
      `INSERT INTO chunks (id, record_id, project_id, section_id, embed_group_id, index_space_id, language, ordinal, text, embedded_text,
                           start_offset, end_offset, contributing_project_ids, content_hash, search_vector)
       VALUES ($1, $2, $3, $4, $5, $6, 'en', 0, $7, $7, 0, 1, $8::text[], $1, to_tsvector('english', $7))`,
      [chunkId, recordId, project, section, groupId, id.space, words, contributing],
    );
  await chunk("c-interview", id.interview, id.open, id.interviews, id.about, [id.mine, id.open], "moneda warden drowned");
  await chunk("c-person", id.person, id.mine, id.people, id.profile, [id.mine], "andres warden");
  await chunk("c-stranger", id.stranger, id.open, id.people, id.profile, [id.open], "someone miller");
  await chunk("c-place", id.place, id.open, id.places, id.placeGroup, [id.open], "sau drowned");
  // Indexed by the builder that did not count the narrator a path went through: open only.
  await chunk("c-second", id.second, id.open, id.interviews, id.birthplaces, [id.open], "pantano drowned");
  await q(`INSERT INTO proposals (id, record_id, role, value, confidence, evidence) VALUES ('pr-1', $1, 'typology', '"x"', 0.5, $2)`, [
    id.stranger,
    JSON.stringify({ voters: [{ recordId: id.person, projectId: id.mine }], support: [{ recordId: id.place }, { recordId: id.person }] }),
  ]);
  await q(`INSERT INTO chat_threads (id, user_id, title, updated_at) VALUES ('t-1', $1, 'T', now())`, [id.user]);
  await q(
    `INSERT INTO chat_messages (id, thread_id, role, content, citations) VALUES ('m-1', 't-1', 'assistant', 'A', $1), ('m-2', 't-1', 'user', 'Q', '[]')`,
    [
      JSON.stringify([
        { recordId: id.interview, chunkId: "c-interview" },
        { recordId: id.stranger, chunkId: "c-gone" },
      ]),
    ],
  );
});

afterAll(async () => {
  await db?.close();
});

describe("the migration listing derived rows' source records", () => {
  it("fills passages and their scope, the queue, proposals and saved answers, and keeps the keyword statistics exact", async () => {
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
    const applied = await migrate(db.sql);
    // This migration and any written after it, none before.
    expect(applied.applied[0]).toBe(migration);
    expect(applied.applied.every((name) => name >= migration)).toBe(true);

    const chunks = await db.sql.query<{ id: string; contributing_record_ids: string[]; contributing_project_ids: string[] }>(
      `SELECT id, contributing_record_ids, contributing_project_ids FROM chunks ORDER BY id`,
    );
    expect(Object.fromEntries(chunks.map((row) => [row.id, row.contributing_record_ids]))).toEqual({
      // Through the narrator to the narrator's birthplace: every record on the way.
      "c-interview": [id.interview, id.person, id.place].sort(),
      "c-second": [id.person, id.place, id.second].sort(),
      // The person's group quotes no relation: the birthplace link is not followed.
      "c-person": [id.person],
      "c-place": [id.place],
      "c-stranger": [id.stranger],
    });
    // The narrator the path went through is restricted: the passage is now restricted too.
    expect(chunks.find((row) => row.id === "c-second")?.contributing_project_ids).toEqual([id.mine, id.open].sort());
    expect(chunks.find((row) => row.id === "c-place")?.contributing_project_ids).toEqual([id.open]);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
    const queued = await db.sql.query<{ record_id: string }>(`SELECT record_id FROM index_queue ORDER BY record_id`);
    expect(queued.map((row) => row.record_id)).toEqual([id.interview, id.person, id.second].sort());
    const [proposal] = await db.sql.query<{ evidence_record_ids: string[] }>(`SELECT evidence_record_ids FROM proposals`);
    expect(proposal?.evidence_record_ids).toEqual([id.person, id.place].sort());
    const messages = await db.sql.query<{ id: string; source_record_ids: string[] }>(`SELECT id, source_record_ids FROM chat_messages ORDER BY id`);
    expect(Object.fromEntries(messages.map((row) => [row.id, row.source_record_ids]))).toEqual({
      "m-1": [id.interview, id.person, id.place, id.stranger].sort(),
      "m-2": [],
    });
  });
});
