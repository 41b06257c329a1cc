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
