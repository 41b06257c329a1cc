/**
 * `npm run packages [-- --install] [-- --without-packages]`: which of the Debian packages Mnemo
 * uses are missing here and what each costs (lib/system-packages.ts). With --install (as
 * `npm run demo` runs it) it installs them when it can: as root, or with sudo that asks no
 * password, on a system with apt-get; otherwise it prints the one command to run. Exit codes: 0
 * everything is there (or --without-packages: go on without), 1 something is missing, 2 the
 * installation ran and failed.
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { checkSystem, installPlan, missingCapabilities, packagesToInstall } from "../lib/system-packages";

const { values } = parseArgs({ options: { install: { type: "boolean", default: false }, "without-packages": { type: "boolean", default: false } } });
const say = (line: string) => console.log(`[packages] ${line}`);

const missing = missingCapabilities(await checkSystem());
if (missing.length === 0) {
  say("Apertium (Spanish, Catalan), tesseract, poppler and ffmpeg are installed.");
  process.exit(0);
}
say("missing here, and what it costs until it is installed:");
for (const capability of missing) say(`  ${capability.name}: ${capability.cost}`);
const packages = packagesToInstall(missing);

if (values.install && !values["without-packages"]) {
  const onPath = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
  const plan = installPlan(packages, {
    uid: typeof process.getuid === "function" ? process.getuid() : null,
    apt: onPath("apt-get"),
    sudo: onPath("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
  });
  if (plan.action === "install") {
    for (const command of plan.commands) {
      say(`running: ${command.join(" ")}`);
      const result = spawnSync(command[0]!, command.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
      if (result.status !== 0) {
        say(`that failed (exit ${result.status ?? result.signal}). Install them yourself: sudo apt-get install -y ${packages.join(" ")}`);
        process.exit(2);
      }
    }
    // The checks are remembered per process: a fresh one says whether it worked.
    const again = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!], { stdio: "inherit" });
    process.exit(again.status ?? 1);
  }
  if (plan.action === "ask") {
    say(`not installed automatically: ${plan.reason}. Run:`);
    console.log(`\n  ${plan.command}\n`);
  }
} else if (!values["without-packages"]) {
  say(`install them with: sudo apt-get install -y ${packages.join(" ")}`);
}

if (values["without-packages"]) {
  say("going on without them (--without-packages); the app says what is missing until it is installed.");
  process.exit(0);
}
if (values.install) say("then run `npm run demo` again, or go on without them: npm run demo -- --without-packages");
process.exit(1);
