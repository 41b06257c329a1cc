import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

const port = Number(process.env.E2E_POSTGRES_PORT ?? 3110);
// This server wants an OCR language whose package is not installed, so the notice of what is
// missing is seen (e2e/system-notice.spec.ts); scripts/e2e-server.mjs adds it to MNEMO_OCR_LANGUAGES.
process.env.E2E_MISSING_OCR_LANGUAGE ??= "chr";

/**
 * The same production build in real server mode: the small demo on a real PostgreSQL with pgvector
 * (MNEMO_TEST_POSTGRES_URL; `npm run test:e2e:postgres` starts a throwaway cluster), the web process
 * without an indexer and `npm run worker` as its own process (scripts/e2e-server.mjs --postgres).
 * The specs that cross the database the most: search, ask, access, indexing (admin) and imports (run by the worker).
 */
export default defineConfig({
  ...base,
  testMatch: ["search.spec.ts", "ask.spec.ts", "access.spec.ts", "admin.spec.ts", "import.spec.ts", "system-notice.spec.ts"],
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  webServer: {
    ...base.webServer,
    command: `node scripts/e2e-server.mjs ${port} --postgres`,
    url: `http://127.0.0.1:${port}/sign-in`,
  },
});
