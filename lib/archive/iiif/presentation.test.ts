import { describe, expect, it } from "vitest";
import {
  type AnnotationPage,
  collection,
  fragmentSeconds,
  iiifUrls,
  imageBody,
  imageCanvas,
  languageMap,
  linesAnnotationPage,
  linksValue,
  manifest,
  plainValue,
  presentationContext,
  segmentsRange,
  showsInIiif,
  timeBasedCanvas,
  timeFragment,
  transcriptAnnotationPage,
} from "./presentation";
import { htmlValueProblem, validatePresentation } from "./validate-presentation";

const urls = iiifUrls("https://archive.example/");
const recordId = "3f0c6b1e-8d0a-4a39-9a55-1c2d3e4f5a6b";

function coinManifest() {
  const face = (key: string, label: string, mediaId: string) =>
    imageCanvas({
      id: urls.recordPart(recordId, "canvas", key),
      label: languageMap(label, "en"),
      serviceId: urls.imageService(mediaId),
      width: 800,
      height: 760,
    });
  return manifest({
    id: urls.manifest(recordId),
    label: languageMap("Denarius of Augustus", "en"),
    metadata: [{ label: languageMap("Mint", "en"), value: languageMap("Lugdunum") }],
    requiredStatement: { label: languageMap("Provider", "en"), value: languageMap("American Numismatic Society") },
    rights: "http://creativecommons.org/licenses/by/4.0/",
    homepage: [{ id: urls.recordPage(recordId), type: "Text", label: languageMap("Denarius of Augustus", "en"), format: "text/html" }],
    partOf: [{ id: urls.sectionCollection("coins"), type: "Collection" }],
    items: [face("obverse", "Obverse", "11111111-1111-4111-8111-111111111111"), face("reverse", "Reverse", "22222222-2222-4222-8222-222222222222")],
  });
}

function interviewManifest() {
  const canvasId = urls.recordPart(recordId, "canvas", "recording");
  const turns = [
    { speaker: "Interviewer", start: 0, end: 4.5, text: "Where were you born?" },
    { speaker: "Roser Vidal", start: 4.8, end: 16.25, text: "In the village, beside the church." },
  ];
  return manifest({
    id: urls.manifest(recordId),
    label: languageMap("The bells under the water", "ca"),
    items: [
      timeBasedCanvas({
        id: canvasId,
        label: languageMap("Recording", "en"),
        media: { id: urls.media("33333333-3333-4333-8333-333333333333"), type: "Sound", format: "audio/ogg" },
        duration: 120.5,
        annotations: [
          transcriptAnnotationPage({
            id: urls.recordPart(recordId, "annotations", "transcript"),
            label: languageMap("Transcript", "en"),
            canvasId,
            language: "ca",
            turns,
          }),
        ],
        rendering: [{ id: urls.captions(recordId, "transcript.vtt"), type: "Text", label: languageMap("Transcript (WebVTT)", "en"), format: "text/vtt" }],
      }),
    ],
    structures: [
      segmentsRange({
        id: urls.recordPart(recordId, "range", "index"),
        label: languageMap("Index", "en"),
        canvasId,
        language: "ca",
        segments: [
          { start: 0, end: 60, title: "Childhood", synopsis: "The village before the dam.", keywords: ["church", "school"] },
          { start: 60, end: 120.5, title: "The flood", synopsis: "", keywords: [] },
        ],
      }),
    ],
  });
}

