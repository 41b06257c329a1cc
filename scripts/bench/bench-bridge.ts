/**
 * `npm run bench:bridge`: what the language bridge adds to a search in Spanish or Catalan that
 * the process has not seen before (the query's translation is remembered per process after it).
 * Queries are six-word runs of the demo interviews' own Spanish and Catalan sentences, each prepared once as the search path prepares a query (language detection, names
 * kept, marked translation): through the long-lived null-flush pipelines (lib/rag/embed/translate.ts),
 * and through one apertium run per query as before them. Figures only, no assertions.
 * BENCH_BRIDGE_QUERIES sets how many queries per language (default 40).
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { translateForReading } from "../../lib/rag/embed/bridge-text";
import { createTranslationBridge } from "../../lib/rag/embed/translate";
import { createRng } from "../../prisma/seed/prng";
import { sentencesOf } from "./scale-archive";

const perLanguage = Math.max(5, Number(process.env.BENCH_BRIDGE_QUERIES ?? 40));
const interviews = JSON.parse(readFileSync(join("prisma", "seed", "data", "oral-histories", "interviews.json"), "utf8")) as {
  language: string;
  turns: { text: string }[];
}[];
const sentences = (language: string) =>
  interviews.filter((interview) => interview.language === language).flatMap((interview) => interview.turns.flatMap((turn) => sentencesOf(turn.text)));
const corpus = { sentences: { es: sentences("es"), ca: sentences("ca") } };
const rng = createRng("bench-bridge");
const queries = (["es", "ca"] as const).flatMap((language) =>
  Array.from({ length: perLanguage }, () => {
    const words = rng.pick(corpus.sentences[language]).split(/\s+/);
    const start = rng.int(0, Math.max(0, words.length - 6));
    return { language, text: words.slice(start, start + 6).join(" ") };
  }),
);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? Number.NaN;

console.log(
  `bench:bridge — ${queries.length} new queries (${perLanguage} Spanish, ${perLanguage} Catalan), each prepared once; ${cpus().length} × ${cpus()[0]?.model ?? "unknown"}, Node ${process.version}`,
);
console.log("| how | first query ms | p50 ms | p95 ms | max ms | same English as one run per query |");
console.log("|---|---|---|---|---|---|");
const results = new Map<string, string[]>();
for (const [label, pipelines] of [
  ["one apertium run per query", false],
  ["long-lived pipelines", true],
] as const) {
  const bridge = createTranslationBridge({ pipelines });
  const times: number[] = [];
  const english: string[] = [];
  for (const query of queries) {
    const started = performance.now();
    const [prepared] = await translateForReading([{ text: query.text }], { bridge });
    times.push(performance.now() - started);
    english.push(prepared?.translatedText ?? query.text);
  }
  results.set(label, english);
  const baseline = results.get("one apertium run per query")!;
  const same = english.filter((text, index) => text === baseline[index]).length;
  const rest = times.slice(1);
  console.log(
    `| ${label} | ${times[0]!.toFixed(0)} | ${percentile(rest, 50).toFixed(0)} | ${percentile(rest, 95).toFixed(0)} | ${Math.max(...rest).toFixed(0)} | ${same}/${english.length} |`,
  );
}
process.exit(0);
