import { describe, expect, it } from "vitest";
import { type RecordLayout, completeTerms, consecutiveRuns, placePassage } from "./place-iiif-hits";
import { queryTerms } from "./highlight";

const recording = "https://archive.example/iiif/r1/canvas/recording";
const page = "https://archive.example/iiif/r1/canvas/scan/p1";
const object = "https://archive.example/iiif/r1/canvas/obverse";
const word = (t: string, x: number) => ({ t, x, y: 100, w: 40, h: 20, c: 95 });

const layout: RecordLayout = {
  timed: new Map([
    [
      "transcript",
      {
        canvasId: recording,
        items: [
          { start: 0, end: 4.45, text: "Entrevistador: ¿Cuándo entró en la mina?" },
          { start: 4.45, end: 19.7, text: "Andrés: Entré de peón en 1963, en el lavadero." },
          { start: 19.7, end: 30, text: "Andrés: Después vino la huelga." },
        ],
      },
    ],
  ]),
  scans: new Map([
    [
      "scan",
      new Map([
        [
          1,
          { canvasId: page, words: [word("Les", 10), word("campanes", 60), word("sota", 110), word("l'aigua", 160), word("del", 210), word("Segrell", 260)] },
        ],
      ]),
    ],
  ]),
  firstCanvasId: object,
};
const passage = { chunkId: "c1", language: "es", page: null, pageEnd: null, timeStart: null, timeEnd: null };

describe("placing a search hit on the record's Canvases", () => {
  it("puts a transcript hit on the turn that holds the matched word, as #t=start,end, and quotes the word", () => {
    const hits = placePassage(
      { ...passage, text: "Entrevistador: ¿Cuándo entró en la mina? Andrés: Entré de peón en 1963…", fieldKeys: ["transcript"], timeStart: 0, timeEnd: 19.7 },
      layout,
      queryTerms("peón"),
    );
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      target: `${recording}#t=4.45,19.7`,
      text: "Andrés: Entré de peón en 1963, en el lavadero.",
      wordLevel: false,
      language: "es",
    });
    expect(hits[0]!.quotes).toEqual([{ prefix: "Andrés: Entré de ", exact: "peón", suffix: " en 1963, en el lavadero." }]);
  });

  it("gives a passage found by meaning alone its whole span, with nothing marked", () => {
    const hits = placePassage(
      { ...passage, text: "Andrés: Después vino la huelga.", fieldKeys: ["transcript"], timeStart: 19.7, timeEnd: 30 },
      layout,
      queryTerms("strike"),
    );
    expect(hits).toEqual([
      { key: "c1", target: `${recording}#t=19.7,30`, text: "Andrés: Después vino la huelga.", quotes: [], wordLevel: false, language: "es" },
    ]);
  });

  it("marks only the matched OCR words, as #xywh= of their boxes, with the words around them as context", () => {
    const hits = placePassage(
      { ...passage, text: "Les campanes sota l'aigua del Segrell", fieldKeys: ["scan"], page: 1, pageEnd: 1 },
      layout,
      queryTerms("campanes aigua"),
    );
    expect(hits.map((hit) => [hit.target, hit.text, hit.wordLevel])).toEqual([
      [`${page}#xywh=60,100,40,20`, "campanes", true],
      [`${page}#xywh=160,100,40,20`, "l'aigua", true],
    ]);
    expect(hits[0]!.quotes).toEqual([{ prefix: "Les ", exact: "campanes", suffix: " sota l'aigua del Segrell" }]);
  });

  it("joins neighbouring matched words into one box", () => {
    const hits = placePassage(
      { ...passage, text: "Les campanes sota l'aigua del Segrell", fieldKeys: ["scan"], page: 1, pageEnd: 1 },
      layout,
      queryTerms("campanes sota"),
    );
    expect(hits.map((hit) => [hit.target, hit.text])).toEqual([[`${page}#xywh=60,100,90,20`, "campanes sota"]]);
  });

  it("puts an object's text on its first Canvas with the matched words quoted", () => {
    const hits = placePassage(
      { ...passage, language: "en", text: "A silver denarius struck at Rome.", fieldKeys: ["description"] },
      layout,
      queryTerms("denarius"),
    );
    expect(hits).toEqual([
      {
        key: "c1",
        target: object,
        text: "A silver denarius struck at Rome.",
        quotes: [{ prefix: "A silver ", exact: "denarius", suffix: " struck at Rome." }],
        wordLevel: false,
        language: "en",
      },
    ]);
  });

  it("groups indexes into runs of neighbours", () => {
    expect(consecutiveRuns([9, 3, 4])).toEqual([[3, 4], [9]]);
  });
});

describe("autocomplete from the record's own words", () => {
  it("completes a prefix without case or accents, most frequent first, as written most often", () => {
    const texts = ["La huelga de 1992. Huelga general.", "El hueco de la mina; la huerta.", "Hüerta"];
    expect(completeTerms(texts, "HUE")).toEqual([
      { value: "huelga", total: 2 },
      { value: "huerta", total: 2 },
      { value: "hueco", total: 1 },
    ]);
    expect(completeTerms(texts, "hue", { min: 2 }).map((term) => term.value)).toEqual(["huelga", "huerta"]);
    expect(completeTerms(texts, "huelga ge")).toEqual([{ value: "huelga general", total: 1 }]);
  });
});
