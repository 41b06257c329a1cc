import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configVariables, operatorVariables, parseConfig } from "./config";

describe("parseConfig", () => {
  it("defaults to the embedded database in .data", () => {
    const config = parseConfig({ NODE_ENV: "test" });
    expect(config).toMatchObject({ databaseMode: "embedded", MNEMO_DATA_DIR: ".data", storageDir: ".data/media", DATABASE_POOL_SIZE: 10 });
  });

  it("switches to server mode with a postgres URL", () => {
    expect(parseConfig({ NODE_ENV: "test", DATABASE_URL: "postgres://u:p@db/mnemo" }).databaseMode).toBe("server");
  });

  it("names the variable that is wrong", () => {
    expect(() => parseConfig({ NODE_ENV: "test", DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => parseConfig({ NODE_ENV: "test", DATABASE_POOL_SIZE: "many" })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => parseConfig({ NODE_ENV: "test", AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET: must be at least 32/);
    expect(() => parseConfig({ NODE_ENV: "test", AUTH_OIDC_ISSUER: "https://id.example" })).toThrow(/AUTH_OIDC_ID, AUTH_OIDC_SECRET/);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_TRUSTED_PROXIES: "127.0.0.1, proxy.local" })).toThrow(
      /MNEMO_TRUSTED_PROXIES\.1: "proxy\.local" is not an IP address or CIDR range/,
    );
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/MNEMO_TRUSTED_PROXIES/);
    // pgvector refuses an HNSW build whose beam is under twice its links: said at start-up, not at the first index.
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_HNSW_M: "40" })).toThrow(/MNEMO_HNSW_EF_CONSTRUCTION: must be at least twice MNEMO_HNSW_M/);
    expect(parseConfig({ NODE_ENV: "test", MNEMO_HNSW_M: "32", MNEMO_HNSW_EF_CONSTRUCTION: "128" })).toMatchObject({
      MNEMO_HNSW_M: 32,
      MNEMO_HNSW_EF_CONSTRUCTION: 128,
    });
    expect(parseConfig({ NODE_ENV: "test" })).toMatchObject({ MNEMO_HNSW_M: 16, MNEMO_HNSW_EF_CONSTRUCTION: 64 });
    // The meaning leg's walk: none unless set, and never shorter than a page nor past pgvector's scan.
    expect(parseConfig({ NODE_ENV: "test" }).MNEMO_DENSE_WALK).toBeUndefined();
    expect(parseConfig({ NODE_ENV: "test", MNEMO_DENSE_WALK: " " }).MNEMO_DENSE_WALK).toBeUndefined();
    expect(parseConfig({ NODE_ENV: "test", MNEMO_DENSE_WALK: "1500" }).MNEMO_DENSE_WALK).toBe(1500);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_DENSE_WALK: "20" })).toThrow(/MNEMO_DENSE_WALK/);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_DENSE_WALK: "many" })).toThrow(/MNEMO_DENSE_WALK/);
  });

  it("reads trusted proxies as a list of addresses and CIDR ranges; none by default", () => {
    expect(parseConfig({ NODE_ENV: "test" }).MNEMO_TRUSTED_PROXIES).toEqual([]);
    expect(parseConfig({ NODE_ENV: "test", MNEMO_TRUSTED_PROXIES: "127.0.0.1, ::1 10.0.0.0/8,fd00::/8" }).MNEMO_TRUSTED_PROXIES).toEqual([
      "127.0.0.1",
      "::1",
      "10.0.0.0/8",
      "fd00::/8",
    ]);
  });
});

