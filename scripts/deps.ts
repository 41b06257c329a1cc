/**
 * `npm run deps`: the folder-level import graph of lib/, checked against the layers of
 * scripts/import-zones.mjs (the same ones `npm run lint` enforces file by file). Prints each
 * module with the modules it imports, top layer first, and exits 1 when a module imports one in a
 * layer above it, when lib imports app/ or components/, when a file of lib belongs to no layer, or
 * when modules import each other in a loop (which the lint rule cannot see: modules of one layer
 * may import each other). Reads every import, export-from, dynamic import and require of the
 * .ts/.tsx files under lib/ (tests included, lib/db/generated excluded) with TypeScript's own
 * pre-processor, resolving "@/…" and relative paths; packages are not part of the graph.
 * `--files` also lists the file-level imports behind every edge.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import ts from "typescript";
import { type LibLayer, libLayers, outerZones } from "./import-zones.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/** One import of one file, both paths relative to the repository root. */
export interface FileImport {
  from: string;
  to: string;
}

export interface LayerReport {
  /** Module → the modules it imports, and the file imports behind each edge. */
  edges: Map<string, Map<string, FileImport[]>>;
  upward: { from: string; to: string; imports: FileImport[] }[];
  outward: FileImport[];
  unplaced: string[];
  loops: string[][];
}

/** The layer member holding a lib file ("lib/rag/ask", "lib/errors.ts" for it and its test), or null. */
export function moduleOf(file: string, layers: readonly LibLayer[] = libLayers): string | null {
  let best: string | null = null;
  for (const member of layers.flatMap((layer) => layer.members)) {
    const holds = member.endsWith(".ts") ? file === member || file === member.replace(/\.ts$/, ".test.ts") : file.startsWith(`${member}/`);
    if (holds && (best === null || member.length > best.length)) best = member;
  }
  return best;
}

/** Strongly connected components of more than one module (Tarjan), each sorted. */
function loopsOf(edges: Map<string, Map<string, FileImport[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return loops;
}

/** Checks file imports (from lib files) against the layers. Pure. */
export function checkLayers(imports: readonly FileImport[], layers: readonly LibLayer[] = libLayers): LayerReport {
  const rank = new Map(layers.flatMap((layer, position) => layer.members.map((member) => [member, position] as const)));
  const forbidden = outerZones.find((zone) => zone.target === "lib")?.from ?? [];
  const edges = new Map<string, Map<string, FileImport[]>>();
  const unplaced = new Set<string>();
  const outward: FileImport[] = [];
  for (const fileImport of imports) {
    const source = moduleOf(fileImport.from, layers);
    if (source === null) {
      unplaced.add(fileImport.from);
      continue;
    }
    if (!edges.has(source)) edges.set(source, new Map());
    if (forbidden.some((folder) => fileImport.to.startsWith(`${folder}/`))) outward.push(fileImport);
    if (!fileImport.to.startsWith("lib/")) continue;
    const target = moduleOf(fileImport.to, layers);
    if (target === null) {
      unplaced.add(fileImport.to);
      continue;
    }
    if (target === source) continue;
    const targets = edges.get(source)!;
    targets.set(target, [...(targets.get(target) ?? []), fileImport]);
  }
  const upward: LayerReport["upward"] = [];
  for (const [source, targets] of edges) {
    for (const [target, behind] of targets) if (rank.get(target)! > rank.get(source)!) upward.push({ from: source, to: target, imports: behind });
  }
  return { edges, upward, outward, unplaced: [...unplaced].sort(), loops: loopsOf(edges) };
}

function sourceFiles(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(join(root, folder)).sort()) {
    const path = `${folder}/${entry}`;
    if (path === "lib/db/generated") continue;
    if (statSync(join(root, path)).isDirectory()) sourceFiles(path, found);
    else if (/\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

function resolveImport(file: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = normalize(join(dirname(file), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const path = join(root, candidate);
    if (existsSync(path) && statSync(path).isFile()) return relative(root, path);
  }
  return base;
}

/** Every import of every file under lib/, resolved. */
export function readLibImports(): FileImport[] {
  const imports: FileImport[] = [];
  for (const file of sourceFiles("lib")) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    for (const imported of importedFiles) {
      const to = resolveImport(file, imported.fileName);
      if (to !== null) imports.push({ from: file, to });
    }
  }
  return imports;
}

function main() {
  let showFiles: boolean;
  try {
    showFiles = parseArgs({ options: { files: { type: "boolean", default: false } }, strict: true }).values.files;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\nusage: npm run deps [-- --files]`);
    process.exit(2);
  }
  const report = checkLayers(readLibImports());
  console.log("lib/ module graph, top layer first (a module imports its own layer and the layers below):");
  for (const layer of [...libLayers].reverse()) {
    console.log(`\n${layer.name}`);
    for (const member of layer.members) {
      const targets = [...(report.edges.get(member)?.entries() ?? [])].sort(([a], [b]) => a.localeCompare(b));
      console.log(`  ${member}${targets.length ? ` → ${targets.map(([target]) => target).join(", ")}` : ""}`);
      if (showFiles) for (const [, behind] of targets) for (const item of behind) console.log(`      ${item.from} → ${item.to}`);
    }
  }
  const edgeCount = [...report.edges.values()].reduce((sum, targets) => sum + targets.size, 0);
  console.log(
    `\n${libLayers.flatMap((layer) => layer.members).length} modules, ${edgeCount} edges: ${report.upward.length} upward, ${report.loops.length} loops, ${report.outward.length} into app/ or components/, ${report.unplaced.length} files in no layer.`,
  );
  for (const edge of report.upward) {
    console.error(`upward: ${edge.from} → ${edge.to}`);
    for (const item of edge.imports) console.error(`  ${item.from} → ${item.to}`);
  }
  for (const loop of report.loops) console.error(`loop: ${loop.join(" ⇄ ")}`);
  for (const item of report.outward) console.error(`lib imports outside: ${item.from} → ${item.to}`);
  for (const file of report.unplaced) console.error(`in no layer (add it to scripts/import-zones.mjs): ${file}`);
  const failed = report.upward.length + report.loops.length + report.outward.length + report.unplaced.length > 0;
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
