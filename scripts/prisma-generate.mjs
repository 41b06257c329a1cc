// Generates the Prisma client without network access. Prisma's CLI downloads its native schema
// engine before any command, even `generate`, which needs only the bundled WebAssembly. Pointing
// PRISMA_SCHEMA_ENGINE_BINARY (Prisma's documented override) at a placeholder skips that download;
// the placeholder exits with a message if anything ever tries to run it.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const placeholderDir = join("node_modules", ".cache", "mnemo");
const placeholder = join(placeholderDir, "schema-engine-unavailable");
if (!existsSync(placeholder)) {
  mkdirSync(placeholderDir, { recursive: true });
  writeFileSync(
    placeholder,
    "#!/bin/sh\necho 'Prisma schema engine is not installed; Mnemo applies prisma/migrations itself (npm run db:migrate).' >&2\nexit 1\n",
  );
  chmodSync(placeholder, 0o755);
}

const result = spawnSync("npx", ["prisma", "generate"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? placeholder,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
process.exit(result.status ?? 1);
