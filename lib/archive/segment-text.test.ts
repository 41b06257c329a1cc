import { describe, expect, it } from "vitest";
import type { IndexSegment } from "./field-definitions";
import { parseSegmentText, serializeSegments } from "./segment-text";

const segments: IndexSegment[] = [
  {
    start: 0,
    end: 70,
    title: "Infancia en Villablino",
    synopsis: "Habla de su padre.",
    keywords: ["Villablino", "infancia"],
    partialTranscript: "PUIG: Empecemos por el principio.",
  },
  { start: 70, end: 3725.5, title: "", synopsis: "", keywords: ["lavadero"], partialTranscript: "" },
];

describe("index segments as text", () => {
  it("round-trips segments, empty parts included", () => {
    const text = serializeSegments(segments);
    expect(text).toBe(
      "[00:00.0 - 01:10.0] Infancia en Villablino\nSynopsis: Habla de su padre.\nKeywords: Villablino; infancia\nPartial transcript: PUIG: Empecemos por el principio.\n\n[01:10.0 - 1:02:05.5]\nKeywords: lavadero",
    );
    expect(parseSegmentText(text)).toEqual({ ok: true, segments });
  });

  it("reads labels in any case and order, continuation lines and CRLF", () => {
    expect(parseSegmentText("[00:05 - 00:09] La riada\r\nkeywords: riada;pantà;\r\nSYNOPSIS: L'aigua\r\nva arribar.\r\n")).toEqual({
      ok: true,
      segments: [{ start: 5, end: 9, title: "La riada", synopsis: "L'aigua va arribar.", keywords: ["riada", "pantà"], partialTranscript: "" }],
    });
  });

  it("names the line of a mistake", () => {
    expect(parseSegmentText("Synopsis: no header")).toEqual({ ok: false, error: "Line 1: a segment starts with “[mm:ss - mm:ss] Title”." });
    expect(parseSegmentText("[00:10 - 00:05] Back")).toEqual({ ok: false, error: "Line 1: the segment ends before it starts." });
    expect(parseSegmentText("[00:10 - 00:20] A\n\n[00:05 - 00:06] B")).toEqual({ ok: false, error: "Line 3: the segment starts before the segment above it." });
    expect(parseSegmentText("[00:99 - 01:00] A")).toEqual({ ok: false, error: "Line 1: “00:99” is not a timecode like 01:05.5." });
  });
});
