// The server Playwright tests run against: a fresh embedded database in .test-data/e2e seeded
// with the small demo archive, the production build, server.ts (as `npm start`) on the given port.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer } from "node:net";

const port = process.argv[2] ?? "3100";
const dataDir = ".test-data/e2e";
rmSync(dataDir, { recursive: true, force: true });
const env = {
  ...process.env,
  MNEMO_DATA_DIR: dataDir,
  MNEMO_DEMO_SIZE: "small",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  // Low enough that the rate-limit test needs few attempts.
  SIGN_IN_MAX_FAILURES: "5",
};
delete env.DATABASE_URL;

/** A port nothing listens on now, for the scripted research model. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port: free } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

// Research mode runs against a scripted loopback model (scripts/fake-research-provider.ts);
// plain Ask keeps the offline extractive answerer (MNEMO_GENERATOR stays unset). The demo's
// sections are local-only, so the model is declared inside (it runs on this host): it reads the
// records and quotes them. Withholding from an external model is covered by the integration tests.
const researchPort = await freePort();
Object.assign(env, {
  MNEMO_RESEARCH_PROVIDER: "openai-compatible",
  MNEMO_RESEARCH_BASE_URL: `http://127.0.0.1:${researchPort}`,
  MNEMO_RESEARCH_MODEL: "fake-research",
  MNEMO_RESEARCH_EXTERNAL: "0",
});

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"]);
if (!process.env.E2E_SKIP_BUILD) run("npx", ["next", "build"]);
const researchModel = spawn("npx", ["tsx", "scripts/fake-research-provider.ts", String(researchPort), "openai"], { stdio: "inherit", env });
const server = spawn("npx", ["tsx", "server.ts", "-H", "127.0.0.1", "-p", port], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    researchModel.kill(signal);
    server.kill(signal);
  });
}
server.on("exit", (code) => {
  researchModel.kill("SIGTERM");
  process.exit(code ?? 0);
});
