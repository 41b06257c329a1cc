import { describe, expect, it } from "vitest";
import { detectLanguage } from "./detect-language";

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
});
