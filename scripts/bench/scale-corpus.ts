import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createTranslationBridge } from "../../lib/rag/embed/translate";
import { hashString } from "../../prisma/seed/prng";
import { type Corpus, type SourceUnit, assembleCorpus, sentencesOf, unitsOf } from "./scale-archive";

/**
 * The text bench:scale's synthetic archive is made of (see scale-archive.ts): the first
 * `abstracts` SciFact abstracts (../shared/data/eval/scifact), cut into units of four sentences,
 * each unit translated to Spanish and Catalan by Apertium and its English embedded by the real
 * model. Built once per machine and kept in `cacheDir` (keyed by the model and the abstracts);
 * the model's rate on the units is kept with it.
 */
export async function loadScaleCorpus(
  real: Embedder,
  options: { abstracts: number; cacheDir: string; log: (line: string) => void },
): Promise<{ corpus: Corpus; embedderPassagesPerSecond: number }> {
  const path = join(process.cwd(), "..", "shared", "data", "eval", "scifact", "corpus.jsonl");
  if (!existsSync(path)) throw new Error(`bench:scale makes its archive from SciFact, which is not at ${path}`);
  const abstracts = readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(0, options.abstracts)
    .map((line) => (JSON.parse(line) as { text: string }).text);
  const english = abstracts.flatMap((text) => unitsOf(sentencesOf(text)));
  const key = hashString(`${real.provider}/${real.model}/${real.dimension}\n${english.map((unit) => unit.join(" ")).join("\n")}`).toString(16);
  mkdirSync(options.cacheDir, { recursive: true });
  const file = join(options.cacheDir, `corpus-${key}.json`);
  type Cached = { rate: number; units: { en: string[]; es: string[]; ca: string[]; vector: number[] }[] };
  let cached: Cached;
  if (existsSync(file)) {
    cached = JSON.parse(readFileSync(file, "utf8")) as Cached;
  } else {
    const texts = english.map((unit) => unit.join(" "));
    const bridge = createTranslationBridge();
    const translated: Record<"es" | "ca", string[]> = { es: [], ca: [] };
    for (const language of ["es", "ca"] as const) {
      const started = performance.now();
      const result = await bridge.translate(texts, "en", language);
      if (!result)
        throw new Error(
          `bench:scale needs Apertium's eng-${language === "es" ? "spa" : "cat"} pair (Debian: apertium-eng-${language === "es" ? "spa" : "cat"})`,
        );
      translated[language] = result;
      options.log(`corpus: ${texts.length.toLocaleString("en")} units translated to ${language} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const started = performance.now();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += 64) {
      vectors.push(...(await real.embed(texts.slice(start, start + 64), "passage")));
      if (start % 1024 === 0) options.log(`corpus: ${vectors.length.toLocaleString("en")} of ${texts.length.toLocaleString("en")} units embedded`);
    }
    const rate = texts.length / ((performance.now() - started) / 1000);
    const split = (text: string) =>
      text
        .split(/(?<=[.!?])\s+/)
        .map((sentence) => sentence.trim())
        .filter(Boolean);
    cached = {
      rate,
      units: english.map((sentences, index) => ({
        en: sentences,
        es: split(translated.es[index] ?? ""),
        ca: split(translated.ca[index] ?? ""),
        vector: Array.from(vectors[index]!),
      })),
    };
    writeFileSync(file, JSON.stringify(cached));
  }
  const units: SourceUnit[] = cached.units
    .filter((unit) => unit.en.length > 0 && unit.es.length > 0 && unit.ca.length > 0)
    .map((unit) => ({ sentences: { en: unit.en, es: unit.es, ca: unit.ca }, vector: Float32Array.from(unit.vector) }));
  const started = performance.now();
  const corpus = assembleCorpus(units);
  options.log(
    `corpus: ${units.length.toLocaleString("en")} units from ${abstracts.length.toLocaleString("en")} abstracts, topic neighbourhoods in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { corpus, embedderPassagesPerSecond: cached.rate };
}
