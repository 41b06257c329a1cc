import { describe, expect, it } from "vitest";
import { splitTranslationNotes, splitUntranslatedWords, translationNote, untranslatedWord, withoutTranslationNotes } from "./translation-note";

describe("translation notes", () => {
  it("say in the reader's language which language they translated from", () => {
    expect(translationNote({ text: "The bell was lowered in 1964.", from: "ca" }, "en")).toBe(
      "(machine translation from Catalan: The bell was lowered in 1964.)",
    );
    expect(translationNote({ text: "La fábrica cerró.", from: "en" }, "es")).toBe("(traducción automática del inglés: La fábrica cerró.)");
    expect(translationNote({ text: "La campana.", from: "ca" }, "es")).toBe("(traducción automática del catalán: La campana.)");
    expect(translationNote({ text: "La fàbrica va tancar.", from: "es" }, "ca")).toBe("(traducció automàtica del castellà: La fàbrica va tancar.)");
    expect(translationNote({ text: "La fàbrica.", from: "en" }, "ca")).toBe("(traducció automàtica de l'anglès: La fàbrica.)");
    // A reader language it has no labels for reads English; an unknown source language is not named.
    expect(translationNote({ text: "The bell.", from: "es" }, "fr")).toBe("(machine translation from Spanish: The bell.)");
    expect(translationNote({ text: "The bell.", from: "und" }, "en")).toBe("(machine translation: The bell.)");
  });

  it("keep a word the translator did not know as written, marked, and take out parentheses that would end the note", () => {
    const note = translationNote({ text: `The bell ${untranslatedWord("despenjar-se")} (so) the 1964 at Sant Romà.`, from: "ca" }, "en");
    expect(note).toBe("(machine translation from Catalan: The bell ⟨despenjar-se⟩ so the 1964 at Sant Romà.)");
    const runs = splitUntranslatedWords(note);
    expect(runs).toEqual([
      { text: "(machine translation from Catalan: The bell ", untranslated: false },
      { text: "⟨despenjar-se⟩", untranslated: true },
      { text: " so the 1964 at Sant Romà.)", untranslated: false },
    ]);
    expect(runs.map((run) => run.text).join("")).toBe(note);
  });

  it("are recognised with a direction and marks, and as stored before either", () => {
    const marked = "(traducció automàtica de l'anglès: El far ⟨burned⟩ oli.)";
    const old = "(machine translation: They raised them to a lorry.)";
    const answer = `El far cremava oli. [1] ${marked} Les van pujar a un camió. [2] ${old} Va tancar (el 1978). [3]`;
    expect(withoutTranslationNotes(answer)).toBe("El far cremava oli. [1]  Les van pujar a un camió. [2]  Va tancar (el 1978). [3]");
    expect(splitTranslationNotes(answer)).toEqual([
      { text: "El far cremava oli. [1] ", note: false },
      { text: marked, note: true },
      { text: " Les van pujar a un camió. [2] ", note: false },
      { text: old, note: true },
      { text: " Va tancar (el 1978). [3]", note: false },
    ]);
    for (const reader of ["en", "es", "ca"]) {
      for (const from of ["en", "es", "ca"]) {
        const note = translationNote({ text: `A ${untranslatedWord("word")} here.`, from }, reader);
        expect(withoutTranslationNotes(`Quoted. [1] ${note}`)).toBe("Quoted. [1] ");
      }
    }
    // A parenthesis that is no note stays.
    expect(withoutTranslationNotes("It closed (machine made: 1978). [1]")).toBe("It closed (machine made: 1978). [1]");
  });
});
