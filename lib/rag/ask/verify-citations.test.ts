import { describe, expect, it } from "vitest";
import { quotationsIn, verifyCitations } from "./verify-citations";

const sources = [
  { number: 1, text: "The bells were lowered on 8 September 1965, the day of the festival." },
  { number: 2, text: "Les van pujar a un camió de l'empresa, lligades amb palla." },
];

describe("citation verification", () => {
  it("keeps citations of given sources and removes those of sources never given", () => {
    const result = verifyCitations("The bells came down in 1965 [1]. They left by truck [2][7].", sources);
    expect(result.cited).toEqual([1, 2]);
    expect(result.dropped).toEqual([{ number: 7, reason: "unknown_source" }]);
    expect(result.text).toBe("The bells came down in 1965 [1]. They left by truck [2].");
  });

  it("drops a citation whose quotation is not in the cited source, accents and case aside", () => {
    const good = verifyCitations('She said they were "lligades amb PALLA" [2].', sources);
    expect(good.dropped).toEqual([]);
    const fabricated = verifyCitations('The keeper wrote "the bells were sold to Boston" [1]. Fine [1, 2].', sources);
    expect(fabricated.dropped).toEqual([{ number: 1, reason: "quote_not_found", quote: "the bells were sold to Boston" }]);
    expect(fabricated.cited).toEqual([1, 2]);
    expect(fabricated.text).toBe('The keeper wrote "the bells were sold to Boston". Fine [1, 2].');
  });

  it("treats each segment as a quotation for the extractive answerer", () => {
    const ok = verifyCitations(
      "The bells were lowered on 8 September 1965, the day of the festival. [1] Les van pujar a un camió de l'empresa, lligades amb palla. [2]",
      sources,
      { segmentsAreQuotes: true },
    );
    expect(ok.dropped).toEqual([]);
    expect(ok.cited).toEqual([1, 2]);
    const invented = verifyCitations("The bells flew to Rome. [1]", sources, { segmentsAreQuotes: true });
    expect(invented.cited).toEqual([]);
    expect(invented.dropped[0]?.reason).toBe("quote_not_found");
  });

  it("reads a word hyphenated at a printed line's end as one word, and a kept hyphen as written", () => {
    const scan = [{ number: 1, text: "L'església parroquial, les campa-\nnes i els altars es van despenjar-\nse el 1964." }];
    expect(
      verifyCitations("L'església parroquial, les campanes i els altars es van despenjar-se el 1964. [1]", scan, { segmentsAreQuotes: true }).cited,
    ).toEqual([1]);
    expect(verifyCitations("Les campa nes i els altars. [1]", scan, { segmentsAreQuotes: true }).cited).toEqual([1]);
    expect(verifyCitations("Les campanes i els retaules. [1]", scan, { segmentsAreQuotes: true }).cited).toEqual([]);
  });

  it("finds quotations of three words or more only", () => {
    expect(quotationsIn('He said "yes" and then “we left the village” and «a la fira de Sort».')).toEqual(["we left the village", "a la fira de Sort"]);
  });
});

describe("citation verification beside machine translations", () => {
  it("checks the quotation and skips its translation note, which is no quotation", () => {
    const answer =
      "Les van pujar a un camió de l'empresa, lligades amb palla. [2] (machine translation: They raised them to a lorry of the company, tied with straw.) The bells were lowered on 8 September 1965, the day of the festival. [1]";
    const result = verifyCitations(answer, sources, { segmentsAreQuotes: true });
    expect(result).toMatchObject({ cited: [2, 1], dropped: [] });
    expect(result.text).toBe(answer);
    // A note does not make an invented sentence a quotation.
    const invented = verifyCitations("The bells flew to Rome. [1] (traducció automàtica: Les campanes van volar a Roma.)", sources, {
      segmentsAreQuotes: true,
    });
    expect(invented.cited).toEqual([]);
  });
});

describe("citation verification of a source's own bracketed numbers", () => {
  const footnoted = [
    { number: 1, text: "As shown in [3], the bells were lowered in 1965 [12]." },
    { number: 2, text: "The lorry left at dawn." },
    { number: 3, text: "An unrelated inventory of the sacristy." },
  ];

  it("takes a marker inside a quotation a source holds, number and all, for that source's text", () => {
    const result = verifyCitations('The dean wrote "As shown in [3], the bells were lowered" [1].', footnoted);
    expect(result).toEqual({ text: 'The dean wrote "As shown in ［3］, the bells were lowered" [1].', cited: [1], dropped: [] });
    // A planted number that names no source given is kept as the source's text, not dropped as a citation.
    const nowhere = verifyCitations('It says "lowered in 1965 [12]" [1].', footnoted);
    expect(nowhere).toEqual({ text: 'It says "lowered in 1965 ［12］" [1].', cited: [1], dropped: [] });
  });

  it("keeps a model's own marker placed inside a quotation no source holds with that number", () => {
    const result = verifyCitations('They said "The lorry left at dawn [2]".', footnoted);
    expect(result.cited).toEqual([2]);
    expect(result.text).toBe('They said "The lorry left at dawn [2]".');
  });

  it("lets a literal number vouch for nothing, and checks the quotation around it", () => {
    const literal = verifyCitations("As shown in ［3］, the bells were lowered in 1965 ［12］. [1]", footnoted, { segmentsAreQuotes: true });
    expect(literal).toEqual({ text: "As shown in ［3］, the bells were lowered in 1965 ［12］. [1]", cited: [1], dropped: [] });
  });
});
