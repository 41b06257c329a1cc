import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../../archive/field-definitions";
import { chunkDocument } from "../chunk";
import { buildGroupDocument, buildGroupDocuments, type DocumentRecord, reduceLongText } from "./build-group-document";
import { type SectionShape, validateEmbedGroup } from "./embed-group-schema";

const section = (slug: string, fields: FieldDefinition[]): SectionShape => ({ id: `id-${slug}`, slug, name: slug[0]?.toUpperCase() + slug.slice(1), fields });
const sections = new Map<string, SectionShape>(
  [
    section("interviews", [
      { key: "title", label: "Title", type: "text" },
      { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
      { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
      { key: "transcript", label: "Transcript", type: "transcript" },
      { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
      { key: "period", label: "Period", type: "daterange" },
      { key: "subjects", label: "Subjects", type: "authority", multiple: true },
    ]),
    section("people", [
      { key: "name", label: "Name", type: "text" },
      { key: "occupation", label: "Occupation", type: "text" },
      { key: "places", label: "Places", type: "relation", targetSection: "places", multiple: true },
      { key: "interviews", label: "Interviews", type: "relation", targetSection: "interviews", multiple: true },
    ]),
    section("places", [
      { key: "name", label: "Name", type: "text" },
      { key: "description", label: "Description", type: "longtext" },
    ]),
  ].map((item) => [item.slug, item]),
);

const group = (fields: string[], overrides: Record<string, unknown> = {}) => ({
  slug: "profession",
  label: "Profession",
  fields,
  chunking: "auto",
  maxTokens: 256,
  minTokens: 32,
  overlap: 0,
  ...overrides,
});

describe("validateEmbedGroup", () => {
  it("accepts fields and relation paths to depth 2", () => {
    expect(validateEmbedGroup(group(["title", "narrator.occupation", "narrator.places.description"]), "interviews", sections)).toMatchObject({ ok: true });
  });

  it("names each problem", () => {
    const result = validateEmbedGroup(group(["titel", "title.name", "narrator.interviews.title", "recording", "narrator.nope"]), "interviews", sections);
    expect(result).toEqual({
      ok: false,
      errors: [
        '"titel": Interviews has no field "titel"',
        '"title.name": "title" is a text field, not a relation, so the path cannot continue through it',
        '"narrator.interviews.title": the path returns to interviews (a cycle)',
        '"recording": media fields have no text to embed',
        '"narrator.nope": People has no field "nope"',
      ],
    });
  });

  it("refuses bounds out of range and duplicates before looking at paths", () => {
    const result = validateEmbedGroup(group(["title", "title"], { maxTokens: 8, minTokens: 10, overlap: 5 }), "interviews", sections);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual(
      expect.arrayContaining([
        "maxTokens: max tokens must be at least 16",
        "minTokens: min tokens must be less than max tokens",
        "overlap: overlap must be less than half of max tokens",
        'fields.1: "title" is listed twice',
      ]),
    );
    expect(validateEmbedGroup({ ...group(["title"]), chunking: "pages" }, "interviews", sections).ok).toBe(false);
  });
});

describe("buildGroupDocument", () => {
  const records = new Map<string, DocumentRecord>([
    [
      "00000000-0000-4000-8000-0000000000a1",
      {
        id: "00000000-0000-4000-8000-0000000000a1",
        projectId: "public",
        sectionId: "id-people",
        sectionSlug: "people",
        title: "Josep Farré",
        values: { name: "Josep Farré", occupation: "farmer", places: ["00000000-0000-4000-8000-0000000000b1"] },
      },
    ],
    [
      "00000000-0000-4000-8000-0000000000b1",
      {
        id: "00000000-0000-4000-8000-0000000000b1",
        projectId: "public",
        sectionId: "id-places",
        sectionSlug: "places",
        title: "Sant Romà",
        values: { name: "Sant Romà", description: "# Village\n\nA **drowned** village.\n\n[[page:3]]\n\nThe church." },
      },
    ],
  ]);
  const sources = {
    sections,
    loadRecords: async (ids: string[]) => new Map(ids.flatMap((id) => (records.has(id) ? [[id, records.get(id) as DocumentRecord] as const] : []))),
  };
  const interview: DocumentRecord = {
    id: "i1",
    projectId: "valley",
    sectionId: "id-interviews",
    sectionSlug: "interviews",
    title: "L'última collita",
    values: {
      title: "L'última collita",
      language: "ca",
      narrator: "00000000-0000-4000-8000-0000000000a1",
      period: { from: -400, to: 1964 },
      transcript: [
        { speaker: "Marta", start: 0, end: 4.5, text: "On va néixer?" },
        { speaker: "Josep", start: 5.1, end: 9.25, text: "A Sant Romà,\nel 1931." },
      ],
    },
  };

  it("puts short fields in one entry, long fields under headings, follows relations to depth 2, and records contributors", async () => {
    const document = await buildGroupDocument(
      interview,
      { fields: ["title", "narrator", "narrator.occupation", "narrator.places.description", "period", "transcript"], languages: [] },
      sources,
    );
    expect(document?.text).toBe(
      [
        "Title: L'última collita\nNarrator: Josep Farré\nNarrator › Occupation: farmer\nPeriod: 400 BC – 1964",
        "## Narrator › Places › Description\n\n### Village\n\nA drowned village.\n\n[[page:3]]\n\nThe church.",
        "## Transcript\n\n[[turn:0-4.5]] Marta: On va néixer?\n[[turn:5.1-9.25]] Josep: A Sant Romà, el 1931.",
      ].join("\n\n"),
    );
    expect(document?.fieldPaths).toEqual(["title", "narrator", "narrator.occupation", "period", "narrator.places.description", "transcript"]);
    expect(document).toMatchObject({
      language: "ca",
      contributingSectionIds: ["id-interviews", "id-people", "id-places"],
      contributingProjectIds: ["public", "valley"],
    });
  });

  it("splits the document by scope: a linked record of another project takes only its own text out of the record's passages", async () => {
    const fields = ["title", "narrator", "narrator.occupation", "narrator.places.description", "period", "transcript"];
    const documents = await buildGroupDocuments(interview, { fields, languages: [] }, sources);
    expect(documents.map((document) => document.text)).toEqual([
      "Title: L'última collita\nPeriod: 400 BC – 1964\n\n## Transcript\n\n[[turn:0-4.5]] Marta: On va néixer?\n[[turn:5.1-9.25]] Josep: A Sant Romà, el 1931.",
      "Narrator: Josep Farré\nNarrator › Occupation: farmer\n\n## Narrator › Places › Description\n\n### Village\n\nA drowned village.\n\n[[page:3]]\n\nThe church.",
    ]);
    expect(documents.map((document) => document.contributingProjectIds)).toEqual([["valley"], ["public", "valley"]]);
    expect(documents.map((document) => document.contributingRecordIds)).toEqual([
      ["i1"],
      ["00000000-0000-4000-8000-0000000000a1", "00000000-0000-4000-8000-0000000000b1", "i1"].sort(),
    ]);
    expect(documents.map((document) => document.fieldPaths)).toEqual([
      ["title", "period", "transcript"],
      ["narrator", "narrator.occupation", "narrator.places.description"],
    ]);
    // Every line of the whole document is in exactly one of the parts.
    const whole = await buildGroupDocument(interview, { fields, languages: [] }, sources);
    const lines = (text: string) => text.split("\n").filter(Boolean).sort();
    expect(lines(documents.map((document) => document.text).join("\n"))).toEqual(lines(whole!.text));

    // Linked records of the record's own project stay in one document with it, as before.
    const together = await buildGroupDocuments({ ...interview, projectId: "public" }, { fields, languages: [] }, sources);
    expect(together).toHaveLength(1);
    expect(together[0]?.text).toBe(whole!.text);
    expect(together[0]?.contributingProjectIds).toEqual(["public"]);
  });

  it("leaves out empty fields and missing targets, and skips languages the group does not index", async () => {
    const lonely = { ...interview, values: { title: "Only a title", narrator: "00000000-0000-4000-8000-0000000000ff", language: "es" } };
    const document = await buildGroupDocument(lonely, { fields: ["title", "narrator.occupation"], languages: [] }, sources);
    expect(document?.text).toBe("Title: Only a title");
    expect(document?.contributingProjectIds).toEqual(["valley"]);
    expect(await buildGroupDocument(lonely, { fields: ["title"], languages: ["en"] }, sources)).toBeNull();
    expect(await buildGroupDocument(lonely, { fields: ["transcript"], languages: [] }, sources)).toBeNull();
  });

  it("renders a date as written, and one stored as years as it always did", async () => {
    const entry = async (period: unknown) =>
      (await buildGroupDocument({ ...interview, values: { title: "Coin", period } }, { fields: ["title", "period"], languages: [] }, sources))?.text;
    expect(await entry({ from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" })).toBe("Title: Coin\nPeriod: s. XVIII");
    expect(await entry({ from: -27, to: 14 })).toBe("Title: Coin\nPeriod: 27 BC – 14");
  });

  it("makes a catalogue record one passage, and gives a transcript no title-only passage", async () => {
    const coin = {
      ...interview,
      values: { title: "Denarius of Hadrian", period: { from: 117, to: 138 }, narrator: "00000000-0000-4000-8000-0000000000a1" },
    };
    const entry = await buildGroupDocument(coin, { fields: ["title", "narrator.occupation", "period"], languages: [] }, sources);
    const chunks = chunkDocument(entry?.text ?? "", { mode: "short", maxTokens: 128, minTokens: 8, overlap: 0 });
    expect(chunks.map((chunk) => chunk.text)).toEqual(["Title: Denarius of Hadrian\nNarrator › Occupation: farmer\nPeriod: 117 – 138"]);
    expect(chunks[0]?.headingPath).toEqual([]);

    const transcript = await buildGroupDocument(interview, { fields: ["title", "transcript"], languages: [] }, sources);
    expect(transcript?.fieldPaths).toEqual(["transcript"]);
    const passages = chunkDocument(transcript?.text ?? "", { mode: "transcription", maxTokens: 160, minTokens: 24, overlap: 0 });
    expect(passages.map((chunk) => chunk.headingPath)).toEqual([["Transcript"]]);
    expect(passages.every((chunk) => !chunk.text.includes("L'última collita"))).toBe(true);
  });

  it("makes each index segment one passage that starts at the segment's second, title and keywords in its text", async () => {
    const withIndex = new Map(sections);
    const interviews = withIndex.get("interviews")!;
    withIndex.set("interviews", { ...interviews, fields: [...interviews.fields, { key: "index", label: "Index", type: "segments" }] });
    const indexed = {
      ...interview,
      values: {
        ...interview.values,
        index: [
          { start: 0, end: 70, title: "Infància al poble", synopsis: "Recorda l'escola i la plaça.", keywords: ["escola", "plaça"], partialTranscript: "" },
          { start: 70.5, end: 135, title: "", synopsis: "La riada de 1962 i el pantà.", keywords: [], partialTranscript: "L'aigua va pujar en una hora." },
        ],
      },
    };
    const document = await buildGroupDocument(indexed, { fields: ["title", "transcript", "index"], languages: [] }, { ...sources, sections: withIndex });
    const passages = chunkDocument(document?.text ?? "", { mode: "transcription", maxTokens: 160, minTokens: 24, overlap: 0 });
    const segments = passages.filter((chunk) => chunk.headingPath[0] === "Index");
    expect(segments.map(({ text, headingPath, timeStart, timeEnd }) => ({ text, headingPath, timeStart, timeEnd }))).toEqual([
      {
        text: "Infància al poble. Recorda l'escola i la plaça. Keywords: escola; plaça.",
        headingPath: ["Index", "Infància al poble"],
        timeStart: 0,
        timeEnd: 70,
      },
      { text: "La riada de 1962 i el pantà. L'aigua va pujar en una hora.", headingPath: ["Index", "Segment at 01:10"], timeStart: 70.5, timeEnd: 135 },
    ]);
    // The transcript's passages are the same as without an index.
    const without = await buildGroupDocument(interview, { fields: ["title", "transcript"], languages: [] }, sources);
    expect(passages.filter((chunk) => chunk.headingPath[0] === "Transcript").map((chunk) => chunk.text)).toEqual(
      chunkDocument(without?.text ?? "", { mode: "transcription", maxTokens: 160, minTokens: 24, overlap: 0 }).map((chunk) => chunk.text),
    );
  });

  it("keeps a lone short field beside long text unless it is the title", async () => {
    const noted = { ...interview, values: { ...interview.values, period: { from: 1931, to: 1931 } } };
    const document = await buildGroupDocument(noted, { fields: ["period", "transcript"], languages: [] }, sources);
    expect(document?.text.startsWith("Period: 1931\n\n## Transcript")).toBe(true);
    expect(document?.fieldPaths).toEqual(["period", "transcript"]);
  });

  it("lists linked records in the record's order, whatever order the database returns them in", async () => {
    const places = new Map<string, DocumentRecord>(
      ["Sant Romà", "Vall", "Port de la Calma"].map((name, index) => {
        const id = `00000000-0000-4000-8000-0000000000c${index}`;
        return [id, { id, projectId: "public", sectionId: "id-places", sectionSlug: "places", title: name, values: { name } }];
      }),
    );
    const [first, second, third] = [...places.keys()];
    // Rows come back in the table's physical order, which an edit of one of them changes.
    const inOrder = (reverse: boolean) => ({
      sections,
      loadRecords: async (ids: string[]) => {
        const found = [...places.values()].filter((place) => ids.includes(place.id));
        return new Map((reverse ? found.reverse() : found).map((place) => [place.id, place]));
      },
    });
    const person = (ids: string[]): DocumentRecord => ({
      id: "p1",
      projectId: "public",
      sectionId: "id-people",
      sectionSlug: "people",
      title: "Aina",
      values: { name: "Aina", places: ids },
    });
    for (const reverse of [false, true]) {
      const listed = await buildGroupDocument(person([second!, first!, third!]), { fields: ["places"], languages: [] }, inOrder(reverse));
      expect(listed?.text).toBe("Places: Vall; Sant Romà; Port de la Calma");
      const repeated = await buildGroupDocument(person([third!, first!, third!]), { fields: ["places"], languages: [] }, inOrder(reverse));
      expect(repeated?.text).toBe("Places: Port de la Calma; Sant Romà");
    }
  });

  it("gives an authority field's labels to the entry, not its URIs", async () => {
    const subjects = [
      { uri: "http://www.wikidata.org/entity/Q1413", label: "Nero" },
      { uri: "http://vocab.getty.edu/aat/300037222" },
      { uri: "http://nomisma.org/id/rome", label: "Rome" },
    ];
    const entry = async (value: unknown) =>
      (await buildGroupDocument({ ...interview, values: { title: "Coin", subjects: value } }, { fields: ["title", "subjects"], languages: [] }, sources))?.text;
    expect(await entry(subjects)).toBe("Title: Coin\nSubjects: Nero; Rome");
    // A link without a label has no words to find: no line.
    expect(await entry([subjects[1]])).toBe("Title: Coin");
  });

  it("keeps a short value on its entry line", async () => {
    const multiline = { ...interview, values: { title: "Two\n\n## lines" } };
    const document = await buildGroupDocument(multiline, { fields: ["title"], languages: [] }, sources);
    expect(document?.text).toBe("Title: Two ## lines");
    expect(chunkDocument(document?.text ?? "", { mode: "short", maxTokens: 64, minTokens: 1, overlap: 0 })).toHaveLength(1);
  });

  it("reduces long-text markup but keeps headings and page markers", () => {
    expect(reduceLongText("## Methods\r\n__Bold__ and *it* stay words\n [[page:12]] ")).toBe("#### Methods\nBold and it stay words\n[[page:12]]");
  });
});
