import { describe, expect, it } from "vitest";
import { type PlacedHit, contentSearchServices, searchList1, searchPage2, termList1, termPage2 } from "./content-search";
import { validateSearchList1, validateSearchPage2, validateTermList1, validateTermPage2 } from "./validate-content-search";
import { boxAround, regionFragment } from "./presentation";

const base = "https://archive.example/iiif/r1";
const recording = `${base}/canvas/recording`;
const page = `${base}/canvas/scan/p1`;
const canvases = new Map([
  [recording, { duration: 95.5 }],
  [page, { width: 600, height: 800 }],
]);
const hits: PlacedHit[] = [
  {
    key: "c1-1",
    target: `${recording}#t=4.45,19.7`,
    text: "Andrés: Entré de peón en 1963.",
    language: "es",
    quotes: [{ prefix: "Andrés: Entré de ", exact: "peón", suffix: " en 1963." }],
    wordLevel: false,
  },
  { key: "c2-p1-w1", target: `${page}#xywh=60,100,40,20`, text: "campanes", quotes: [{ prefix: "Les ", exact: "campanes", suffix: " sota" }], wordLevel: true },
  { key: "c3", target: recording, text: "Found by meaning", quotes: [], wordLevel: false },
];

describe("Content Search answers", () => {
  it("builds a 2.0 AnnotationPage: supplementing annotations and highlighting or contextualizing marks, valid against the spec's shapes", () => {
    const answer = searchPage2({ id: `${base}/search?q=pe%C3%B3n&user=x`, hitBase: `${base}/search-hits`, hits, ignored: ["user"] });
    expect(validateSearchPage2(answer, canvases)).toEqual([]);
    expect(answer.ignored).toEqual(["user"]);
    expect(answer.items.map((item) => item.motivation)).toEqual(["supplementing", "supplementing", "supplementing"]);
    const marks = answer.annotations![0]!.items;
    expect(marks.map((mark) => [mark.motivation, mark.target.source, mark.target.selector[0]!.exact])).toEqual([
      ["highlighting", `${base}/search-hits/c1-1`, "peón"],
      ["contextualizing", `${base}/search-hits/c2-p1-w1`, "campanes"],
    ]);
  });

  it("builds a 1.0 AnnotationList with search:Hits giving match, before and after, valid against the spec's shapes", () => {
    const answer = searchList1({ id: `${base}/search/v1?q=pe%C3%B3n`, hitBase: `${base}/search-hits`, hits, ignored: [] });
    expect(validateSearchList1(answer, canvases)).toEqual([]);
    expect(answer.hits[0]).toEqual({
      "@type": "search:Hit",
      annotations: [`${base}/search-hits/c1-1`],
      match: "peón",
      before: "Andrés: Entré de ",
      after: " en 1963.",
    });
    expect(answer.hits[2]).toEqual({ "@type": "search:Hit", annotations: [`${base}/search-hits/c3`] });
    expect(answer.within).toEqual({ "@type": "sc:Layer", total: 3 });
  });

  it("builds autocomplete TermPage (2.0) and TermList (1.0)", () => {
    const terms = [{ value: "huelga", total: 2 }];
    expect(validateTermPage2(termPage2({ id: `${base}/autocomplete?q=hu`, terms, ignored: [] }))).toEqual([]);
    const list = termList1({ id: `${base}/autocomplete/v1?q=hu`, searchUrl: `${base}/search/v1`, terms, ignored: ["date"] });
    expect(validateTermList1(list)).toEqual([]);
    expect(list.terms).toEqual([{ match: "huelga", url: `${base}/search/v1?q=huelga`, count: 2 }]);
  });

  it("declares 2.0 and 1.0 services as the specs give them", () => {
    expect(contentSearchServices(base)).toEqual([
      { id: `${base}/search`, type: "SearchService2", service: [{ id: `${base}/autocomplete`, type: "AutoCompleteService2" }] },
      {
        "@context": "http://iiif.io/api/search/1/context.json",
        "@id": `${base}/search/v1`,
        "@type": "SearchService1",
        profile: "http://iiif.io/api/search/1/search",
        service: [{ "@id": `${base}/autocomplete/v1`, "@type": "AutoCompleteService1", profile: "http://iiif.io/api/search/1/autocomplete" }],
      },
    ]);
  });
});

describe("the validators find what breaks the specs", () => {
  it("names a target outside the Manifest, a fragment outside its Canvas, a mark on no annotation and a wrong context", () => {
    const answer = searchPage2({
      id: `${base}/search?q=x`,
      hitBase: `${base}/search-hits`,
      hits: [
        { ...hits[0]!, target: `${recording}#t=90,120` },
        { ...hits[1]!, target: `${page}#xywh=590,100,40,20` },
        { ...hits[2]!, target: `${base}/canvas/other` },
      ],
      ignored: [],
    });
    const broken = {
      ...answer,
      "@context": "http://iiif.io/api/presentation/3/context.json",
      annotations: [
        {
          type: "AnnotationPage",
          items: [
            {
              ...answer.annotations![0]!.items[0]!,
              target: { type: "SpecificResource", source: `${base}/nowhere`, selector: [{ type: "TextQuoteSelector", exact: "" }] },
            },
          ],
        },
      ],
    };
    expect(validateSearchPage2(broken, canvases)).toEqual([
      "$.@context: must be (or include) http://iiif.io/api/search/2/context.json",
      "$.items[0].target: the time fragment must lie within 0–95.5 s, start before end",
      "$.items[1].target: the region must lie within the Canvas's 600×800",
      `$.items[2].target: must be a Canvas of the Manifest (got ${base}/canvas/other)`,
      "$.annotations[0].items[0].target.source: must be the id of an annotation in items",
      "$.annotations[0].items[0].target.selector[0].exact: must be a non-empty string",
    ]);
    const list = searchList1({ id: `${base}/search/v1?q=x`, hitBase: `${base}/search-hits`, hits, ignored: [] });
    expect(
      validateSearchList1(
        { ...list, "@context": "http://iiif.io/api/search/1/context.json", hits: [{ "@type": "search:Hit", annotations: ["https://elsewhere.example/a"] }] },
        canvases,
      ),
    ).toEqual([
      "$.@context: must be [http://iiif.io/api/presentation/2/context.json, http://iiif.io/api/search/1/context.json] (with hits, both, in that order)",
      "$.hits[0].annotations: must name resources of the list",
    ]);
    expect(
      validateTermPage2({
        "@context": "http://iiif.io/api/search/2/context.json",
        id: `${base}/autocomplete?q=a`,
        type: "TermList",
        items: [{ value: "", total: 0 }],
      }),
    ).toEqual(['$.type: must be "TermPage"', "$.items[0].value: must be a non-empty string", "$.items[0].total: must be a positive whole number"]);
  });
});

describe("regions of a page", () => {
  it("writes #xywh= in whole pixels around fractional boxes, and the box around several", () => {
    expect(regionFragment(page, { x: 10.4, y: 20.6, w: 30.2, h: 10 })).toBe(`${page}#xywh=10,20,31,11`);
    expect(
      boxAround([
        { x: 60, y: 100, w: 40, h: 20 },
        { x: 110, y: 96, w: 40, h: 30 },
      ]),
    ).toEqual({ x: 60, y: 96, w: 90, h: 30 });
    expect(boxAround([])).toBeNull();
  });
});