describe("Presentation 3 builders", () => {
  it("build a coin's manifest of two image canvases with their image services, valid by the spec", () => {
    const built = coinManifest();
    expect(validatePresentation(built)).toEqual([]);
    expect(built["@context"]).toBe(presentationContext);
    expect(built.items.map((canvas) => canvas.label)).toEqual([{ en: ["Obverse"] }, { en: ["Reverse"] }]);
    const painting = built.items[0]!.items[0]!.items[0]!;
    expect(painting).toMatchObject({
      motivation: "painting",
      target: built.items[0]!.id,
      body: { type: "Image", format: "image/jpeg", width: 800, height: 760 },
    });
    expect(painting.body).toMatchObject({
      service: [{ id: "https://archive.example/iiif/image/11111111-1111-4111-8111-111111111111", type: "ImageService3", profile: "level1" }],
    });
    // The thumbnail never asks more than the image has.
    expect(built.items[0]!.thumbnail?.[0]).toMatchObject({ width: 400, height: 380 });
  });

  it("build an interview's time-based canvas with transcript annotations on time fragments and segments as ranges", () => {
    const built = interviewManifest();
    expect(validatePresentation(built)).toEqual([]);
    const canvas = built.items[0]!;
    expect(canvas.duration).toBe(120.5);
    expect(canvas.items[0]!.items[0]!.body).toMatchObject({ type: "Sound", format: "audio/ogg", duration: 120.5 });
    const annotations = (canvas.annotations![0] as AnnotationPage).items;
    expect(annotations.map((annotation) => annotation.target)).toEqual([`${canvas.id}#t=0,4.5`, `${canvas.id}#t=4.8,16.25`]);
    expect(annotations[1]).toMatchObject({
      motivation: "supplementing",
      body: { type: "TextualBody", value: "Roser Vidal: In the village, beside the church.", language: "ca" },
    });
    const range = built.structures![0]!;
    expect(range.items).toHaveLength(2);
    expect(range.items[0]).toMatchObject({
      type: "Range",
      label: { ca: ["Childhood"] },
      summary: { ca: ["The village before the dam."] },
      items: [{ id: `${canvas.id}#t=0,60`, type: "Canvas" }],
    });
  });

  it("announce a large image's full/max at the size the service renders it", () => {
    const body = imageBody("https://archive.example/iiif/image/a", { width: 8000, height: 6000 });
    expect(body.width).toBeLessThanOrEqual(4096);
    expect(body.width * body.height).toBeLessThanOrEqual(16_777_216);
    expect(body.width / body.height).toBeCloseTo(8000 / 6000, 2);
    expect(imageBody("https://archive.example/iiif/image/b", { width: 640, height: 480 })).toMatchObject({ width: 640, height: 480 });
    // With the largest side configured smaller, as the service then renders it.
    expect(imageBody("https://archive.example/iiif/image/a", { width: 8000, height: 6000 }, { maxSize: 1024, maxUpscale: 2 })).toMatchObject({
      width: 1024,
      height: 768,
    });
  });

  it("write time fragments with at most three decimals, and language maps with none when the language is unknown", () => {
    expect(fragmentSeconds(4.123456)).toBe("4.123");
    expect(timeFragment("https://x.example/c", 10, 5)).toBe("https://x.example/c#t=10,10");
    expect(languageMap("Title")).toEqual({ none: ["Title"] });
    expect(languageMap("Títol", "ca")).toEqual({ ca: ["Títol"] });
  });

  it("build collections of manifests that validate", () => {
    const built = collection({
      id: urls.sectionCollection("coins"),
      label: languageMap("Coins", "en"),
      items: [{ id: urls.manifest(recordId), type: "Manifest", label: languageMap("Denarius") }],
    });
    expect(validatePresentation(built)).toEqual([]);
    expect(built).toMatchObject({ "@context": presentationContext, type: "Collection" });
  });
});

