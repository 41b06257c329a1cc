/**
 * IIIF Content Search answers (https://iiif.io/api/search/2.0/ and /1.0/), built as plain JSON by
 * pure functions from hits already placed on Canvases (lib/rag/search/place-iiif-hits.ts):
 * - 2.0: an AnnotationPage whose `items` are `supplementing` annotations (the matched text on
 *   `<canvas>#t=`, `#xywh=` or the whole Canvas) and whose `annotations` page marks the matched
 *   words: `highlighting` (a TextQuoteSelector inside a longer text: a turn, a segment, a passage)
 *   or `contextualizing` (the annotation is the matched words themselves, with the text around them);
 * - 1.0 (Mirador 3, the Universal Viewer): an `sc:AnnotationList` of `oa:Annotation` resources
 *   `on` the same targets, with `search:Hit`s giving match, before and after;
 * - autocomplete: a 2.0 TermPage and a 1.0 `search:TermList`.
 * The Manifest declares both versions (contentSearchServices).
 */

import type { ServiceReference } from "./presentation";

export const searchContext2 = "http://iiif.io/api/search/2/context.json";
export const searchContext1 = "http://iiif.io/api/search/1/context.json";
export const presentation2Context = "http://iiif.io/api/presentation/2/context.json";
export const searchProfile1 = "http://iiif.io/api/search/1/search";
export const autocompleteProfile1 = "http://iiif.io/api/search/1/autocomplete";

/** The motivations a request may name (the specs' table, and 2.0's own); any other is refused. */
export const knownMotivations = [
  "painting",
  "non-painting",
  "supplementing",
  "commenting",
  "describing",
  "tagging",
  "linking",
  "highlighting",
  "contextualizing",
  "transcribing",
] as const;
/** The parameters the specs define. Mnemo's hits carry no dates or users, so `date` and `user` are ignored and named in `ignored`, as the specs ask. */
export const searchParameters = ["q", "motivation", "date", "user"] as const;
export const autocompleteParameters = [...searchParameters, "min"] as const;

/** Where a record's Content Search services live, from its manifest's base (`…/iiif/<id>`). */
export function contentSearchUrls(recordBase: string) {
  return {
    search: `${recordBase}/search`,
    search1: `${recordBase}/search/v1`,
    autocomplete: `${recordBase}/autocomplete`,
    autocomplete1: `${recordBase}/autocomplete/v1`,
  };
}

/**
 * The services a Manifest with text declares: Content Search 2.0 with its autocomplete (the
 * Presentation 3 form), and 1.0 with its autocomplete in the older `@id`/`@type`/`profile` form
 * that Mirador 3 and the Universal Viewer look for.
 */
export function contentSearchServices(recordBase: string): ServiceReference[] {
  const urls = contentSearchUrls(recordBase);
  return [
    { id: urls.search, type: "SearchService2", service: [{ id: urls.autocomplete, type: "AutoCompleteService2" }] },
    {
      "@context": searchContext1,
      "@id": urls.search1,
      "@type": "SearchService1",
      profile: searchProfile1,
      service: [{ "@id": urls.autocomplete1, "@type": "AutoCompleteService1", profile: autocompleteProfile1 }],
    },
  ];
}

/** A matched word (or words) inside a text, as a TextQuoteSelector gives it. */
export interface TextQuote {
  prefix: string;
  exact: string;
  suffix: string;
}

/**
 * A hit placed on a Canvas: the text it shows (a turn, a segment, OCR words, a passage), where
 * (`<canvas>#t=…`, `#xywh=…` or the Canvas), and the matched words. `wordLevel`: the text is the
 * matched words themselves (OCR words with their boxes), the quotes give the words around them.
 */
export interface PlacedHit {
  /** Unique within the answer: it becomes the annotation's id below the record's path. */
  key: string;
  target: string;
  text: string;
  language?: string;
  quotes: TextQuote[];
  wordLevel: boolean;
}

/** The quotes of `text` at the given character ranges: the matched words with up to `context` characters around. */
export function quotesAt(text: string, ranges: readonly { start: number; end: number }[], context = 40): TextQuote[] {
  return ranges.map((range) => ({
    prefix: text.slice(Math.max(0, range.start - context), range.start),
    exact: text.slice(range.start, range.end),
    suffix: text.slice(range.end, range.end + context),
  }));
}

