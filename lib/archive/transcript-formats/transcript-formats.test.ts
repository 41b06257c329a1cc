import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTranscriptText, serializeTranscript } from "../transcript-text";
import { validateRecordValues } from "../validate-record-values";
import { decodeTranscriptBytes, describeFileProblems, parseOhmsXml, parseSrt, parseTranscriptFile, parseWebVtt, transcriptFileFormat } from "./index";
import { transcriptFromFile } from "./transcript-from-file";

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/transcripts/${name}`, import.meta.url), "utf8");
const fixtureBytes = (name: string) => new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/transcripts/${name}`, import.meta.url)));

describe("WebVTT", () => {
  it("reads cues with ids, settings, voice spans, markup and entities, skipping header, NOTE, STYLE and REGION", () => {
    const result = parseWebVtt(fixture("entrevista-riada.vtt"));
    expect(result.problems).toEqual([]);
    expect(result.turns).toEqual([
      { speaker: "Entrevistadora", start: 0, end: 4.5, text: "Bon dia, Roser. On va néixer vostè?" },
      { speaker: "Roser Vidal", start: 4.8, end: 12.25, text: "Vaig néixer a Sant Romà de Sau, l'any 1931, a la casa del costat de l'església." },
      { speaker: "Roser Vidal", start: 12.5, end: 21, text: "Quan va arribar l'aigua del pantà, tot el poble va haver de marxar & les campanes van callar." },
      { speaker: "Entrevistadora", start: 21.4, end: 26, text: "I què se'n van endur, de casa?" },
      { speaker: "Roser Vidal", start: 26.3, end: 34.9, text: "Els mobles, les fotografies <de la boda> i una olla de coure." },
    ]);
  });

  it("splits a cue with two voices into two turns, and keeps text before any voice without a speaker", () => {
    const result = parseWebVtt("WEBVTT\n\n00:01.000 --> 00:03.000\n(rialles)\n<v Anna>Sí?</v> <v Pere>No!</v>\n");
    expect(result.turns.map(({ speaker, text }) => [speaker, text])).toEqual([
      ["", "(rialles)"],
      ["Anna", "Sí?"],
      ["Pere", "No!"],
    ]);
  });

  it("reads CRLF and a byte-order mark, hours-optional timecodes and numeric entities", () => {
    const result = parseWebVtt("\uFEFFWEBVTT\r\n\r\n1:00:00.5 --> 1:00:02.25\r\nCaf&#233; &#x263A;&nbsp;ok\r\n");
    expect(result).toEqual({ turns: [{ speaker: "", start: 3600.5, end: 3602.25, text: "Café ☺ ok" }], segments: [], problems: [] });
  });

  it("does not read a time, a question or a long sentence before a colon as a speaker", () => {
    const result = parseWebVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nWe left at 3:00 that night\n\n00:02.000 --> 00:03.000\nWhy? Because: the water\n");
    expect(result.turns.map((turn) => turn.speaker)).toEqual(["", ""]);
  });

  it("reports every malformed cue with its line number", () => {
    const result = parseWebVtt(fixture("malformed.vtt"));
    expect(result.problems).toEqual([
      { line: 7, message: expect.stringMatching(/expected a cue/) },
      { line: 12, message: "the cue ends (00:07.000) before it starts (00:09.000)." },
      { line: 16, message: "the cue has no text." },
      { line: 19, message: "“00:61.000” is not a timecode like 00:01:05.500." },
      { line: 19, message: "“00:62.000” is not a timecode like 00:01:05.500." },
      { line: 23, message: "the cue starts before the cue above it (line 4)." },
      { line: 27, message: "unknown character entity &bogus;." },
      { line: 31, message: "the cue starts before the cue above it (line 27) has ended." },
    ]);
  });

  it("refuses a file without the WEBVTT signature, or with a cue in its header", () => {
    expect(parseWebVtt("1\n00:00:01,000 --> 00:00:02,000\nhola\n").problems).toEqual([{ line: 1, message: "a WebVTT file starts with a line “WEBVTT”." }]);
    expect(parseWebVtt("WEBVTT\nKind: captions\n00:01.000 --> 00:02.000\nhola\n").problems).toEqual([
      { line: 3, message: "a cue inside the header: a blank line is missing after the WEBVTT line." },
    ]);
  });
});