describe("the Presentation 3 validator", () => {
  it("refuses a manifest that breaks the spec's required properties and types, naming each problem", () => {
    const bad = structuredClone(coinManifest()) as unknown as Record<string, unknown> & { items: Record<string, unknown>[] };
    bad["@context"] = "http://iiif.io/api/presentation/2/context.json";
    bad.label = "Denarius";
    bad.rights = "All rights reserved";
    bad.items[0]!.width = 0;
    delete bad.items[1]!.height;
    bad.items[1]!.id = bad.items[0]!.id;
    const problems = validatePresentation(bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.@context: /),
        expect.stringMatching(/^\$\.label: must be a language map/),
        expect.stringMatching(/^\$\.rights: /),
        expect.stringMatching(/^\$\.items\[0\]\.width: must be a positive integer/),
        expect.stringMatching(/^\$\.items\[1\]: must have both width and height/),
        expect.stringMatching(/^\$\.items\[1\]\.id: is also the id of/),
      ]),
    );
  });

  it("refuses a manifest without canvases, annotations aimed elsewhere and time fragments past the recording", () => {
    expect(validatePresentation({ ...coinManifest(), items: [] })).toEqual([expect.stringMatching(/^\$\.items: must be a list of at least one Canvas/)]);
    const built = interviewManifest() as unknown as {
      items: { annotations: { items: { target: string; body: Record<string, unknown> }[] }[]; items: { items: { body: Record<string, unknown> }[] }[] }[];
    };
    const canvas = built.items[0]!;
    canvas.annotations[0]!.items[0]!.target = "https://elsewhere.example/canvas/1#t=0,4";
    canvas.annotations[0]!.items[1]!.target = `${urls.recordPart(recordId, "canvas", "recording")}#t=100,130`;
    delete canvas.annotations[0]!.items[1]!.body.value;
    delete canvas.items[0]!.items[0]!.body.duration;
    const problems = validatePresentation(built);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/annotations\[0\]\.items\[0\]\.target: must be a Canvas of this Manifest/),
        expect.stringMatching(/annotations\[0\]\.items\[1\]\.target: the time fragment must lie within 0–120.5 s/),
        expect.stringMatching(/annotations\[0\]\.items\[1\]\.body\.value: must be a string/),
        expect.stringMatching(/items\[0\]\.items\[0\]\.body\.duration: a Sound or Video must have a positive duration/),
      ]),
    );
  });

  it("name a scan page's OCR lines from its Canvas and serve them apart as supplementing annotations on #xywh= boxes, valid against the Manifest", () => {
    const canvasId = urls.recordPart(recordId, "canvas", "scan", "p1");
    const pageId = urls.recordPart(recordId, "annotations", "scan", "p1");
    const scan = manifest({
      id: urls.manifest(recordId),
      label: languageMap("Letter", "en"),
      items: [
        imageCanvas({
          id: canvasId,
          label: languageMap("Scan, page 1", "en"),
          serviceId: urls.imageService("p1"),
          width: 1748,
          height: 2480,
          annotations: [{ id: pageId, type: "AnnotationPage" }],
        }),
      ],
    });
    expect(scan.items[0]!.annotations).toEqual([{ id: pageId, type: "AnnotationPage" }]);
    expect(validatePresentation(scan)).toEqual([]);
    const lines = [
      { text: "Dear Margaret,", x: 240.4, y: 250, w: 320, h: 44 },
      { text: "   ", x: 240, y: 300, w: 10, h: 10 },
      // A box OCR drew past the page's edge is kept inside it.
      { text: "1962", x: 1700, y: 2450, w: 100, h: 40 },
    ];
    const page = linesAnnotationPage({
      id: pageId,
      label: languageMap("Text read from page 1", "en"),
      canvas: { id: canvasId, width: 1748, height: 2480 },
      language: "en",
      lines,
    });
    expect(page.items.map((annotation) => [annotation.id, annotation.motivation, annotation.target, annotation.body])).toEqual([
      [
        `${pageId}/1`,
        "supplementing",
        `${canvasId}#xywh=240,250,321,44`,
        { type: "TextualBody", value: "Dear Margaret,", format: "text/plain", language: "en" },
      ],
      [`${pageId}/2`, "supplementing", `${canvasId}#xywh=1700,2450,48,30`, { type: "TextualBody", value: "1962", format: "text/plain", language: "en" }],
    ]);
    expect(validatePresentation(page, { manifest: scan })).toEqual([]);
    // Checked against the Manifest: a box past the Canvas, or another Manifest's Canvas, is a problem; without one it cannot be checked.
    const outside = {
      ...page,
      items: [
        { ...page.items[0]!, target: `${canvasId}#xywh=1700,2450,100,40` },
        { ...page.items[1]!, target: "https://elsewhere.example/canvas#xywh=0,0,1,1" },
      ],
    };
    expect(validatePresentation(outside, { manifest: scan })).toEqual([
      expect.stringMatching(/^\$\.items\[0\]\.target: the region must lie within the Canvas's 1748×2480/),
      expect.stringMatching(/^\$\.items\[1\]\.target: must be a Canvas of this Manifest/),
    ]);
    expect(validatePresentation(page)).toEqual([expect.stringMatching(/checked against the Manifest/)]);
    // Embedded on a Canvas, a page still needs its items.
    expect(validatePresentation({ ...scan, items: [{ ...scan.items[0]!, items: [{ id: `${canvasId}/page`, type: "AnnotationPage" }] }] })).toEqual([
      expect.stringMatching(/items\[0\]\.items\[0\]\.items: must be a list of Annotations/),
    ]);
  });

  it("refuses collections whose items are not manifests or collections", () => {
    const problems = validatePresentation({
      "@context": presentationContext,
      id: "https://x.example/c",
      type: "Collection",
      label: { en: ["C"] },
      items: [{ id: "not a url", type: "Canvas" }],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/items\[0\]\.id: must be an http/),
        expect.stringMatching(/items\[0\]\.type: must be "Manifest" or "Collection"/),
        expect.stringMatching(/items\[0\]\.label: must be a language map/),
      ]),
    );
  });
});

