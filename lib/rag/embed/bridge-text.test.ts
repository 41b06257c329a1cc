import { describe, expect, it } from "vitest";
import { prepareForEmbedding } from "./bridge-text";
import { createHashEmbedder } from "./hash-embedder";
import { createTranslationBridge } from "./translate";

const items = [
  { text: "The harbour workers went on strike in 1951." },
  { text: "Los estibadores del puerto fueron a la huelga en 1951." },
  { text: "Els estibadors del port van fer vaga el 1951." },
  { text: "Adéu.", language: "ca" },
];

describe("prepareForEmbedding", { timeout: 60_000 }, () => {
  it("translates Spanish and Catalan for an English-only model and keeps English as it is", async () => {
    const prepared = await prepareForEmbedding(items, createHashEmbedder({ language: "en" }));
    expect(prepared.map((item) => item.language)).toEqual(["en", "es", "ca", "ca"]);
    expect(prepared[0]).toEqual({ language: "en", embeddedText: items[0]?.text, translatedText: null });
    for (const index of [1, 2]) {
      expect(prepared[index]?.translatedText).toMatch(/\bport\b.*\b1951\b/);
      expect(prepared[index]?.embeddedText).toBe(prepared[index]?.translatedText);
    }
    // A declared language is trusted: "Adéu." is too short to detect but is still translated.
    expect(prepared[3]?.translatedText).toBe("Goodbye.");
  });

  it("keeps the English lines of a Catalan or Spanish record as written and translates the rest", async () => {
    const english = createHashEmbedder({ language: "en" });
    const catalan = "Title: Les campanes de Sant Romà\nKeywords: church bells, bell tower, last mass, village festival\nNarrator: Roser Cases i Mitjans";
    const spanish =
      "Title: La lonja y el salazón\nKeywords: fish auction, salt fish, anchovies, women's work\nLos estibadores del puerto fueron a la huelga en 1951.";
    const [ca, es, allEnglish] = await prepareForEmbedding(
      [
        { text: catalan, language: "ca" },
        { text: spanish, language: "es" },
        { text: "Keywords: net mending, women's work, sardine fishing", language: "es" },
      ],
      english,
    );
    const caLines = (ca?.embeddedText ?? "").split("\n");
    expect(caLines).toHaveLength(3);
    expect(caLines[0]).toMatch(/^Title: The bells of Sant Romà$/);
    // Read as Catalan, "bells" is "beautiful": the English line is not translated.
    expect(caLines[1]).toBe("Keywords: church bells, bell tower, last mass, village festival");
    expect(caLines[2]).toContain("Roser Cases");
    expect(ca?.translatedText).toBe(ca?.embeddedText);
    expect(ca?.language).toBe("ca");
    const esLines = (es?.embeddedText ?? "").split("\n");
    expect(esLines[1]).toBe("Keywords: fish auction, salt fish, anchovies, women's work");
    expect(esLines[2]).toMatch(/\bport\b.*\b1951\b/);
    expect(allEnglish).toEqual({ language: "en", embeddedText: "Keywords: net mending, women's work, sardine fishing", translatedText: null });
  });

  it("embeds the original text for a multilingual model", async () => {
    const prepared = await prepareForEmbedding(items, createHashEmbedder({ language: "multilingual" }));
    expect(prepared.map((item) => item.embeddedText)).toEqual(items.map((item) => item.text));
    expect(prepared.every((item) => item.translatedText === null)).toBe(true);
    expect(prepared[2]?.language).toBe("ca");
  });

  it("embeds the original text when Apertium is missing", async () => {
    const bridge = createTranslationBridge({ apertiumPath: "/nonexistent/apertium", warn: () => undefined });
    const prepared = await prepareForEmbedding(items, createHashEmbedder({ language: "en" }), { bridge });
    expect(prepared.map((item) => item.embeddedText)).toEqual(items.map((item) => item.text));
    expect(prepared.every((item) => item.translatedText === null)).toBe(true);
  });
});

