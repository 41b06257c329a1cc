/**
 * `npm run profile:summary -- <dir or .cpuprofile>…`: where a Node CPU profile's time went (e.g.
 * the web processes of `BENCH_LOAD_CPU_PROF=<dir> npm run bench:load`). For each profile: the
 * sampled time, the share spent idle, and self time by part of the stack (the embedded database,
 * the compiled app and framework, the model runtime, garbage collection, Node itself), then the
 * functions with the most self time. Shares are of the sampled time; one line per profile file.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the stack a function belongs to, by its script's URL. */
export function partOf(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName === "(idle)") return "idle";
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "native (V8, libuv, wasm compile)";
  if (url.startsWith("wasm://")) return "WebAssembly (PGlite's Postgres on a web thread, the encoder's kernels on a model thread)";
  if (url.includes("@electric-sql/pglite")) return "PGlite (embedded Postgres)";
  if (url.includes("@tensorflow") || url.includes("@energetic-ai")) return "sentence encoder (TF.js)";
  if (url.includes("@prisma") || url.includes("/prisma/")) return "Prisma";
  if (url.includes("next/dist/compiled/react") || url.includes("react-dom") || url.includes("react-server-dom")) return "React rendering";
  if (url.includes("next/dist")) return "Next.js";
  if (url.includes(".next/server")) return "app bundle (our code and bundled libraries)";
  if (url.includes("node_modules/zod")) return "zod";
  if (url.includes("node_modules/")) return `library: ${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? "other"}`;
  if (url.startsWith("node:") || url === "") return "Node internals (streams, timers, module loading, child processes)";
  return "our code (tsx)";
}

function summarise(path: string): string {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + delta);
  });
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, self] of selfByNode) {
    const frame = byId.get(id)!.callFrame;
    const part = partOf(frame);
    parts.set(part, (parts.get(part) ?? 0) + self);
    if (part === "idle") continue;
    const where = frame.url
      ? `${frame.url
          .replace(/^.*node_modules\//, "")
          .replace(/^.*\/\.next\//, ".next/")
          .replace(/^file:\/\/.*?\/(lib|app|scripts)\//, "$1/")}:${frame.lineNumber + 1}`
      : "";
    const key = `${frame.functionName || "(anonymous)"} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + self);
  }
  const share = (value: number) => `${((100 * value) / total).toFixed(1)}%`;
  const lines = [
    `${path.split("/").slice(-2).join("/")}: ${(total / 1e6).toFixed(1)} s sampled, ${share(parts.get("idle") ?? 0)} idle`,
    "| part | self time | share |",
    "|---|---|---|",
  ];
  for (const [part, self] of [...parts].sort((a, b) => b[1] - a[1])) lines.push(`| ${part} | ${(self / 1e6).toFixed(2)} s | ${share(self)} |`);
  lines.push("", "| function (most self time, idle left out) | share |", "|---|---|");
  for (const [name, self] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`| \`${name.replaceAll("|", "\\|")}\` | ${share(self)} |`);
  return lines.join("\n");
}

/** The .cpuprofile files under each path (directories searched to any depth). */
function profiles(paths: string[]): string[] {
  return paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: "utf8" })
          .filter((name) => name.endsWith(".cpuprofile"))
          .sort()
          .map((name) => join(path, name))
      : [path],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const usage = "usage: npm run profile:summary -- <directory of .cpuprofile files | file.cpuprofile>…";
  let paths: string[];
  try {
    paths = parseArgs({ options: {}, allowPositionals: true, strict: true }).positionals;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  const files = profiles(paths);
  if (files.length === 0) {
    console.error(usage);
    process.exit(2);
  }
  for (const file of files) console.log(`${summarise(file)}\n`);
}
