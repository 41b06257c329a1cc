import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Runs a command to its end with the given environment; throws when it fails. */
export function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
}

/**
 * The benchmarks' small demo under `root`: `seeded` (every record queued, nothing indexed) and,
 * from a copy, `indexed` (the worker drained), each built once and marked ready; `reseed` builds
 * both again. bench:load and bench:record-page measure the same data.
 */
export function ensureSmallDemo(root: string, env: NodeJS.ProcessEnv, options: { label: string; reseed?: boolean }): { seededDir: string; indexedDir: string } {
  const seededDir = join(root, "seeded");
  const indexedDir = join(root, "indexed");
  const demoEnv: NodeJS.ProcessEnv = { ...env, MNEMO_DEMO_SIZE: "small" };
  delete demoEnv.DATABASE_URL;
  if (!existsSync(join(seededDir, "ready")) || options.reseed) {
    rmSync(seededDir, { recursive: true, force: true });
    rmSync(indexedDir, { recursive: true, force: true });
    console.log(`[${options.label}] seeding the small demo (once)…`);
    runToEnd("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"], { ...demoEnv, MNEMO_DATA_DIR: seededDir });
    writeFileSync(join(seededDir, "ready"), new Date().toISOString());
  }
  if (!existsSync(join(indexedDir, "ready"))) {
    rmSync(indexedDir, { recursive: true, force: true });
    cpSync(seededDir, indexedDir, { recursive: true });
    rmSync(join(indexedDir, "ready"));
    console.log(`[${options.label}] indexing the small demo (once)…`);
    runToEnd("npx", ["tsx", "--conditions=react-server", "scripts/worker.ts", "--drain"], { ...demoEnv, MNEMO_DATA_DIR: indexedDir });
    writeFileSync(join(indexedDir, "ready"), new Date().toISOString());
  }
  return { seededDir, indexedDir };
}
