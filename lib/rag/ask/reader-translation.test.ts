import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ArchiveLanguage, TranslationBridge } from "../embed/translate";
import { createTranslationBridge } from "../embed/translate";
import { translationNote, withoutTranslationNotes } from "../../llm/translation-note";
import { glossFromMarked, translateForReader } from "./reader-translation";

type Call = { texts: string[]; from: ArchiveLanguage; to: ArchiveLanguage; marked: boolean };

/** A bridge of our own interface that answers with fixed marked translations and records each call. */
function fakeBridge(answers: Record<string, string>, options: { pairs?: boolean } = {}): TranslationBridge & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "fake" }),
    translateToEnglish: async (texts) => texts,
    translate: async (texts, from, to, translateOptions) => {
      calls.push({ texts, from, to, marked: translateOptions?.marked === true });
      return options.pairs === false ? null : texts.map((text) => answers[text] ?? "");
    },
  };
}

const bells = { text: "La campana va despenjar-se el 1964 a Sant Romà.", language: "ca", english: "The bell despenjar- the 1964 at Sant Romà." };

describe("a quotation's translation for the reader", () => {
  it("translates the original sentence marked, once per source language, and says where from", async () => {
    const bridge = fakeBridge({
      [bells.text]: "The futile bell *despenjar- the 1964 at Sant *Romà.",
      "Una monja de Lleida funda una obra para chicas.": "A nun of *Lleida founds a work for girls.",
    });
    const chosen = [
      bells,
      { text: "The lamp burned whale oil.", language: "en", english: null },
      { text: "Una monja de Lleida funda una obra para chicas.", language: "es", english: null },
      { text: "Texte en français.", language: "fr", english: null },
    ];
    expect(await translateForReader(chosen, "en", bridge)).toEqual([
      { text: "The futile bell ⟨despenjar-se⟩ the 1964 at Sant Romà.", from: "ca" },
      null,
      { text: "A nun of Lleida founds a work for girls.", from: "es" },
      null,
    ]);
    // The aligned English, unmarked, is not what the reader gets when the bridge translates.
    expect(bridge.calls).toEqual([
      { texts: [bells.text], from: "ca", to: "en", marked: true },
      { texts: ["Una monja de Lleida funda una obra para chicas."], from: "es", to: "en", marked: true },
    ]);
    // A reader of the sentence's own language, or of a language the bridge has no pair for, gets none.
    expect(await translateForReader([bells], "ca", bridge)).toEqual([null]);
    expect(await translateForReader([bells], "fr", bridge)).toEqual([null]);
    expect(bridge.calls).toHaveLength(2);
  });

  it("falls back to the passage's aligned English for an English reader when the bridge has no pair, and to nothing for others", async () => {
    const without = fakeBridge({}, { pairs: false });
    expect(await translateForReader([bells], "en", without)).toEqual([{ text: bells.english, from: "ca" }]);
    expect(await translateForReader([bells], "es", without)).toEqual([null]);
    const failing: TranslationBridge = { ...without, translate: async () => Promise.reject(new Error("apertium died")) };
    expect(await translateForReader([bells], "en", failing)).toEqual([{ text: bells.english, from: "ca" }]);
    const none: TranslationBridge = { status: without.status, translateToEnglish: without.translateToEnglish };
    expect(await translateForReader([{ ...bells, english: null }], "en", none)).toEqual([null]);
  });
  it("gives no gloss of a sentence whose words the translator mostly did not know: it is not in the language it was taken for", async () => {
    const line = "Authors: Lucía Ferrer; Subjects: fish auction, net menders";
    const bridge = fakeBridge({ [line]: "*Authors: Lucía Ferrer; Subjects: *fish *auction, *net *menders" });
    expect(await translateForReader([{ text: line, language: "es", english: null }], "en", bridge)).toEqual([null]);
  });
});

describe("a marked translation as a gloss", () => {
  it("marks words left untranslated, not names, and gives back a word cut before its clitic", () => {
    expect(glossFromMarked("The futile bell *despenjar- the 1964 at Sant *Romà.", bells.text)).toBe("The futile bell ⟨despenjar-se⟩ the 1964 at Sant Romà.");
    // Known but untranslatable (@) is left untranslated too; not inflected (#) is translated.
    expect(glossFromMarked("The fishermen @calafategen the boats #swim.", "Els pescadors calafategen les barques.")).toBe(
      "The fishermen ⟨calafategen⟩ the boats swim.",
    );
    // Through English a word carries both steps' marks; an English word the second pair lacks is left as well.
    expect(glossFromMarked("Un *nun de Lleida. El **calafat **Romà.", "Una monja de Lleida. El calafat Romà.")).toBe("Un ⟨nun⟩ de Lleida. El ⟨calafat⟩ Romà.");
    // A capitalised word opening the original may be an ordinary word; followed by another capitalised word it is a name.
    expect(glossFromMarked("*Despenjaren the bell the 1964.", "Despenjaren la campana el 1964.")).toBe("⟨Despenjaren⟩ the bell the 1964.");
    expect(glossFromMarked("*Sant *Romà lowered the bell.", "«Sant Romà va baixar la campana.")).toBe("Sant Romà lowered the bell.");
    // The marks' own brackets in a source cannot pass for marks.
    expect(glossFromMarked("The sign ⟨x⟩ *despenjar.", "El signe ⟨x⟩ despenjar.")).toBe("The sign x ⟨despenjar⟩.");
  });
});

// Needs the Debian packages apertium and apertium-eng-cat (apertium-eng-spa for Spanish).
const apertium = existsSync("/usr/share/apertium/modes/cat-eng.mode") && existsSync("/usr/share/apertium/modes/eng-spa.mode");

describe.skipIf(!apertium)("a gloss through Apertium", { timeout: 60_000 }, () => {
  it("marks the Catalan word the translator does not know, and not the place's name", async () => {
    const bridge = createTranslationBridge();
    const [english, spanish] = [await translateForReader([bells], "en", bridge), await translateForReader([bells], "es", bridge)];
    expect(english[0]?.from).toBe("ca");
    expect(english[0]?.text).toContain("⟨despenjar-se⟩");
    expect(english[0]?.text).toContain("Sant Romà");
    expect(english[0]?.text).not.toMatch(/⟨(Sant|Romà)⟩|[*@#]/);
    expect(spanish[0]?.text).toContain("⟨despenjar-se⟩");
    expect(spanish[0]?.text).not.toMatch(/⟨(Sant|Romà)⟩|[*@#]/);
    const note = translationNote(english[0]!, "en");
    expect(note).toMatch(/^\(machine translation from Catalan: .*⟨despenjar-se⟩.*Sant Romà.*\)$/);
    expect(withoutTranslationNotes(`${bells.text} [1] ${note}`)).toBe(`${bells.text} [1] `);
  });
});