function annotationId(hitBase: string, hit: PlacedHit): string {
  return `${hitBase}/${encodeURIComponent(hit.key)}`;
}

/** Content Search 2.0: the page of hits for the request URL `id`. */
export function searchPage2(input: { id: string; hitBase: string; hits: readonly PlacedHit[]; ignored: readonly string[] }) {
  const marks = input.hits.flatMap((hit) =>
    hit.quotes.map((quote, index) => ({
      id: `${annotationId(input.hitBase, hit)}/match-${index + 1}`,
      type: "Annotation",
      motivation: hit.wordLevel ? "contextualizing" : "highlighting",
      target: {
        type: "SpecificResource",
        source: annotationId(input.hitBase, hit),
        selector: [
          {
            type: "TextQuoteSelector",
            ...(quote.prefix ? { prefix: quote.prefix } : {}),
            exact: quote.exact,
            ...(quote.suffix ? { suffix: quote.suffix } : {}),
          },
        ],
      },
    })),
  );
  return {
    "@context": searchContext2,
    id: input.id,
    type: "AnnotationPage",
    ...(input.ignored.length ? { ignored: [...input.ignored] } : {}),
    items: input.hits.map((hit) => ({
      id: annotationId(input.hitBase, hit),
      type: "Annotation",
      motivation: "supplementing",
      body: { type: "TextualBody", value: hit.text, format: "text/plain", ...(hit.language ? { language: hit.language } : {}) },
      target: hit.target,
    })),
    ...(marks.length ? { annotations: [{ type: "AnnotationPage", items: marks }] } : {}),
  };
}

/**
 * Content Search 1.0: the annotation list for the request URL `id`. Transcriptions are `sc:painting`
 * in Presentation 2; each quote is a `search:Hit` (a hit without matched words, found by meaning
 * alone, names its annotation only).
 */
export function searchList1(input: { id: string; hitBase: string; hits: readonly PlacedHit[]; ignored: readonly string[] }) {
  return {
    "@context": [presentation2Context, searchContext1],
    "@id": input.id,
    "@type": "sc:AnnotationList",
    within: { "@type": "sc:Layer", total: input.hits.length, ...(input.ignored.length ? { ignored: [...input.ignored] } : {}) },
    resources: input.hits.map((hit) => ({
      "@id": annotationId(input.hitBase, hit),
      "@type": "oa:Annotation",
      motivation: "sc:painting",
      resource: { "@type": "cnt:ContentAsText", chars: hit.text },
      on: hit.target,
    })),
    hits: input.hits.flatMap((hit) => {
      const annotations = [annotationId(input.hitBase, hit)];
      if (hit.quotes.length === 0) return [{ "@type": "search:Hit", annotations }];
      return hit.quotes.map((quote) => ({ "@type": "search:Hit", annotations, match: quote.exact, before: quote.prefix, after: quote.suffix }));
    }),
  };
}

export interface Term {
  value: string;
  total: number;
}

/** Autocomplete 2.0: a TermPage. */
export function termPage2(input: { id: string; terms: readonly Term[]; ignored: readonly string[] }) {
  return {
    "@context": searchContext2,
    id: input.id,
    type: "TermPage",
    ...(input.ignored.length ? { ignored: [...input.ignored] } : {}),
    items: input.terms.map((term) => ({ value: term.value, total: term.total })),
  };
}

/** Autocomplete 1.0: a TermList whose terms link to the 1.0 search for each. */
export function termList1(input: { id: string; searchUrl: string; terms: readonly Term[]; ignored: readonly string[] }) {
  return {
    "@context": searchContext1,
    "@id": input.id,
    "@type": "search:TermList",
    ...(input.ignored.length ? { ignored: [...input.ignored] } : {}),
    terms: input.terms.map((term) => ({ match: term.value, url: `${input.searchUrl}?q=${encodeURIComponent(term.value)}`, count: term.total })),
  };
}

/** The Content-Type of every Content Search answer (JSON-LD, as the Presentation API's). */
export const contentSearchContentType = "application/ld+json";
