/**
 * The demo's embed groups: which fields of each section are embedded together. Groups are
 * facets — "people.profession" lets "similar by profession" compare occupations alone.
 */
export const demoEmbedGroups: Record<string, Record<string, unknown>[]> = {
  "oral-histories": [
    // "index": OHMS index segments, one passage each at its start second (no demo record has one).
    {
      slug: "transcript",
      label: "Transcript",
      fields: ["title", "transcript", "index"],
      chunking: "transcription",
      maxTokens: 160,
      minTokens: 24,
      overlap: 0,
      languages: [],
    },
    {
      slug: "description",
      label: "Description",
      fields: ["title", "summary", "keywords", "narrator", "narrator.occupation", "place"],
      chunking: "short",
      maxTokens: 256,
      minTokens: 16,
      overlap: 0,
      languages: [],
    },
  ],
  publications: [
    // "scan": the pages OCR read from a document kept only as a scan, each passage on its page.
    // No demo record has both typed text and a scan of it: the two would repeat each other in
    // search and take the places of other sources in answers.
    {
      slug: "text",
      label: "Text",
      fields: ["title", "authors", "abstract", "subjects", "body", "scan"],
      chunking: "long_document",
      maxTokens: 220,
      minTokens: 48,
      overlap: 0,
      languages: [],
    },
  ],
  people: [
    {
      slug: "profile",
      label: "Profile",
      fields: ["name", "occupation", "biography", "places"],
      chunking: "short",
      maxTokens: 256,
      minTokens: 16,
      overlap: 0,
      languages: [],
    },
    { slug: "profession", label: "Profession", fields: ["occupation"], chunking: "short", maxTokens: 64, minTokens: 1, overlap: 0, languages: [] },
  ],
  places: [
    {
      slug: "description",
      label: "Description",
      fields: ["name", "kind", "description"],
      chunking: "short",
      maxTokens: 256,
      minTokens: 16,
      overlap: 0,
      languages: [],
    },
  ],
  coins: [
    {
      slug: "catalogue",
      label: "Catalogue entry",
      fields: ["title", "metal", "denomination", "typology", "period", "ruler", "mint", "date"],
      chunking: "short",
      maxTokens: 128,
      minTokens: 8,
      overlap: 0,
      languages: [],
    },
  ],
  ceramics: [
    {
      slug: "catalogue",
      label: "Catalogue entry",
      fields: ["title", "typology", "period", "material", "findspot", "description"],
      chunking: "short",
      maxTokens: 192,
      minTokens: 8,
      overlap: 0,
      languages: [],
    },
  ],
  "museum-objects": [
    {
      slug: "catalogue",
      label: "Catalogue entry",
      fields: ["title", "artist", "typology", "material", "period", "medium", "yearMade"],
      chunking: "short",
      maxTokens: 128,
      minTokens: 8,
      overlap: 0,
      languages: [],
    },
  ],
};
