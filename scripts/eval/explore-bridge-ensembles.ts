/**
 * `npx tsx --conditions=react-server scripts/eval/explore-bridge-ensembles.ts [<tatoeba-folder>]`:
 * what-if figures for the translation bridge on Tatoeba es–en, beyond what the product does. Not
 * the product's behaviour: each variant mixes (adds, then normalises) the vectors of several
 * texts, which the index and embedQuery do not do today.
 *
 *   product            prepareForEmbedding, as indexing and embedQuery do it
 *   pivot              Spanish also through spa→cat→eng (needs apertium-spa-cat), mixed at 0.5
 *   round trip         English queries also through eng→spa→eng and eng→cat→eng, mixed at w
 *
 * recall@1 is given for all lines and for the queries of the even and odd lines (candidates: all
 * lines); tune on the even lines, read the odd ones.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { prepareForEmbedding } from "../../lib/rag/embed/bridge-text";
import { createEmbedder, embedderConfigFromEnv } from "../../lib/rag/embed/create-embedder";

function readFolder() {
  const usage = "usage: npx tsx --conditions=react-server scripts/eval/explore-bridge-ensembles.ts [<tatoeba-folder>]";
  try {
    const { positionals } = parseArgs({ options: {}, allowPositionals: true, strict: true });
    if (positionals.length <= 1) return positionals[0];
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  console.error(usage);
  process.exit(2);
}
const folder = readFolder() ?? join(process.cwd(), "..", "shared", "data", "eval", "tatoeba");
const side = (extension: string) => {
  const name = readdirSync(folder).find((file) => file.endsWith(`.${extension}`));
  if (!name) throw new Error(`no *.${extension} in ${folder}`);
  const lines = readFileSync(join(folder, name), "utf8").replace(/\r\n?/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
};
const english = side("eng");
const spanish = side("spa");

const modes = spawnSync("apertium", ["-l"], { encoding: "utf8" }).stdout.split(/\s+/);
const work = mkdtempSync(join(tmpdir(), "mnemo-ensembles-"));
/** One line in, one line out (Tatoeba lines hold no line breaks). */
function apertium(mode: string, lines: string[]): string[] {
  const input = join(work, "in.txt");
  const output = join(work, "out.txt");
  writeFileSync(input, lines.map((line) => line.replace(/\n/g, " ")).join("\n") + "\n");
  const run = spawnSync("apertium", ["-u", mode, input, output], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`apertium ${mode} failed: ${run.stderr}`);
  const out = readFileSync(output, "utf8").split("\n");
  if (out.at(-1) === "") out.pop();
  if (out.length !== lines.length) throw new Error(`apertium ${mode}: ${out.length} lines for ${lines.length}`);
  return out;
}

const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const embed = (texts: string[]) =>
  embedder.embed(
    texts.map((text) => (text.trim() ? text : ".")),
    "passage",
  );
function mix(parts: [Float32Array[], number][]): Float32Array[] {
  const [first] = parts;
  if (!first) return [];
  return first[0].map((vector, row) => {
    const sum = new Float32Array(vector.length);
    for (const [vectors, weight] of parts) vectors[row]?.forEach((value, i) => (sum[i] = (sum[i] ?? 0) + weight * value));
    const norm = Math.hypot(...sum) || 1;
    return sum.map((value) => value / norm);
  });
}
function recall(queries: Float32Array[], passages: Float32Array[], rows: number[]): number {
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
  let hits = 0;
  for (const row of rows) {
    const query = queries[row];
    const aligned = passages[row];
    if (!query || !aligned) continue;
    const score = dot(query, aligned);
    if (passages.every((passage, column) => column === row || dot(query, passage) <= score)) hits++;
  }
  return hits / rows.length;
}
const all = english.map((_, row) => row);
const halves = { all, even: all.filter((row) => row % 2 === 0), odd: all.filter((row) => row % 2 === 1) };
const f3 = (value: number) => value.toFixed(3);
function report(name: string, englishQueries: Float32Array[], spanishSide: Float32Array[], englishPassages: Float32Array[]) {
  const cells = (queries: Float32Array[], passages: Float32Array[]) =>
    `${f3(recall(queries, passages, halves.all))} (even ${f3(recall(queries, passages, halves.even))}, odd ${f3(recall(queries, passages, halves.odd))})`;
  console.log(`${name.padEnd(52)} en→es ${cells(englishQueries, spanishSide)}   es→en ${cells(spanishSide, englishPassages)}`);
}

try {
  const preparedEnglish = await prepareForEmbedding(
    english.map((text) => ({ text })),
    embedder,
  );
  const preparedSpanish = await prepareForEmbedding(
    spanish.map((text) => ({ text })),
    embedder,
  );
  const englishVectors = await embed(preparedEnglish.map((item) => item.embeddedText));
  const spanishVectors = await embed(preparedSpanish.map((item) => item.embeddedText));
  report("product", englishVectors, spanishVectors, englishVectors);

  let pivoted: Float32Array[] | null = null;
  if (modes.includes("spa-cat") && modes.includes("cat-eng")) {
    pivoted = mix([
      [spanishVectors, 1],
      [await embed(apertium("cat-eng", apertium("spa-cat", spanish))), 0.5],
    ]);
    report("pivot: Spanish + spa→cat→eng at 0.5", englishVectors, pivoted, englishVectors);
  } else {
    console.log("pivot: skipped (the spa-cat mode is not installed: apt-get install apertium-spa-cat)");
  }

  const roundTrips = [await embed(apertium("spa-eng", apertium("eng-spa", english))), await embed(apertium("cat-eng", apertium("eng-cat", english)))];
  for (const weight of [0.3, 0.5, 1]) {
    const queries = mix([[englishVectors, 1], ...roundTrips.map((vectors): [Float32Array[], number] => [vectors, weight])]);
    report(`round trip: English queries + eng→spa→eng, eng→cat→eng at ${weight}`, queries, spanishVectors, englishVectors);
    if (pivoted) report(`  and pivot`, queries, pivoted, englishVectors);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
