// `npm run demo [-- --without-packages]`: from a fresh clone to the app on http://localhost:3000
// with the demo archive on the embedded database. First the Debian packages that make the demo
// the product (Apertium, tesseract, poppler, ffmpeg: scripts/system-packages.ts installs them as
// root or with password-less sudo, else stops with the command to run, unless told to go on
// without them); then it migrates and seeds (once), builds when the sources are newer than the
// last build, prints the demo logins and starts the production server.
import { spawnSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const dataDir = process.env.MNEMO_DATA_DIR ?? ".data";
mkdirSync(dataDir, { recursive: true });

// A stable secret per installation, so sessions survive restarts of the demo.
const secretFile = join(dataDir, "auth-secret");
if (!process.env.AUTH_SECRET) {
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("base64url"), { mode: 0o600 });
  process.env.AUTH_SECRET = readFileSync(secretFile, "utf8").trim();
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

let withoutPackages;
try {
  withoutPackages = parseArgs({ options: { "without-packages": { type: "boolean", default: false } }, strict: true }).values["without-packages"];
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\nusage: npm run demo [-- --without-packages]`);
  process.exit(2);
}
run("npx", ["tsx", "--conditions=react-server", "scripts/system-packages.ts", "--install", ...(withoutPackages ? ["--without-packages"] : [])]);

run("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"]);

function newestSource(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "generated") visit(join(path, entry));
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}
const buildId = join(".next", "BUILD_ID");
const sources = ["app", "components", "lib", "public", "next.config.ts", "package.json", "package-lock.json"];
if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSource(sources)) {
  console.log("[demo] building the app (a minute or two on first run)…");
  run("npx", ["next", "build"]);
}

const port = process.env.PORT ?? "3000";
console.log(`\n[demo] Mnemo is starting on http://localhost:${port} — sign in with one of the logins above.\n`);
// server.ts, not `next start`: it tells sign-in throttling each client's socket address.
const server = spawn("npx", ["tsx", "server.ts", "-p", port], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
