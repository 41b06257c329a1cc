import { describe, expect, it } from "vitest";
import { checkExtensions, compareVersions, DatabaseSetupError } from "./migrate";

describe("compareVersions", () => {
  it("orders dotted versions numerically, a missing part counting as 0", () => {
    expect(compareVersions("0.7.4", "0.8")).toBe(-1);
    expect(compareVersions("0.8.0", "0.8")).toBe(0);
    expect(compareVersions("0.8.1", "0.8")).toBe(1);
    expect(compareVersions("0.10.0", "0.8")).toBe(1);
  });
});

/** A server's answer to pg_available_extensions, as the check reads it. */
function serverWith(rows: { name: string; installed_version: string | null; default_version: string | null }[]) {
  return { query: async <Row>() => rows as Row[] };
}
const contrib = [
  { name: "unaccent", installed_version: null, default_version: "1.1" },
  { name: "pg_trgm", installed_version: null, default_version: "1.6" },
];

describe("checkExtensions", () => {
  it("passes a server with pgvector 0.8 or later and the contrib modules", async () => {
    await expect(checkExtensions(serverWith([...contrib, { name: "vector", installed_version: "0.8.1", default_version: "0.8.1" }]))).resolves.toBeUndefined();
  });

  it("refuses an older pgvector already installed in the database, saying how to update it", async () => {
    const error = await checkExtensions(serverWith([...contrib, { name: "vector", installed_version: "0.7.4", default_version: "0.8.1" }])).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseSetupError);
    expect((error as Error).message).toMatch(/pgvector 0\.7\.4 is installed in this database; Mnemo needs 0\.8 or later .*ALTER EXTENSION vector UPDATE/);
  });

  it("names missing contrib modules", async () => {
    const error = await checkExtensions(serverWith([{ name: "vector", installed_version: null, default_version: "0.8.1" }])).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/lacks the unaccent and pg_trgm extensions/);
  });
});