describe("names through the bridge", { timeout: 60_000 }, () => {
  const english = createHashEmbedder({ language: "en" });
  const prepare = async (text: string, context?: string) => (await prepareForEmbedding([{ text, language: "ca", context }], english))[0]?.translatedText ?? "";

  it.each([
    ["La Roser i jo anàvem juntes a collir bolets.", "Roser", /rosebush/i],
    ["Els veïns de Sant Romà de Vall van protestar.", "Sant Romà de Vall", /\bvale\b|valley/i],
    ["Montserrat Farré era la llevadora del poble.", "Montserrat Farré", /farré\b.*\bwas\b.*\bmidwife/i],
    ["Al Port de la Calma hi havia tres tavernes.", "Port de la Calma", /\bcalm\b/i],
  ])("keeps the name in %j as written", async (text, name, notThis) => {
    const translated = await prepare(text);
    expect(translated).toContain(name);
    // The rest is still translated.
    expect(translated).toMatch(/\b(and|the|was|there|protested|taverns)\b/);
    if (name !== "Montserrat Farré") expect(translated).not.toMatch(notThis);
  });

  it("keeps a name that opens a sentence when the record uses it as a name", async () => {
    expect(await prepare("Roser va néixer al poble.")).toMatch(/^Rosebush\b/);
    expect(await prepare("Roser va néixer al poble.", "## Narrator\n\nRoser Vidal\n\n## Transcript\n\nRoser va néixer al poble.")).toMatch(/^Roser was born/);
  });

  it("still translates ordinary capitalised words and the place names Apertium knows", async () => {
    expect(await prepare("Plovia molt aquell hivern.")).toMatch(/^It rained/);
    expect(await prepare("El meu oncle va emigrar a França.")).toMatch(/\bFrance\b/);
  });

  it("embeds a lone name or number as written, without calling the bridge", async () => {
    const bridge = {
      status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "fake" }),
      translateToEnglish: async () => {
        throw new Error("the bridge was called");
      },
    };
    const texts = ["Roser", "Marcus Aurelius", "Sant Romà de Vall", "Port de la Calma", "1936", "ANS 1944.100.123"];
    const prepared = await prepareForEmbedding(
      texts.map((text) => ({ text })),
      english,
      { bridge },
    );
    expect(prepared).toEqual(texts.map((text) => ({ language: "und", embeddedText: text, translatedText: null })));
  });
});

describe("unsure between Spanish and Catalan", { timeout: 60_000 }, () => {
  const english = createHashEmbedder({ language: "en" });
  const unsure = async () => ({ language: "es", confidence: 0.5, unsure: ["es", "ca"] });
  /** Knows the words of one pair only: the other marks every word unknown. */
  const fakeBridge = (knows: "es" | "ca" | null, calls: string[]) => ({
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "fake" }),
    translateToEnglish: async () => {
      throw new Error("the marked mode should be used");
    },
    translateMarked: async (texts: string[], from: "es" | "ca") => {
      calls.push(from);
      return texts.map((text) => (from === knows ? `${from.toUpperCase()}: ${text}` : text.replace(/(\p{L}+)/gu, "*$1")));
    },
  });

  it("translates with both pairs and keeps the one that knew the words", async () => {
    for (const knows of ["es", "ca"] as const) {
      const calls: string[] = [];
      const [prepared] = await prepareForEmbedding([{ text: "El temporal va destrossar el moll." }], english, {
        detect: unsure,
        bridge: fakeBridge(knows, calls),
      });
      expect(calls.sort()).toEqual(["ca", "es"]);
      expect(prepared).toEqual({
        language: knows,
        embeddedText: `${knows.toUpperCase()}: El temporal va destrossar el moll.`,
        translatedText: `${knows.toUpperCase()}: El temporal va destrossar el moll.`,
      });
    }
  });

  it("embeds the text as written when neither pair knew most of its words", async () => {
    const [prepared] = await prepareForEmbedding([{ text: "Zorblat quixen frumple." }], english, { detect: unsure, bridge: fakeBridge(null, []) });
    expect(prepared).toEqual({ language: "es", embeddedText: "Zorblat quixen frumple.", translatedText: null });
  });

  it("uses one pair when the detector is sure, and the declared language over any detection", async () => {
    const calls: string[] = [];
    await prepareForEmbedding([{ text: "El temporal va destrossar el moll." }], english, {
      detect: async () => ({ language: "ca", confidence: 0.9 }),
      bridge: fakeBridge("ca", calls),
    });
    await prepareForEmbedding([{ text: "El temporal va destrossar el moll.", language: "es" }], english, { detect: unsure, bridge: fakeBridge("ca", calls) });
    expect(calls).toEqual(["ca", "es"]);
  });

  it("resolves a real short Catalan sentence fastText takes for Spanish", async () => {
    // fastText alone: Spanish; detection is unsure; Apertium's Catalan pair knows every word.
    const [prepared] = await prepareForEmbedding([{ text: "El temporal va destrossar el moll." }], english);
    expect(prepared?.language).toBe("ca");
    expect(prepared?.translatedText).toMatch(/storm/i);
  });

  it("leaves an English word alone that fastText could not place", async () => {
    const [prepared] = await prepareForEmbedding([{ text: "harbour" }], english);
    expect(prepared).toMatchObject({ embeddedText: "harbour", translatedText: null });
    const [mina] = await prepareForEmbedding([{ text: "mina" }], english);
    expect(mina?.translatedText).toMatch(/\bmine\b/i);
  });
});