describe("SRT", () => {
  it("reads a CRLF file with a byte-order mark, comma and dot milliseconds, markup and speaker prefixes", () => {
    const result = parseSrt(fixture("harbour-interview.srt"));
    expect(result.problems).toEqual([]);
    expect(result.turns).toEqual([
      { speaker: "Interviewer", start: 1, end: 4.2, text: "Where did your father work?" },
      { speaker: "MARY HUGHES", start: 4.5, end: 11.75, text: "On the trawlers out of Milford Haven, three weeks at sea at a time." },
      { speaker: "", start: 12, end: 15.5, text: "[gulls and engine noise]" },
      { speaker: "MARY HUGHES", start: 16, end: 22.4, text: "My mother mended the nets on the quay, by the fish market." },
      { speaker: "Interviewer", start: 3623, end: 3625, text: "At 3:00 in the morning?" },
    ]);
  });

  it("reports a missing blank line, a block without timing and a subtitle without text at their lines", () => {
    expect(parseSrt(fixture("malformed.srt")).problems).toEqual([
      { line: 9, message: "a timing line inside the cue above: a blank line is missing before this cue." },
      { line: 12, message: expect.stringMatching(/expected a subtitle/) },
      { line: 15, message: "the cue has no text." },
    ]);
  });

  it("reports out-of-order and overlapping subtitles", () => {
    const text = "1\n00:00:05,000 --> 00:00:06,000\nB\n\n2\n00:00:01,000 --> 00:00:02,000\nA\n\n3\n00:00:05,500 --> 00:00:07,000\nC\n";
    expect(parseSrt(text).problems).toEqual([
      { line: 6, message: "the cue starts before the cue above it (line 2)." },
      { line: 10, message: "the cue starts before the cue above it (line 2) has ended." },
    ]);
  });
});

