import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatTranscriptTimecode, parseTranscriptText, parseTranscriptTimecode, serializeTranscript } from "./transcript-text";

describe("transcript text", () => {
  it("parses timecodes in mm:ss.s and h:mm:ss.s", () => {
    expect(parseTranscriptTimecode("01:05.5")).toBe(65.5);
    expect(parseTranscriptTimecode("1:02:03")).toBe(3723);
    expect(parseTranscriptTimecode("00:61")).toBeNull();
    expect(parseTranscriptTimecode("abc")).toBeNull();
    expect(formatTranscriptTimecode(65.5)).toBe("01:05.5");
    expect(formatTranscriptTimecode(3723)).toBe("1:02:03.0");
  });

  it("round-trips every demo transcript exactly", () => {
    const interviews = JSON.parse(readFileSync(new URL("../../prisma/seed/data/oral-histories/interviews.json", import.meta.url), "utf8")) as {
      turns: { speaker: string; start: number; end: number; text: string }[];
    }[];
    for (const interview of interviews) {
      const parsed = parseTranscriptText(serializeTranscript(interview.turns));
      expect(parsed).toEqual({ ok: true, turns: interview.turns });
    }
  });

  it("names the line of a mistake", () => {
    expect(parseTranscriptText("[00:00 - 00:02] A: fine\nno brackets here")).toEqual({
      ok: false,
      error: "Line 2: expected “[mm:ss.s - mm:ss.s] Speaker: text”.",
    });
    expect(parseTranscriptText("[00:05 - 00:02] A: backwards")).toMatchObject({ ok: false, error: "Line 1: the turn ends before it starts." });
    expect(parseTranscriptText("[00:05 - 00:06] A: b\n[00:01 - 00:02] A: c")).toMatchObject({
      ok: false,
      error: "Line 2: the turn starts before the turn above it.",
    });
    expect(parseTranscriptText("[00:00 - 00:01] A:")).toMatchObject({ ok: false, error: "Line 1: the turn has no text." });
  });

  it("keeps text with colons when there is no speaker", () => {
    const turns = [{ speaker: "", start: 0, end: 1, text: "Note: the tape was cut" }];
    expect(parseTranscriptText(serializeTranscript(turns))).toEqual({ ok: true, turns });
  });
});
