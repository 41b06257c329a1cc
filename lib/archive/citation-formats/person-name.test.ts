import { describe, expect, it } from "vitest";
import { isHispanicLanguage, personNameFields, splitPersonName } from "./person-name";

describe("splitPersonName", () => {
  it.each([
    ["Carmen Roldán Ortiz", "es", { family: "Roldán Ortiz", given: "Carmen" }],
    ["María del Carmen Roldán Ortiz", "es", { family: "Roldán Ortiz", given: "María del Carmen" }],
    ["Miguel de Cervantes Saavedra", "es", { family: "de Cervantes Saavedra", given: "Miguel" }],
    ["Juan de la Cierva", "es", { family: "de la Cierva", given: "Juan" }],
    ["Carmen de Roldán", "es", { family: "de Roldán", given: "Carmen" }],
    ["Francisco de Goya y Lucientes", "es", { family: "de Goya y Lucientes", given: "Francisco" }],
    ["Pedro Sánchez", "es", { family: "Sánchez", given: "Pedro" }],
    ["Josep Maria Puig i Cadafalch", "ca", { family: "Puig i Cadafalch", given: "Josep Maria" }],
    ["Andrés Puig i Soler", undefined, { family: "Puig i Soler", given: "Andrés" }],
    ["Marta Ferrer Vidal", "ca", { family: "Ferrer Vidal", given: "Marta" }],
    ["Montserrat dels Sants Puig", "ca", { family: "dels Sants Puig", given: "Montserrat" }],
    ["Eugeni d'Ors Rovira", "ca", { family: "d'Ors Rovira", given: "Eugeni" }],
    ["Mary Ann Evans", "en", { family: "Evans", given: "Mary Ann" }],
    ["Carmen Roldán Ortiz", "en", { family: "Ortiz", given: "Carmen Roldán" }],
    ["Carmen Roldán Ortiz", undefined, { family: "Ortiz", given: "Carmen Roldán" }],
    ["Ludwig van Beethoven", "en", { family: "van Beethoven", given: "Ludwig" }],
    ["J. R. R. Tolkien", "en", { family: "Tolkien", given: "J. R. R." }],
    ["Ortiz, Carmen", "es", { family: "Ortiz", given: "Carmen" }],
    ["Roldán Ortiz, Carmen", undefined, { family: "Roldán Ortiz", given: "Carmen" }],
  ])("splits %s (%s)", (name, language, expected) => {
    expect(splitPersonName(name, { language })).toEqual(expected);
  });

  it.each([
    ["Plato", "es"],
    ["Ajuntament de Barcelona", "ca"],
    ["Universidad de Salamanca", "es"],
    ["Smith & Sons Ltd", "en"],
    ["Martin Luther King Jr.", "en"],
    ["Puig i Cadafalch", "ca"],
    ["the narrator", "en"],
    ["Room 101", "en"],
  ])("keeps %s as written", (name, language) => {
    expect(splitPersonName(name, { language })).toEqual({ literal: name });
  });

  it("folds whitespace before splitting", () => {
    expect(splitPersonName("  Carmen\n Roldán   Ortiz ", { language: "es" })).toEqual({ family: "Roldán Ortiz", given: "Carmen" });
  });
});

describe("isHispanicLanguage", () => {
  it("knows codes and names of Spanish and Catalan, and nothing else", () => {
    expect(["es", "ca", "es-ES", "Català", "Spanish"].map(isHispanicLanguage)).toEqual([true, true, true, true, true]);
    expect(["en", "fr", "", undefined].map(isHispanicLanguage)).toEqual([false, false, false, false]);
  });
});

describe("personNameFields", () => {
  it("takes a person record's own family and given fields", () => {
    expect(personNameFields({ name: "Carmen Roldán Ortiz", familyName: "Roldán  Ortiz", givenName: "Carmen" })).toEqual({
      family: "Roldán Ortiz",
      given: "Carmen",
    });
    expect(personNameFields({ surname: "Puig" })).toEqual({ family: "Puig" });
    expect(personNameFields({ name: "Carmen", givenName: "Carmen" })).toBeUndefined();
  });
});
