import { describe, expect, it } from "vitest";
import { splitSentences } from "./split-sentences";

function sentencesOf(text: string): string[] {
  return splitSentences(text).map((range) => text.slice(range.start, range.end));
}

describe("splitSentences", () => {
  it.each([
    ["titles before names (en)", "Dr. Smith met Mr. Jones at St. Paul's. They spoke for an hour.", ["Dr. Smith met Mr. Jones at St. Paul's.", "They spoke for an hour."]],
    ["titles before names (es)", "El Sr. García y la Sra. López llegaron. La Srta. Ruiz no.", ["El Sr. García y la Sra. López llegaron.", "La Srta. Ruiz no."]],
    ["titles before names (ca)", "El Dr. Puig i Mn. Vidal eren amics. Ho recorda la Sra. Roca.", ["El Dr. Puig i Mn. Vidal eren amics.", "Ho recorda la Sra. Roca."]],
    ["decimals with a unit", "The coin weighs 4.41 g and measures 19.5 mm. It is silver.", ["The coin weighs 4.41 g and measures 19.5 mm.", "It is silver."]],
    ["a unit ending a sentence", "La moneda pesa 4.41 g. És de plata.", ["La moneda pesa 4.41 g.", "És de plata."]],
    ["etc. inside and at the end", "Hi havia olles, gerres, etc. que es feien servir. També hi havia eines, etc. El taller tancà.", ["Hi havia olles, gerres, etc. que es feien servir.", "També hi havia eines, etc.", "El taller tancà."]],
    ["e.g. and i.e.", "Some sherds, e.g. Terra Sigillata, were dated. Others, i.e. the rest, were not.", ["Some sherds, e.g. Terra Sigillata, were dated.", "Others, i.e. the rest, were not."]],
    ["numbered references", "Vegeu el núm. 5 i la p. 45. A la fig. 3 es veu el mur. No. 7 is missing.", ["Vegeu el núm. 5 i la p. 45.", "A la fig. 3 es veu el mur.", "No. 7 is missing."]],
    ["no. as a word", "—¿Hi vas tornar? —No. Mai més.", ["—¿Hi vas tornar?", "—No.", "Mai més."]],
    ["initials", "J. R. R. Tolkien wrote it. Josep M. Espinàs read it.", ["J. R. R. Tolkien wrote it.", "Josep M. Espinàs read it."]],
    ["«quotes» closing a sentence", "Va dir: «No hi tornaré mai.» I se'n va anar.", ["Va dir: «No hi tornaré mai.»", "I se'n va anar."]],
    ["«quotes» inside a sentence", "«No hi tornaré mai!», va dir. Després callà.", ["«No hi tornaré mai!», va dir.", "Després callà."]],
    ["English quotes", 'He said "Go home." Then he left.', ['He said "Go home."', "Then he left."]],
    ["¿…? and ¡…!", "¿Dónde estabas? ¡No lo sé! Quizás en casa.", ["¿Dónde estabas?", "¡No lo sé!", "Quizás en casa."]],
    ["dialogue dash continuing the sentence", "¿Y tú qué sabes? —preguntó ella. Nadie contestó.", ["¿Y tú qué sabes? —preguntó ella.", "Nadie contestó."]],
    ["ellipsis before lower case", "Doncs... no ho sé. Potser sí…", ["Doncs... no ho sé.", "Potser sí…"]],
    ["ellipsis before upper case", "Esperàvem… Després va venir. I ja està...", ["Esperàvem…", "Després va venir.", "I ja està..."]],
    ["?! together", "Really?! Yes. Sí!! Molt bé.", ["Really?!", "Yes.", "Sí!!", "Molt bé."]],
    ["Catalan middle dot and apostrophes", "La col·lecció de l'Ajuntament creix. L'any 1962 s'obrí.", ["La col·lecció de l'Ajuntament creix.", "L'any 1962 s'obrí."]],
    ["a list number opening a line", "1. Introducció del tema. Segona frase.", ["1. Introducció del tema.", "Segona frase."]],
    ["a year ending a sentence", "Va néixer el 1939. Morí el 2001.", ["Va néixer el 1939.", "Morí el 2001."]],
    ["dates BC with dotted abbreviations", "Datat al segle II a.C. Fou reutilitzat.", ["Datat al segle II a.C. Fou reutilitzat."]],
    ["no final punctuation", "Títol sense punt final", ["Títol sense punt final"]],
    ["wrapped lines stay one sentence", "Una frase partida\nen dues línies. Fi.", ["Una frase partida\nen dues línies.", "Fi."]],
    ["a blank line always ends one", "Títol\n\nParàgraf següent. Fi", ["Títol", "Paràgraf següent.", "Fi"]],
    ["parenthesised sentence", "El mur era antic. (Ho diu l'informe.) Es va enderrocar.", ["El mur era antic.", "(Ho diu l'informe.)", "Es va enderrocar."]],
    ["URLs and dotted numbers", "See www.example.org/a.b for 1.000.000 items. Done.", ["See www.example.org/a.b for 1.000.000 items.", "Done."]],
  ])("%s", (_name, text, expected) => {
    expect(sentencesOf(text)).toEqual(expected);
  });

  it("returns trimmed ranges and nothing for blank text", () => {
    expect(splitSentences("  \n\t ")).toEqual([]);
    expect(splitSentences("  Hola.  Adéu.  ")).toEqual([
      { start: 2, end: 7 },
      { start: 9, end: 14 },
    ]);
  });
});
