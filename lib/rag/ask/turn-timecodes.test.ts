import { describe, expect, it } from "vitest";
import { whyNotSaid } from "./answer-preface";
import { quotesByCitation, turnForQuote } from "./turn-timecodes";

const turns = [
  { speaker: "Javier Ortega Molina", start: 30.2, end: 37.75, text: "¿Y usted encontró algo entre las ruinas?" },
  { speaker: "Andrés Bielsa Lacasa", start: 37.75, end: 49.1, text: "Una moneda, en el barro, junto a la pared de la herrería. Era un duro de plata de 1870." },
  { speaker: "Andrés Bielsa Lacasa", start: 120, end: 130, text: "Una moneda, en el barro, otra vez." },
];

describe("turn timecodes", () => {
  it("collects each citation's quotations from an answer", () => {
    const extractive = quotesByCitation("Andrés Bielsa Lacasa: Una moneda, en el barro. [2] Era un duro de plata de 1870. [2, 3]", { segmentsAreQuotes: true });
    expect(extractive.get(2)).toEqual(["Andrés Bielsa Lacasa: Una moneda, en el barro.", "Era un duro de plata de 1870."]);
    expect(extractive.get(3)).toEqual(["Era un duro de plata de 1870."]);
    // The answerer's preface before its first quotation is not part of it.
    expect(quotesByCitation(`${whyNotSaid.es} Era un duro de plata de 1870. [2]`, { segmentsAreQuotes: true }).get(2)).toEqual([
      "Era un duro de plata de 1870.",
    ]);
    const generated = quotesByCitation('He found "un duro de plata de 1870" by the forge [1].', { segmentsAreQuotes: false });
    expect(generated.get(1)).toEqual(["un duro de plata de 1870"]);
  });

  it("finds the turn that says the quotation, with or without its speaker, inside the passage's span", () => {
    expect(turnForQuote("Andrés Bielsa Lacasa: Una moneda, en el barro, junto a la pared de la herrería.", turns, 30, 60)?.start).toBe(37.75);
    expect(turnForQuote("era un duro de PLATA de 1870", turns, 30, 60)?.start).toBe(37.75);
    // The same words later in the recording belong to another passage.
    expect(turnForQuote("Una moneda, en el barro, otra vez.", turns, 30, 60)).toBeUndefined();
    expect(turnForQuote("a sentence nobody said", turns, 0, 200)).toBeUndefined();
  });
});