describe("OHMS XML", () => {
  const ohms = parseOhmsXml(fixture("ohms-laciana.xml"));

  it("times each paragraph from the sync points, interpolating inside a minute and up to the duration", () => {
    expect(ohms.problems).toEqual([]);
    // Words 0, 8, 40, 48, 72 and 79 start the paragraphs; the marks put word 31 at 60 s, 64 at
    // 120 s, 93 at 180 s, and the duration the 111th and last word at 250 s.
    expect(ohms.turns.map(({ speaker, start, end }) => [speaker, start, end])).toEqual([
      ["PUIG", 0, 15.48],
      ["ORTEGA", 15.48, 76.36],
      ["PUIG", 76.36, 90.91],
      ["ORTEGA", 90.91, 136.55],
      ["PUIG", 136.55, 151.03],
      ["ORTEGA", 151.03, 250],
    ]);
    expect(ohms.turns[1]?.text).toBe(
      "Nací en Villablino, en la cuenca minera de Laciana, en el año mil novecientos cuarenta y ocho. Mi padre bajaba al pozo todos los días a las seis de la mañana.",
    );
    // Footnote references and the footnotes section are left out.
    expect(ohms.turns.at(-1)?.text).toMatch(/a Asturias y a Bilbao\.$/);
    expect(JSON.stringify(ohms.turns)).not.toMatch(/footnote|1992, salió/);
  });

  it("turns index points into segments that end where the next starts, or at the duration", () => {
    expect(ohms.segments).toEqual([
      {
        start: 0,
        end: 70,
        title: "Infancia en Villablino",
        synopsis: "Ortega habla de su nacimiento en Villablino en 1948 y del trabajo de su padre en el pozo.",
        keywords: ["Villablino", "infancia", "familia", "Laciana (León)"],
        partialTranscript: "PUIG: Empecemos por el principio. ¿Dónde nació usted?",
      },
      {
        start: 70,
        end: 135,
        title: "El lavadero de carbón",
        synopsis: "Empieza a trabajar a los quince años en el lavadero; el polvo & la silicosis.",
        keywords: ["lavadero", "polvo", "silicosis"],
        partialTranscript: "ORTEGA: Sí, entré en el lavadero con quince años.",
      },
      {
        start: 135,
        end: 250,
        title: "El cierre del pozo y la marcha a Madrid",
        synopsis: "Recuerda la huelga de 1992, los encierros en la mina y la marcha minera hasta Madrid; después, la emigración a Asturias y Bilbao.",
        keywords: ["huelga", "encierros", "marcha minera", "Minería -- Cierre de empresas"],
        partialTranscript: "ORTEGA: Fue en mil novecientos noventa y dos.",
      },
    ]);
  });

  it("gives values the record validation accepts as they are", () => {
    const fields = [
      { key: "transcript", label: "Transcript", type: "transcript" as const },
      { key: "index", label: "Index", type: "segments" as const },
    ];
    expect(validateRecordValues(fields, { transcript: ohms.turns, index: ohms.segments })).toEqual({
      ok: true,
      values: { transcript: ohms.turns, index: ohms.segments },
    });
  });

  it("reads a WebVTT transcript inside the export, reporting its lines as lines of the XML file", () => {
    const xml = `<ROOT><record>\n<duration>60</duration>\n<vtt_transcript>\nWEBVTT\n\n00:00:01.000 --> 00:00:04.000\n&lt;v Q&gt;How did it start?\n\n00:00:05.000 --> 00:00:03.000\nBackwards\n</vtt_transcript>\n</record></ROOT>`;
    const result = parseOhmsXml(xml);
    expect(result.turns).toEqual([{ speaker: "Q", start: 1, end: 4, text: "How did it start?" }]);
    expect(result.problems).toEqual([{ line: 9, message: "the cue ends (00:00:03.000) before it starts (00:00:05.000)." }]);
  });

  it("without sync points, spreads the words evenly over the duration", () => {
    const result = parseOhmsXml(
      "<ROOT><record><duration>0:00:20</duration><transcript>A: one two three four\n\nB: five six seven eight</transcript></record></ROOT>",
    );
    expect(result.turns.map(({ speaker, start, end }) => [speaker, start, end])).toEqual([
      ["A", 0, 10],
      ["B", 10, 20],
    ]);
  });

  it("refuses an entity XML does not define, naming the line", () => {
    expect(parseOhmsXml("<ROOT><record><transcript>A: one two\nthree &nbsp; four</transcript></record></ROOT>").problems).toEqual([
      { line: 2, message: expect.stringMatching(/^the XML is not well-formed at column \d+: undefined entity \(XML has only &amp;/) },
    ]);
  });

  it("reports bad sync stamps and points with their lines", () => {
    const xml = [
      "<ROOT><record>", // 1
      "<sync>1:|2(1)|x(3)|9(1)</sync>", // 2
      "<transcript>A: one two", // 3
      "three &amp; four</transcript>", // 4
      "<index>", // 5
      "<point><time>abc</time><title>T</title></point>", // 6
      "<point><time>30</time><title>Late</title></point>", // 7
      "<point>", // 8
      "<time>10</time><title>Early</title></point>", // 9
      "<point><time>40</time></point>", // 10
      "</index></record></ROOT>",
    ].join("\n");
    expect(parseOhmsXml(xml).problems).toEqual([
      { line: 2, message: "the sync stamp “x(3)” is not line(word), like 13(3)." },
      { line: 2, message: "the sync point at 3 min names line 9, but the transcript has 2 lines." },
      { line: 6, message: "the index point's time “abc” is not a number of seconds." },
      { line: 9, message: "the index point starts before the one above it (line 7)." },
      { line: 10, message: "the index point has no title, synopsis, partial transcript or keywords." },
    ]);
  });

  it("refuses a timed transcript it cannot time, and files that are no OHMS export", () => {
    expect(parseOhmsXml("<ROOT><record><transcript>A: hello</transcript></record></ROOT>").problems).toEqual([
      { line: 1, message: "the transcript has no sync points and the record no duration, so its turns cannot be timed." },
    ]);
    expect(parseOhmsXml("<html><body/></html>").problems).toEqual([{ line: 1, message: "no <record> element: this is not an OHMS export." }]);
  });
});

describe("OHMS files are read by the project's XML reader (saxes)", () => {
  it("never expands declared entities, and names the line", () => {
    const bomb =
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>\n<ROOT><record><transcript>&lol2;</transcript></record></ROOT>';
    const refused = parseOhmsXml(bomb);
    expect(refused.turns).toEqual([]);
    expect(refused.problems).toEqual([{ line: 2, message: expect.stringMatching(/^the file's DOCTYPE declares entities/) }]);
    const external = '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><ROOT><record><transcript>&x;</transcript></record></ROOT>';
    expect(parseOhmsXml(external).problems[0]?.message).toMatch(/DOCTYPE declares entities/);
  });

  it("reads prefixes, attributes, comments and CDATA, and names malformed XML by line and column", () => {
    const prefixed = parseOhmsXml(
      '<o:ROOT xmlns:o="x"><!-- c --><o:record><o:duration>10</o:duration><o:transcript>A: x<![CDATA[<y>]]>z</o:transcript></o:record></o:ROOT>',
    );
    expect(prefixed.problems).toEqual([]);
    expect(prefixed.turns).toEqual([{ speaker: "A", start: 0, end: 10, text: "x<y>z" }]);
    expect(parseOhmsXml("<ROOT>\n<record>\n</ROOT>").problems).toEqual([
      { line: 3, message: expect.stringMatching(/^the XML is not well-formed at column \d+: /) },
    ]);
    expect(parseOhmsXml("<ROOT><record><transcript>1 < 2</transcript></record></ROOT>").problems[0]?.line).toBe(1);
  });

  it("bounds nesting depth", () => {
    expect(parseOhmsXml(`${"<a>".repeat(300)}${"</a>".repeat(300)}`).problems[0]?.message).toMatch(/nested more than 200 deep/);
  });
});

describe("parseTranscriptFile", () => {
  it("picks the parser by extension, then by content", () => {
    expect(transcriptFileFormat("a.VTT", "")).toBe("webvtt");
    expect(transcriptFileFormat("a.srt", "")).toBe("srt");
    expect(transcriptFileFormat("a.xml", "")).toBe("ohms");
    expect(transcriptFileFormat("export", "\uFEFFWEBVTT\n")).toBe("webvtt");
    expect(transcriptFileFormat("export.txt", "1\n00:00:01,000 --> 00:00:02,000\n")).toBe("srt");
    expect(transcriptFileFormat("export", "<?xml version='1.0'?><ROOT/>")).toBe("ohms");
    expect(parseTranscriptFile("notes.txt", "Just some notes").problems).toEqual([
      { line: 1, message: "this is not a WebVTT (.vtt), SRT (.srt) or OHMS XML (.xml) file." },
    ]);
    expect(parseTranscriptFile("empty.vtt", "WEBVTT\n\nNOTE nothing\n").problems).toEqual([
      { line: 1, message: "the WebVTT file holds no transcript and no index." },
    ]);
  });

  it("gives turns the editor's text form keeps exactly, speakers included", () => {
    const { turns } = parseTranscriptFile("entrevista-riada.vtt", fixture("entrevista-riada.vtt"));
    expect(parseTranscriptText(serializeTranscript(turns))).toEqual({ ok: true, turns });
  });

  it("describes problems as the editor lists them", () => {
    expect(
      describeFileProblems(
        [
          { line: 3, message: "the cue has no text." },
          { line: 9, message: "x" },
        ],
        1,
      ),
    ).toEqual(["Line 3: The cue has no text.", "…and 1 more."]);
  });
});

describe("transcriptFromFile", () => {
  it("reads a file's bytes for import, or lists its problems with the file name", () => {
    const read = transcriptFromFile({ name: "ohms-laciana.xml", bytes: fixtureBytes("ohms-laciana.xml") });
    expect(read).toMatchObject({ ok: true, format: "ohms" });
    expect(read.ok && [read.turns.length, read.segments.length]).toEqual([6, 3]);
    expect(transcriptFromFile({ name: "malformed.srt", bytes: fixtureBytes("malformed.srt") })).toEqual({
      ok: false,
      problems: [
        "malformed.srt, line 9: A timing line inside the cue above: a blank line is missing before this cue.",
        "malformed.srt, line 12: Expected a subtitle: a number, then a timing line like “00:00:01,000 --> 00:00:04,000”, then its text.",
        "malformed.srt, line 15: The cue has no text.",
      ],
    });
  });

  it("refuses an OHMS upload whose DOCTYPE declares entities, expanding none", () => {
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE ROOT [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n<ROOT><record><duration>10</duration><transcript>A: &secret;</transcript></record></ROOT>';
    const read = transcriptFromFile({ name: "interview.xml", bytes: new TextEncoder().encode(xml) });
    expect(read).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^interview\.xml, line 2: The file's DOCTYPE declares entities \(<!ENTITY …>\), which Mnemo does not read/)],
    });
  });

  it("refuses text that is not UTF-8, and reads UTF-16 with a byte-order mark", () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode("1\n00:00:01,000 --> 00:00:02,000\nCaf"), 0xe9, 0x0a]);
    expect(transcriptFromFile({ name: "cafe.srt", bytes: latin1 })).toEqual({
      ok: false,
      problems: ["cafe.srt, line 1: The file is not UTF-8 text: save it as UTF-8 and import it again."],
    });
    const text = "WEBVTT\n\n00:01.000 --> 00:02.000\nCafè\n";
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Uint16Array.from(text, (character) => character.charCodeAt(0)).buffer)]);
    expect(decodeTranscriptBytes(utf16)).toEqual({ ok: true, text });
  });
});
