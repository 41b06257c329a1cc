import { describe, expect, it } from "vitest";
import type { TranscriptTurn } from "../../archive/field-definitions";
import { createCaptionTranslator } from "./caption-translation";
import type { BridgeLanguage, TranslationBridge } from "./translate";

/** Apertium stood in for: counts its runs and tags each text with its pair. */
function fakeBridge(options: { external?: boolean; pairs?: Record<BridgeLanguage, boolean> } = {}) {
  const runs: { texts: string[]; from: BridgeLanguage }[] = [];
  const bridge: TranslationBridge & { external?: boolean } = {
    external: options.external,
    status: async () => ({ available: true, pairs: options.pairs ?? { es: true, ca: true }, detail: "fake" }),
    translateToEnglish: async (texts, from) => {
      runs.push({ texts, from });
      return texts.map((text) => `[${from}→en] ${text}`);
    },
  };
  return { bridge, runs };
}

const turns: TranscriptTurn[] = [
  { speaker: "Roser Vidal", start: 0, end: 4, text: "Vaig néixer a Sant Romà." },
  { speaker: "Entrevistadora", start: 4.5, end: 6, text: "I després?" },
];
const input = (overrides: Partial<{ turns: TranscriptTurn[]; contentHash: string; declaredLanguage: string | null; egressPolicy: string }> = {}) => ({
  turns,
  contentHash: "hash-a",
  declaredLanguage: "ca",
  egressPolicy: "local_only",
  ...overrides,
});

describe("createCaptionTranslator", () => {
  it("translates each turn once per transcript hash, keeping speakers, times and names", async () => {
    const { bridge, runs } = fakeBridge();
    const translator = createCaptionTranslator({ bridge });
    const english = await translator.englishTurns(input());
    expect(english?.map((turn) => [turn.speaker, turn.start, turn.end])).toEqual([
      ["Roser Vidal", 0, 4],
      ["Entrevistadora", 4.5, 6],
    ]);
    expect(english?.[0]?.text).toMatch(/^\[ca→en\] .*Sant Romà/);
    expect(await translator.englishTurns(input())).toEqual(english);
    expect(runs).toHaveLength(1);
    await translator.englishTurns(input({ contentHash: "hash-b" }));
    expect(runs).toHaveLength(2);
  });

  it("forgets the least recently used transcript beyond its cache size", async () => {
    const { bridge, runs } = fakeBridge();
    const translator = createCaptionTranslator({ bridge, cacheSize: 1 });
    await translator.englishTurns(input({ contentHash: "one" }));
    await translator.englishTurns(input({ contentHash: "two" }));
    await translator.englishTurns(input({ contentHash: "two" }));
    expect(runs).toHaveLength(2);
    await translator.englishTurns(input({ contentHash: "one" }));
    expect(runs).toHaveLength(3);
  });

  it("detects the language when none is declared, once per transcript", async () => {
    const { bridge } = fakeBridge();
    let detections = 0;
    const translator = createCaptionTranslator({
      bridge,
      detect: async () => {
        detections++;
        return { language: "es", confidence: 0.9 };
      },
    });
    expect(await translator.languageOf(input({ declaredLanguage: null }))).toBe("es");
    expect(await translator.offersEnglish(input({ declaredLanguage: null }))).toBe(true);
    expect(detections).toBe(1);
    expect(await translator.languageOf(input())).toBe("ca");
    expect(detections).toBe(1);
  });

  it("offers no English for English or undetermined text, a missing pair, or local_only text to an external bridge", async () => {
    const local = fakeBridge({ pairs: { es: true, ca: false } });
    const translator = createCaptionTranslator({ bridge: local.bridge });
    expect(await translator.englishTurns(input({ declaredLanguage: "en" }))).toBeNull();
    expect(await translator.englishTurns(input({ declaredLanguage: "ca" }))).toBeNull();
    expect(await translator.offersEnglish(input({ declaredLanguage: "es" }))).toBe(true);
    const undetermined = createCaptionTranslator({ bridge: local.bridge, detect: async () => ({ language: "und", confidence: 0 }) });
    expect(await undetermined.offersEnglish(input({ declaredLanguage: null }))).toBe(false);
    expect(local.runs.filter((run) => run.from === "ca")).toHaveLength(0);

    const external = fakeBridge({ external: true });
    const outside = createCaptionTranslator({ bridge: external.bridge });
    expect(await outside.englishTurns(input({ egressPolicy: "local_only" }))).toBeNull();
    expect(external.runs).toHaveLength(0);
    expect(await outside.englishTurns(input({ egressPolicy: "allow_external" }))).not.toBeNull();
    expect(external.runs).toHaveLength(1);
  });

  it("caches no failure: the next request runs the bridge again", async () => {
    let calls = 0;
    const translator = createCaptionTranslator({
      bridge: {
        status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "" }),
        translateToEnglish: async (texts) => {
          calls++;
          if (calls === 1) throw new Error("apertium broke");
          return texts;
        },
      },
    });
    await expect(translator.englishTurns(input())).rejects.toThrow("apertium broke");
    expect(await translator.englishTurns(input())).not.toBeNull();
    expect(calls).toBe(2);
  });
});
