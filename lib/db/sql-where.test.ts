import { describe, expect, it } from "vitest";
import { whereEquals } from "./sql-where";

describe("whereEquals", () => {
  it("binds a set filter as the next parameter and skips an unset one", () => {
    const params: unknown[] = ["first"];
    const where = ["r.id = $1"];
    whereEquals(where, params, "s.slug", "coins");
    whereEquals(where, params, "r.project_id", undefined);
    whereEquals(where, params, "p.role", "");
    whereEquals(where, params, "c.embed_group_id", "g1");
    expect(where).toEqual(["r.id = $1", "s.slug = $2", "c.embed_group_id = $3"]);
    expect(params).toEqual(["first", "coins", "g1"]);
  });

  it("refuses a column that is not a plain identifier", () => {
    expect(() => whereEquals([], [], "s.slug; DROP TABLE records", "x")).toThrow(/unsafe column/);
  });
});