describe("the configuration schema", () => {
  it("gives every variable its default", () => {
    const config = parseConfig({ NODE_ENV: "test" });
    expect(config).toMatchObject({
      MNEMO_EMBEDDER: "local-use",
      MNEMO_IMAGE_EMBEDDER: "descriptor",
      MNEMO_RERANKER: "none",
      MNEMO_GENERATOR: "extractive",
      MNEMO_API_RATE_LIMIT: 120,
      MNEMO_API_CORS_ORIGINS: [],
      hashEmbedderAllowed: true,
    });
    // Unset means the service's own default (e.g. the queue's retry count).
    for (const name of ["MNEMO_INDEX_LEASE_SECONDS", "MNEMO_API_RATE_BURST", "MNEMO_INDEX_WORKER"] as const) {
      expect(config[name]).toBeUndefined();
    }
    expect(parseConfig({ NODE_ENV: "production" }).hashEmbedderAllowed).toBe(false);
    expect(parseConfig({ NODE_ENV: "production", MNEMO_ALLOW_HASH_EMBEDDER: "1" }).hashEmbedderAllowed).toBe(true);
  });

  it("treats an empty value as unset and reads numbers, choices and lists", () => {
    const config = parseConfig({
      NODE_ENV: "test",
      MNEMO_IMAGE_EMBED_TIMEOUT_MS: " ",
      MNEMO_LLM_TEMPERATURE: "0.2",
      MNEMO_RERANKER: " local ",
      MNEMO_API_CORS_ORIGINS: "https://a.example, *",
    });
    expect(config).toMatchObject({
      MNEMO_IMAGE_EMBED_TIMEOUT_MS: undefined,
      MNEMO_LLM_TEMPERATURE: 0.2,
      MNEMO_RERANKER: "local",
      MNEMO_API_CORS_ORIGINS: ["https://a.example", "*"],
    });
  });

  it.each([
    ["MNEMO_INDEX_LEASE_SECONDS", "2.5", /MNEMO_INDEX_LEASE_SECONDS: must be a whole number of at least 1 \(got "2.5"\)/],
    ["MNEMO_INDEX_WORKER", "always", /MNEMO_INDEX_WORKER: must be off or in-process \(got "always"\)/],
    ["MNEMO_GENERATOR", "gpt", /MNEMO_GENERATOR: must be extractive, openai-compatible or anthropic \(got "gpt"\)/],
    ["MNEMO_LLM_BASE_URL", "localhost:11434", /MNEMO_LLM_BASE_URL: must be an http\(s\) URL/],
    ["MNEMO_EMBEDDING_DIMENSION", "big", /MNEMO_EMBEDDING_DIMENSION: must be a whole number/],
    ["MNEMO_API_RATE_LIMIT", "0", /MNEMO_API_RATE_LIMIT: must be a whole number from 1 to 100000/],
    ["MNEMO_API_CORS_ORIGINS", "https://tool.example/", /MNEMO_API_CORS_ORIGINS: "https:\/\/tool.example\/" should be written https:\/\/tool.example/],
    ["MNEMO_PRINCIPAL_CACHE_MS", "-5", /MNEMO_PRINCIPAL_CACHE_MS: must be a whole number from 0 to 600000/],
    ["MNEMO_SECTION_CACHE_MS", "5s", /MNEMO_SECTION_CACHE_MS: must be a whole number from 0 to 3600000/],
  ])("refuses a bad %s, naming it and its value", (name, value, message) => {
    expect(() => parseConfig({ NODE_ENV: "test", [name]: value })).toThrow(message);
  });

  it("never quotes a secret back", () => {
    expect(() => parseConfig({ NODE_ENV: "test", AUTH_SECRET: "hunter2" })).toThrow(/AUTH_SECRET: must be at least 32 characters$/m);
    expect(() => parseConfig({ NODE_ENV: "test", AUTH_SECRET: "hunter2" })).not.toThrow(/hunter2/);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_BACKUP_KEY: "hunter2" })).toThrow(/MNEMO_BACKUP_KEY: must be 64 hex characters \(32 bytes\)/);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_BACKUP_KEY: "hunter2" })).not.toThrow(/hunter2/);
    expect(parseConfig({ NODE_ENV: "test", MNEMO_BACKUP_KEY: "ab".repeat(32) }).MNEMO_BACKUP_KEY).toBe("ab".repeat(32));
  });

  it("lists every MNEMO_ variable the repository reads or documents, here or in docs/development.md", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const seen = new Map<string, string>();
    const walk = (directory: string) => {
      for (const entry of readdirSync(join(root, directory), { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) {
          if (!["node_modules", "generated", ".next", "data"].includes(entry.name)) walk(path);
        } else if (/\.(ts|tsx|mjs|md)$/.test(entry.name)) {
          for (const [name] of readFileSync(join(root, path), "utf8").matchAll(/\bMNEMO_[A-Z0-9_]+\b/g)) {
            // MNEMO_LLM_… and the like name a family; a space's key variable is the admin's to name.
            if (!name.endsWith("_") && name !== "MNEMO_CANDIDATE_API_KEY") seen.set(name, path);
          }
        }
      }
    };
    for (const directory of ["lib", "app", "components", "scripts", "tests", "prisma", "e2e", "docs"]) walk(directory);
    for (const file of ["server.ts", "README.md", "package.json", "playwright.config.ts"]) {
      for (const [name] of readFileSync(join(root, file), "utf8").matchAll(/\bMNEMO_[A-Z0-9_]+\b/g)) if (!name.endsWith("_")) seen.set(name, file);
    }
    // The scripts' and tests' own variables are listed in docs/development.md instead.
    const development = readFileSync(join(root, "docs/development.md"), "utf8").split("## Variables for tests, benchmarks and scripts")[1] ?? "";
    const developerVariables = [...development.matchAll(/^\| ([^|]+) \|/gm)].flatMap(([, cell]) =>
      [...(cell ?? "").matchAll(/`(MNEMO_[A-Z0-9_]+)`/g)].map((match) => match[1] ?? ""),
    );
    expect(developerVariables).toContain("MNEMO_TEST_DB_MODE");
    const listed = new Set<string>([...configVariables, ...developerVariables]);
    const unlisted = [...seen].filter(([name]) => !listed.has(name)).map(([name, path]) => `${name} (${path})`);
    expect(unlisted).toEqual([]);
    expect(seen.size).toBeGreaterThan(40);
  });

  it("names in README's Configuration table exactly the operator's variables, one a row, each declared here", () => {
    const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? "";
    const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(rows).toEqual([...operatorVariables]);
    expect(rows.length).toBeLessThanOrEqual(30);
    const undeclared = operatorVariables.filter((name) => !(configVariables as string[]).includes(name));
    expect(undeclared).toEqual([]);
  });

  it("gives every variable one row in docs/configuration.md, the operator's first, except those docs/development.md lists", () => {
    const read = (path: string) => readFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), "utf8");
    const rowsOf = (text: string) => [...text.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1] ?? "");
    const reference = read("docs/configuration.md");
    const development = rowsOf(read("docs/development.md").split("## Variables for tests, benchmarks and scripts")[1] ?? "");
    const operator = reference.split(/^## /m).find((section) => section.startsWith("What an institution sets")) ?? "";
    expect(rowsOf(operator)).toEqual([...operatorVariables]);
    const expected = configVariables.filter((name) => name !== "NODE_ENV" && !development.includes(name));
    expect([...rowsOf(reference)].sort()).toEqual(expected.sort());
  });
});
