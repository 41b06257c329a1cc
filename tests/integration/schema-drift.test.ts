import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../lib/db/database";
import { migrate } from "../../lib/db/migrate";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * schema.prisma and prisma/migrations must describe the same database. The DMMF comes from the
 * schemaModel generator (prisma/generators/schema-model.mjs); the database side from the
 * catalog after the migrations ran. Any column, type, nullability, enum, unique or index that
 * exists on one side only fails here.
 */
interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  isList: boolean;
  isRequired: boolean;
  type: string;
  relationFromFields?: string[];
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { fields: string[] } | null;
}
interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string;
  fields: { name: string }[];
}
const dmmf = JSON.parse(readFileSync(new URL("../../lib/db/generated/schema-model.json", import.meta.url), "utf8")) as {
  models: DmmfModel[];
  enums: { name: string; values: { name: string }[] }[];
  indexes: DmmfIndex[];
};

// The DMMF leaves Unsupported("…") fields out, so those are read from the schema text itself.
function unsupportedColumns(): Map<string, { type: string; notNull: boolean }> {
  const schema = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");
  const result = new Map<string, { type: string; notNull: boolean }>();
  for (const block of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const [, modelName = "", body = ""] = block;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? modelName;
    for (const line of body.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?(.*)$/gm)) {
      const [, name = "", type = "", optional, rest = ""] = line;
      const column = /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? name;
      result.set(`${table}.${column}`, { type, notNull: !optional });
    }
  }
  return result;
}

const scalarTypes: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
};

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

describe(`schema.prisma matches the migrated database (${testDatabaseMode()})`, () => {
  it("has the same tables and columns, types and nullability", async () => {
    const columns = await db.sql.query<{ table_name: string; column_name: string; type: string; not_null: boolean }>(
      `SELECT c.relname AS table_name, a.attname AS column_name,
              format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND c.relname <> '_prisma_migrations'`,
    );
    const actual = new Map(columns.map((column) => [`${column.table_name}.${column.column_name}`, column]));
    const expected = new Map<string, { type: string; notNull: boolean }>();
    for (const model of dmmf.models) {
      for (const field of model.fields) {
        if (field.kind === "object") continue;
        let type: string;
        if (field.kind === "enum") type = `"${field.type}"`;
        else if (field.kind === "unsupported") type = field.type.replace(/^Unsupported\("(.+)"\)$/, "$1");
        else type = scalarTypes[field.type] ?? `unmapped ${field.type}`;
        if (field.isList) type += "[]";
        // Prisma lists are nullable columns; required scalars are NOT NULL.
        expected.set(`${model.dbName ?? model.name}.${field.dbName ?? field.name}`, {
          type,
          notNull: field.isRequired && !field.isList,
        });
      }
    }
    for (const [key, column] of unsupportedColumns()) expected.set(key, column);
    const normalise = (type: string) => type.replace(/^"(.*)"$/, "$1");
    const differences: string[] = [];
    for (const [key, want] of expected) {
      const got = actual.get(key);
      if (!got) differences.push(`${key}: in schema.prisma, missing from the database`);
      else if (normalise(got.type) !== normalise(want.type) || got.not_null !== want.notNull) {
        differences.push(`${key}: schema ${want.type}${want.notNull ? " NOT NULL" : ""}, database ${got.type}${got.not_null ? " NOT NULL" : ""}`);
      }
    }
    for (const key of actual.keys()) if (!expected.has(key)) differences.push(`${key}: in the database, missing from schema.prisma`);
    expect(differences).toEqual([]);
  });

  it("has the same enums and values", async () => {
    const rows = await db.sql.query<{ name: string; value: string }>(
      `SELECT t.typname AS name, e.enumlabel AS value FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid ORDER BY t.typname, e.enumsortorder`,
    );
    const actual: Record<string, string[]> = {};
    for (const row of rows) (actual[row.name] ??= []).push(row.value);
    const expected = Object.fromEntries(dmmf.enums.map((item) => [item.name, item.values.map((value) => value.name)]));
    expect(actual).toEqual(expected);
  });

  it("has every primary key, unique constraint and index the schema declares", async () => {
    const rows = await db.sql.query<{ table_name: string; index_name: string; is_unique: boolean; is_primary: boolean; columns: string[] }>(
      `SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
              array_agg(a.attname::text ORDER BY k.ordinality) AS columns
         FROM pg_index ix
         JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ordinality)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
        GROUP BY t.relname, i.relname, ix.indisunique, ix.indisprimary`,
    );
    const describeIndex = (table: string, kind: string, columns: string[]) => `${table} ${kind} (${columns.join(", ")})`;
    const actual = new Set(rows.map((row) => describeIndex(row.table_name, row.is_primary ? "id" : row.is_unique ? "unique" : "normal", row.columns)));
    const modelsByName = new Map(dmmf.models.map((model) => [model.name, model]));
    const missing: string[] = [];
    for (const index of dmmf.indexes) {
      const model = modelsByName.get(index.model);
      if (!model) continue;
      const columns = index.fields.map((field) => {
        const definition = model.fields.find((candidate) => candidate.name === field.name);
        return definition?.dbName ?? field.name;
      });
      const description = describeIndex(model.dbName ?? model.name, index.type, columns);
      if (!actual.has(description)) missing.push(description);
    }
    expect(missing).toEqual([]);
  });

  it("re-running the migrations is a no-op and they are recorded as Prisma records them", async () => {
    const again = await migrate(db.sql);
    expect(again.applied).toEqual([]);
    const recorded = await db.sql.query<{ migration_name: string; finished_at: Date | null; applied_steps_count: number }>(
      `SELECT migration_name, finished_at, applied_steps_count FROM "_prisma_migrations"`,
    );
    expect(recorded.length).toBeGreaterThan(0);
    for (const row of recorded) {
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });
});
