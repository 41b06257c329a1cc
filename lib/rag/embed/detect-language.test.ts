import { describe, expect, it } from "vitest";
import { catalanSpanishMarkers, detectContext, detectLanguage, looksLikeNameOrCode } from "./detect-language";

describe("detectLanguage", () => {
  it.each([
    ["en", "The municipal archive keeps the minutes of the town council."],
    ["en", "She remembered the day the factory closed."],
    ["es", "El archivo municipal conserva las actas del pleno del ayuntamiento."],
    ["es", "Mi abuela trabajaba en la fábrica de tejidos del pueblo."],
    ["ca", "L'arxiu municipal conserva les actes del ple de l'ajuntament."],
    ["ca", "La meva àvia treballava a la fàbrica tèxtil del poble."],
    ["ca", "Cada diumenge anàvem a ballar sardanes a la plaça."],
  ])("recognises %s: %s", async (language, text) => {
    const detected = await detectLanguage(text);
    expect(detected.language).toBe(language);
    expect(detected.confidence).toBeGreaterThan(0.3);
    expect(detected.confidence).toBeLessThanOrEqual(1);
  });

  it("flattens line breaks instead of reading only the first line", async () => {
    expect((await detectLanguage("1936\nLa guerra civil va començar aquell estiu i el meu pare va marxar al front.")).language).toBe("ca");
  });

  it.each(["", "   ", "OK", "1936-1939", "¡Sí!"])("answers und for too little text: %j", async (text) => {
    expect(await detectLanguage(text)).toEqual({ language: "und", confidence: 0 });
  });

  it("prefers the archive's languages over a close foreign runner-up", async () => {
    // fastText alone ranks Italian first for this short Spanish sentence.
    expect((await detectLanguage("Casi perdimos la esperanza.")).language).toBe("es");
    expect((await detectLanguage("Casi perdimos la esperanza.", { preferredLanguages: [] })).language).toBe("it");
  });

  // Short sentences fastText alone places elsewhere (its own answer in the comment).
  it.each([
    ["ca", "Mai no vaig aprendre a nedar.", "de"],
    ["ca", "Els miners van fer vaga durant tres setmanes.", null],
    ["ca", "Vam haver de vendre les vaques.", "fr"],
    ["es", "Queremos justicia.", "pt"],
    ["es", "Perdimos.", "pt"],
  ])("places short %s text: %s", async (language, text, fastTextAlone) => {
    const detected = await detectLanguage(text);
    expect(detected.language).toBe(language);
    if (fastTextAlone) expect((await detectLanguage(text, { preferredLanguages: [] })).language).toBe(fastTextAlone);
  });

  it("says when it cannot tell Spanish from Catalan, instead of guessing silently", async () => {
    // fastText alone calls this Catalan sentence Spanish; the markers bring the two close.
    const detected = await detectLanguage("El temporal va destrossar el moll.");
    expect(detected.unsure).toEqual([detected.language, detected.language === "es" ? "ca" : "es"]);
    // A clear sentence is not unsure.
    expect((await detectLanguage("Els miners van fer vaga durant tres setmanes.")).unsure).toBeUndefined();
    expect((await detectLanguage("Mi abuela trabajaba en la fábrica de tejidos del pueblo.")).unsure).toBeUndefined();
  });

  it("offers both archive pairs for a word or two fastText cannot place", async () => {
    // fastText: English, 0.22. The bridge then keeps the pair that knows the word, if any.
    expect((await detectLanguage("mina")).unsure?.sort()).toEqual(["ca", "es"]);
    expect((await detectLanguage("drowned village")).unsure).toBeUndefined();
  });

  it("leans on the record's language for a short passage", async () => {
    const context = await detectContext(
      "## Transcript\n\n[[turn:0-3]] Roser: Vaig néixer a Sant Romà de Vall l'any 1931. El meu pare treballava a la mina i la meva mare cosia xarxes al moll.",
    );
    expect(context.shares.ca).toBeGreaterThan(0.9);
    // fastText: Italian; the record is Catalan.
    expect((await detectLanguage("La porta era sempre oberta.")).language).toBe("it");
    expect((await detectLanguage("La porta era sempre oberta.", { context })).language).toBe("ca");
    // Strong evidence of its own still wins over the context.
    expect((await detectLanguage("The harbour workers went on strike in 1951.", { context })).language).toBe("en");
  });

  it("reads a sentence's language without its names", async () => {
    expect((await detectLanguage("The residents of Sant Romà de Vall protested.")).language).toBe("en");
  });

  it.each(["Marcus Aurelius", "Sant Romà de Vall", "Port de la Calma", "Montserrat Farré", "Roser", "ANS 1944.100.123", "PAS-NMS-1234", "1936 – 1939"])(
    "gives names, numbers and identifiers no language: %j",
    async (text) => {
      expect(looksLikeNameOrCode(text)).toBe(true);
      expect(await detectLanguage(text)).toEqual({ language: "und", confidence: 0 });
    },
  );

  it("does not take a short sentence for a name", async () => {
    expect(looksLikeNameOrCode("Soy Yatarou.")).toBe(false);
    expect(looksLikeNameOrCode("la mina de carbó")).toBe(false);
    expect((await detectLanguage("Soy Yatarou.")).language).toBe("es");
  });

  it("counts Catalan and Spanish spelling markers", () => {
    expect(catalanSpanishMarkers("L'aigua ho va cobrir tot, però encara hi som.")).toBeGreaterThanOrEqual(5);
    expect(catalanSpanishMarkers("¿Dónde está el niño? Muy lejos, con los abuelos.")).toBeLessThanOrEqual(-5);
    expect(catalanSpanishMarkers("The harbour workers went on strike.")).toBe(0);
  });
});
