import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the file at `path` (which need not exist) and returns the zone errors. */
async function zoneErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  expect(result?.messages.filter((message) => message.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((message) => message.ruleId === "import/no-restricted-paths").map((message) => message.message);
}

/** The same for the `no-restricted-syntax` errors (queries written outside lib/). */
async function syntaxErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  expect(result?.messages.filter((message) => message.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((message) => message.ruleId === "no-restricted-syntax").map((message) => message.message);
}

describe("import zones (npm run lint)", () => {
  it("refuses lib importing components, by alias or relative path", async () => {
    const errors = await zoneErrors(
      "lib/rag/ask/zone-fixture.ts",
      `import { formatYear } from "@/components/format";\nimport { formatYearRange } from "../../../components/format";\nexport const formats = [formatYear, formatYearRange];\n`,
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain("lib/ never imports app/ or components/");
  });

  it("refuses an import from a layer above, naming both layers", async () => {
    const llm = await zoneErrors("lib/llm/zone-fixture.ts", `import type { Embedder } from "../rag/embed/embedder";\nexport type Fixture = Embedder;\n`);
    expect(llm).toEqual([expect.stringContaining(`"generation providers" may not import the layer "rag: config, chunk, embed"`)]);
    const search = await zoneErrors(
      "lib/rag/search/zone-fixture.ts",
      `import type { AskContext } from "@/lib/rag/ask/ask";\nexport type Fixture = AskContext;\n`,
    );
    expect(search).toEqual([expect.stringContaining(`"rag: search" may not import the layer "rag: ask, objects"`)]);
    const rag = await zoneErrors(
      "lib/rag/ask/zone-fixture.ts",
      `import { ndjsonResponse } from "../../http/ndjson";\nexport const fixture = ndjsonResponse;\n`,
    );
    expect(rag).toEqual([expect.stringContaining(`"rag: ask, objects" may not import the layer "http"`)]);
  });

  it("places the runtime between rag and the wrappers: lib/http may take it, rag and the runtime may not reach up", async () => {
    expect(await zoneErrors("lib/http/zone-fixture.ts", `import type { Runtime } from "../runtime";\nexport type Fixture = Runtime;\n`)).toEqual([]);
    const rag = await zoneErrors("lib/rag/search/zone-fixture.ts", `import type { Runtime } from "../../runtime";\nexport type Fixture = Runtime;\n`);
    expect(rag).toEqual([expect.stringContaining(`"rag: search" may not import the layer "runtime"`)]);
    const runtime = await zoneErrors("lib/runtime.ts", `import { authorizedAction } from "./http/authorized";\nexport const fixture = authorizedAction;\n`);
    expect(runtime).toEqual([expect.stringContaining(`"runtime" may not import the layer "http"`)]);
  });

  it("refuses app/ and components/ importing lib/db or the Prisma client, types included", async () => {
    const page = await zoneErrors(
      "app/zone-fixture/page.tsx",
      `import { getPrisma } from "@/lib/db";\nimport type { PrismaClient } from "@/lib/db/generated/client";\nimport { Prisma } from "@prisma/client";\nexport const fixture: [typeof getPrisma, PrismaClient | null, typeof Prisma] = [getPrisma, null, Prisma];\n`,
    );
    expect(page).toEqual([0, 1, 2].map(() => expect.stringContaining("app/ reaches the database through a lib/ function")));
    const component = await zoneErrors(
      "components/zone-fixture.tsx",
      `import type { SqlExecutor } from "../lib/db/sql-executor";\nexport type Fixture = SqlExecutor;\n`,
    );
    expect(component).toEqual([expect.stringContaining("components/ reaches the database through a lib/ function")]);
  });

  it("refuses a query written in app/ on the runtime's database, and lets the database be passed to lib/", async () => {
    const queries = await syntaxErrors(
      "app/zone-fixture/page.tsx",
      [
        `export async function fixture(runtime: any, prisma: any, sql: any, objects: any) {`,
        `  await runtime.database.prisma.section.findMany();`,
        `  await prisma.goldenSet.findMany();`,
        `  await prisma.$transaction([]);`,
        `  await sql.query("SELECT 1");`,
        `  await objects.sql.query("SELECT 1");`,
        `  await runtime.database.sql.transaction(async () => null);`,
        `}`,
      ].join("\n"),
    );
    expect(queries).toHaveLength(6);
    expect(queries[0]).toContain("call a lib/ function and pass it runtime.database");
    const passed = await syntaxErrors(
      "components/zone-fixture.tsx",
      `import { listSections } from "@/lib/archive/sections";\nexport async function fixture(runtime: any) {\n  const { prisma, sql } = runtime.database;\n  return [await listSections(prisma), await listSections(runtime.database.prisma), sql, runtime.search.query];\n}\n`,
    );
    expect(passed).toEqual([]);
  });

  it("accepts imports of the module's own layer and the layers below", async () => {
    const [result] = await eslint.lintText(
      `import type { SearchContext } from "../search/search-archive";\nimport type { ObjectsRuntime } from "../objects/similar-objects";\nimport { AppError } from "@/lib/errors";\nexport type Fixture = [SearchContext, ObjectsRuntime];\nexport const fixture = AppError;\n`,
      { filePath: `${root}lib/rag/ask/zone-fixture.ts` },
    );
    expect(result?.messages).toEqual([]);
  });
}, 60_000);
