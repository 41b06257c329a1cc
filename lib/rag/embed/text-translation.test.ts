import { describe, expect, it } from "vitest";
import { createTextTranslator } from "./text-translation";
import type { BridgeLanguage, TranslationBridge } from "./translate";

/** Apertium stood in for: counts its runs and tags each text with its pair. */
function fakeBridge(options: { external?: boolean; pairs?: Record<BridgeLanguage, boolean>; fail?: boolean } = {}) {
  const runs: { texts: string[]; from: BridgeLanguage }[] = [];
  let failing = options.fail ?? false;
  const bridge: TranslationBridge & { external?: boolean } = {
    external: options.external,
    status: async () => ({ available: true, pairs: options.pairs ?? { es: true, ca: true }, detail: "fake" }),
    translateToEnglish: async (texts, from) => {
      runs.push({ texts, from });
      if (failing) throw new Error("apertium died");
      return texts.map((text) => `[${from}→en] ${text}`);
    },
  };
  return { bridge, runs, recover: () => (failing = false) };
}

/** Detection stood in for: a paragraph's language is its first word ("ca:", "es:", "en:"), else undetermined. */
const detect = async (text: string) => ({ language: /^(ca|es|en):/.exec(text)?.[1] ?? "und", confidence: 1 });
const detectContext = async () => ({ shares: {} });

const text = ["# Títol", "ca: La mina va tancar.", "[[page:2]]", "en: The archivist's note.", "", "es: El agua llegó.", "", "1952"].join("\n");
const input = (overrides: Partial<{ text: string; contentHash: string; egressPolicy: string }> = {}) => ({
  text,
  contentHash: "hash-a",
  egressPolicy: "local_only",
  ...overrides,
});

describe("createTextTranslator", () => {
  it("translates the Spanish and Catalan paragraphs, one entry per paragraph, and leaves English and undetermined ones alone", async () => {
    const { bridge, runs } = fakeBridge();
    const translator = createTextTranslator({ bridge, detect, detectContext });
    const english = await translator.englishParagraphs(input());
    expect(english).toEqual({
      paragraphs: [
        { language: "ca", english: "[ca→en] ca: La mina va tancar." },
        { language: "en", english: null },
        { language: "es", english: "[es→en] es: El agua llegó." },
        { language: "und", english: null },
      ],
      total: 4,
      from: ["ca", "es"],
    });
    expect(runs.flatMap((run) => run.texts).join("\n")).not.toContain("archivist");
  });

  it("runs the bridge once per content hash, again for a changed text, and again after a failure", async () => {
    const { bridge, runs, recover } = fakeBridge({ fail: true });
    const translator = createTextTranslator({ bridge, detect, detectContext });
    await expect(translator.englishParagraphs(input())).rejects.toThrow("apertium died");
    recover();
    const first = await translator.englishParagraphs(input());
    const count = runs.length;
    expect(await translator.englishParagraphs(input())).toBe(first);
    expect(runs).toHaveLength(count);
    await translator.englishParagraphs(input({ contentHash: "hash-b", text: `${text}\n\nca: Gràcies.` }));
    expect(runs.length).toBeGreaterThan(count);
  });

  it("offers and makes nothing for an English text, nor through an external bridge for a local_only section", async () => {
    const { bridge, runs } = fakeBridge({ external: true });
    const translator = createTextTranslator({ bridge, detect, detectContext });
    expect(await translator.offersEnglish(input())).toBe(false);
    expect(await translator.englishParagraphs(input())).toBeNull();
    expect(runs).toHaveLength(0);
    expect(await translator.offersEnglish(input({ egressPolicy: "allow_external" }))).toBe(true);
    const english = createTextTranslator({ bridge: fakeBridge().bridge, detect, detectContext });
    expect(await english.offersEnglish(input({ text: "en: Only English.", contentHash: "hash-en" }))).toBe(false);
    expect(await english.englishParagraphs(input({ text: "en: Only English.", contentHash: "hash-en" }))).toBeNull();
  });

  it("offers nothing when the bridge lacks the text's pair", async () => {
    const { bridge } = fakeBridge({ pairs: { es: false, ca: false } });
    expect(await createTextTranslator({ bridge, detect, detectContext }).offersEnglish(input())).toBe(false);
  });

  it("translates whole paragraphs up to the size cap and says how many the text has", async () => {
    const { bridge, runs } = fakeBridge();
    const long = ["ca: Primer paràgraf.", "ca: Segon paràgraf.", "ca: Tercer paràgraf."].join("\n\n");
    const translator = createTextTranslator({ bridge, detect, detectContext, maxCharacters: 45 });
    const english = await translator.englishParagraphs(input({ text: long, contentHash: "hash-long" }));
    expect(english?.total).toBe(3);
    expect(english?.paragraphs.map((paragraph) => paragraph.english)).toEqual(["[ca→en] ca: Primer paràgraf.", "[ca→en] ca: Segon paràgraf."]);
    expect(runs.flatMap((run) => run.texts).join("\n")).not.toContain("Tercer");
  });
});
