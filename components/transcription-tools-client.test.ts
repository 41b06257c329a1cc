import { describe, expect, it } from "vitest";
import { parseTranscriptText } from "@/lib/archive/transcript-text";
import { timecodeInsertion, transcriptionKeys } from "./transcription-tools-client";

describe("Ctrl+J while transcribing", () => {
  it("opens a turn at the caret, and closes the turn opened on the same line", () => {
    expect(timecodeInsertion("", 65.52)).toBe("[01:05.52 - ");
    expect(timecodeInsertion("[01:05.52 - ", 71.2)).toBe("01:11.2] ");
    expect(timecodeInsertion("[01:05.52 -", 71.2)).toBe("01:11.2] ");
    // A closed turn on the line: a new one opens.
    expect(timecodeInsertion("[01:05.5 - 01:11.2] Marta: yes.", 80)).toBe("[01:20.0 - ");
    const line = `${timecodeInsertion("", 3.25)}${timecodeInsertion("[00:03.25 - ", 7.5)}Marta: Where were you born?`;
    expect(parseTranscriptText(line)).toEqual({ ok: true, turns: [{ speaker: "Marta", start: 3.25, end: 7.5, text: "Where were you born?" }] });
  });

  it("lists every key it handles", () => {
    expect(transcriptionKeys.map((item) => item.keys)).toEqual(["Esc or Ctrl+Space", "Ctrl+,", "Ctrl+.", "Ctrl+J"]);
  });
});
