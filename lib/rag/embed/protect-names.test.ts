import { describe, expect, it } from "vitest";
import { capitaliseSentences, findNames, lowerSentenceStarters, namesInContext, protectNames, restoreNames } from "./protect-names";

const names = (text: string, known?: Set<string>) => findNames(text, known).map((found) => found.name);

describe("findNames", () => {
  it.each([
    ["La Roser i jo anàvem juntes a collir bolets.", ["Roser"]],
    ["Els veïns de Sant Romà de Vall van protestar.", ["Sant Romà de Vall"]],
    ["Montserrat Farré era la llevadora del poble.", ["Montserrat Farré"]],
    ["Al Port de la Calma hi havia tres tavernes.", ["Port de la Calma"]],
    // The article opening the sentence is not part of the name.
    ["El Port de la Calma és petit.", ["Port de la Calma"]],
    ["Va néixer a la Seu d'Urgell.", ["Seu d'Urgell"]],
    // Two names joined by "y" are two names, and "y" is translated.
    ["No quería ir a la boda de Tom y Mary.", ["Tom", "Mary"]],
    // A person's two surnames joined by "i" or "y" are one name; two people are two.
    ["Roser Cases i Mitjans: Tot el poble, i gent de les bordes de dalt.", ["Roser Cases i Mitjans"]],
    ["Ho va explicar la Marta Puig i Solé al museu.", ["Marta Puig i Solé"]],
    ["Leía a José Ortega y Gasset cada noche.", ["José Ortega y Gasset"]],
    ["Hi eren en Josep Farré i Maria Bosch.", ["Josep Farré", "Maria Bosch"]],
  ])("finds the names in %j", (text, expected) => {
    expect(names(text)).toEqual(expected);
  });

  it("leaves a capitalised ordinary word at the start of a sentence alone", () => {
    expect(names("Cada matí els pescadors sortien. Plovia molt.")).toEqual([]);
    expect(names("Roser va néixer al poble.")).toEqual([]);
  });

  it("takes a word the context knows as a name even at the start of a sentence, and a speaker label", () => {
    expect(names("Roser va néixer al poble.", new Set(["Roser"]))).toEqual(["Roser"]);
    expect(names("Roser: Vaig néixer al poble.")).toEqual(["Roser"]);
    expect(names("[[turn:0-4.2]] Roser: Vaig néixer al poble.")).toEqual(["Roser"]);
    expect([...namesInContext("## Narrator\n\nRoser Vidal\n\nLa Roser va néixer el 1931.")]).toEqual(["Roser", "Vidal"]);
  });

  it("lets institutions written with a capital through as ordinary words", () => {
    expect(names("La Policía detuvo a varios sospechosos.")).toEqual([]);
  });
});

describe("protectNames and restoreNames", () => {
  it("replaces names by placeholders and puts them back, marks and all", () => {
    const text = "Montserrat Farré va guardar les cartes al Port de la Calma, #arxiu.";
    const protectedText = protectNames(text);
    expect(protectedText.names).toEqual(["Montserrat Farré", "Port de la Calma", "#arxiu"]);
    expect(protectedText.text).not.toMatch(/Farré|Calma|#/);
    expect(protectedText.text).toMatch(/^MNEMONAME\w+Q va guardar les cartes al MNEMONAME\w+Q, MNEMONAME\w+Q\.$/);
    // As Apertium returns it: translated around the placeholders, an unknown-word mark on them.
    const translated = protectedText.text.replace("va guardar les cartes al", "kept the letters at the").replace(/MNEMONAME(\w+)Q/g, "*MNEMONAME$1Q");
    expect(restoreNames(translated, protectedText)).toBe("Montserrat Farré kept the letters at the Port de la Calma, #arxiu.");
  });

  it("never uses a placeholder the text already contains", () => {
    const protectedText = protectNames("El MNEMONAMEAQ és de la Roser.");
    expect(protectedText.placeholders.length).toBeGreaterThan(0);
    for (const placeholder of protectedText.placeholders) expect("EL MNEMONAMEAQ ÉS DE LA ROSER.").not.toContain(placeholder);
    expect(restoreNames(protectedText.text, protectedText)).toBe("El MNEMONAMEAQ és de la Roser.");
  });

  it("returns a text without names unchanged", () => {
    expect(protectNames("Cada matí els pescadors sortien abans de l'alba.")).toEqual({
      text: "Cada matí els pescadors sortien abans de l'alba.",
      names: [],
      placeholders: [],
    });
  });
});

describe("function words opening a sentence, through the bridge", () => {
  it("go to Apertium lower-cased, names and other words as written", () => {
    expect(lowerSentenceStarters("Quan la Grossa va tocar terra. Després vam marxar.")).toBe("quan la Grossa va tocar terra. després vam marxar.");
    expect(lowerSentenceStarters("MNEMONAMEAQ: Com les van portar al poble nou?")).toBe("MNEMONAMEAQ: com les van portar al poble nou?");
    // Not at a sentence's start, not a function word: as written.
    expect(lowerSentenceStarters("Diu que Quan. Roser va plorar.")).toBe("Diu que Quan. Roser va plorar.");
  });

  it("and each English sentence gets its capital back", () => {
    expect(capitaliseSentences("when the Grossa touched earth. next we left.\nMarta: how did they take them?")).toBe(
      "When the Grossa touched earth. Next we left.\nMarta: How did they take them?",
    );
    expect(capitaliseSentences("It weighs 4.41 grams, ca. 1928")).toBe("It weighs 4.41 grams, ca. 1928");
  });

  it("keeps the original's lower case where a printed line or a clause after a colon goes on", () => {
    const original =
      "El pagament es farà en dues parts: la meitat en signar\nl'acta d'ocupació i la resta quan la família deixi la\n\ncasa. Qui no estigui conforme";
    expect(
      capitaliseSentences(
        "the payment will make at two parts: the half at signing\nthe record of occupancy and the rest when the family let the\n\nhome. who was not conformal",
        original,
      ),
    ).toBe(
      "The payment will make at two parts: the half at signing\nthe record of occupancy and the rest when the family let the\n\nhome. Who was not conformal",
    );
    // A lowered function word that opened a sentence gets its capital back, after a label too.
    expect(
      capitaliseSentences("when the Grossa touched earth.\nMarta: how did they take them?", "Quan la Grossa va tocar terra.\nMarta: Com les van portar?"),
    ).toBe("When the Grossa touched earth.\nMarta: How did they take them?");
    // Starts that do not pair up (a stop the translation added): every start capitalised, as before.
    expect(capitaliseSentences("one. two\nthree", "u dos\ntres")).toBe("One. Two\nThree");
  });
});