describe("HTML in metadata values", () => {
  it("writes authority links as one span of <a href> links, escaped, that the validator accepts", () => {
    const value = linksValue([
      { uri: "http://www.wikidata.org/entity/Q1492", label: 'Barcelona & <its> "port"' },
      { uri: "http://vocab.getty.edu/aat/300008063", label: "Getty AAT 300008063" },
    ]);
    expect(value).toBe(
      '<span><a href="http://www.wikidata.org/entity/Q1492">Barcelona &amp; &lt;its&gt; &quot;port&quot;</a>; <a href="http://vocab.getty.edu/aat/300008063">Getty AAT 300008063</a></span>',
    );
    expect(htmlValueProblem(value)).toBeNull();
    expect(linksValue([{ uri: "javascript:alert(1)", label: "x" }])).toBe("");
    const built = { ...coinManifest(), metadata: [{ label: languageMap("Mint", "en"), value: languageMap(value) }] };
    expect(validatePresentation(built)).toEqual([]);
  });

  it("refuses HTML the spec does not allow, naming the value", () => {
    const cases: [string, RegExp][] = [
      ["<span><script>alert(1)</script></span>", /may not use <script>/],
      ['<a href="javascript:alert(1)">x</a>', /http\(s\) or mailto/],
      ['<a href="http://x.example" onclick="alert(1)">x</a>', /attribute onclick/],
      ["<span>a <b>b</span>", /well-formed/],
      ["<span>a</span><span>b</span>", /one element/],
      ["<span>Rome & Ostia</span>", /escape &/],
      ["<span><!-- hidden --></span>", /comments/],
    ];
    for (const [html, message] of cases) expect(htmlValueProblem(html), html).toMatch(message);
    const built = {
      ...coinManifest(),
      summary: languageMap("<p>fine</p>"),
      metadata: [{ label: languageMap("Mint", "en"), value: languageMap(cases[0]![0]) }],
    };
    expect(validatePresentation(built)).toEqual([expect.stringMatching(/^\$\.metadata\[0\]\.value\.none\[0\]: HTML may not use <script>/)]);
  });

  it("keeps plain text that looks like HTML plain, with the trailing space the spec asks for", () => {
    expect(plainValue("<unclear>")).toBe("<unclear> ");
    expect(htmlValueProblem(plainValue("<b>not markup</i>"))).toBeNull();
    expect(plainValue("Rome <Ostia>, 1850")).toBe("Rome <Ostia>, 1850");
  });
});

describe("which records the record page offers a manifest for", () => {
  const fields = [
    { key: "title", type: "text" },
    { key: "photo", type: "image" },
    { key: "recording", type: "media" },
  ];
  it("those with a decodable image, a recording or a scan; not text alone or an undecodable image", () => {
    const record = (values: Record<string, unknown>, media: Record<string, { kind: string; imageCheck: string | null }>) => ({
      values,
      section: { fields },
      media,
    });
    expect(showsInIiif(record({ title: "Note" }, {}))).toBe(false);
    expect(showsInIiif(record({ photo: "m1" }, { m1: { kind: "image", imageCheck: "pending" } }))).toBe(true);
    expect(showsInIiif(record({ photo: "m1" }, { m1: { kind: "image", imageCheck: "undecodable" } }))).toBe(false);
    expect(showsInIiif(record({ recording: "m2" }, { m2: { kind: "audio", imageCheck: null } }))).toBe(true);
    // A title that happens to be a media id is no picture.
    expect(showsInIiif(record({ title: "m2" }, { m2: { kind: "audio", imageCheck: null } }))).toBe(false);
  });
});
