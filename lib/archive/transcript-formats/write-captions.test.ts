import { describe, expect, it } from "vitest";
import type { TranscriptTurn } from "../field-definitions";
import { parseSrt, parseWebVtt } from "./index";
import { captionCues, formatCueTimecode, writeSrt, writeWebVtt } from "./write-captions";

const turns: TranscriptTurn[] = [
  { speaker: "Entrevistadora", start: 0, end: 4.5, text: "Bon dia, Roser. On va néixer vostè?" },
  { speaker: "Roser Vidal", start: 4.8, end: 12.25, text: "Vaig néixer a Sant Romà de Sau, l'any 1931." },
  { speaker: "Entrevistadora", start: 12.5, end: 14.125, text: "I la casa?" },
];

/** Consecutive turns of one speaker joined: what a split turn reads back as. */
function joined(list: TranscriptTurn[]): { speaker: string; start: number; end: number; text: string }[] {
  const out: TranscriptTurn[] = [];
  for (const turn of list) {
    const last = out.at(-1);
    if (last && last.speaker === turn.speaker && last.end === turn.start) Object.assign(last, { end: turn.end, text: `${last.text} ${turn.text}` });
    else out.push({ ...turn });
  }
  return out;
}

describe("caption timecodes", () => {
  it("writes HH:MM:SS.mmm for WebVTT and HH:MM:SS,mmm for SRT, hours included", () => {
    expect(formatCueTimecode(0)).toBe("00:00:00.000");
    expect(formatCueTimecode(4.5)).toBe("00:00:04.500");
    expect(formatCueTimecode(65.0004, ",")).toBe("00:01:05,000");
    expect(formatCueTimecode(3599.9996)).toBe("01:00:00.000");
    expect(formatCueTimecode(2 * 3600 + 3 * 60 + 4.321, ",")).toBe("02:03:04,321");
    expect(formatCueTimecode(123 * 3600)).toBe("123:00:00.000");
    expect(formatCueTimecode(-3)).toBe("00:00:00.000");
    expect(formatCueTimecode(Number.NaN)).toBe("00:00:00.000");
  });
});

describe("writeWebVtt", () => {
  it("writes a header, voice spans and the timings, and reads back as the same turns", () => {
    const text = writeWebVtt(turns, { language: "ca" });
    expect(text).toBe(
      [
        "WEBVTT\nKind: captions\nLanguage: ca",
        "00:00:00.000 --> 00:00:04.500\n<v Entrevistadora>Bon dia, Roser. On va néixer vostè?",
        "00:00:04.800 --> 00:00:12.250\n<v Roser Vidal>Vaig néixer a Sant Romà de Sau, l'any\n1931.",
        "00:00:12.500 --> 00:00:14.125\n<v Entrevistadora>I la casa?",
      ].join("\n\n") + "\n",
    );
    const parsed = parseWebVtt(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns).toEqual(turns);
  });

  it("escapes &, < and > in text and speaker names, so no markup and no --> reach a cue", () => {
    const hostile: TranscriptTurn[] = [{ speaker: "A <b> & Co", start: 1, end: 3, text: "x --> y <i>not italic</i> & 1 < 2 > 0" }];
    const text = writeWebVtt(hostile);
    const [timing, cueText = ""] = text.split("\n\n")[1]!.split("\n");
    expect(timing).toBe("00:00:01.000 --> 00:00:03.000");
    // One tag only, the voice span; no --> after the timing line.
    expect(cueText.match(/[<>]/g)).toEqual(["<", ">"]);
    expect(cueText).not.toContain("-->");
    expect(cueText).toBe("<v A &lt;b&gt; &amp; Co>x --&gt; y &lt;i&gt;not italic&lt;/i&gt; &amp; 1 &lt; 2 &gt; 0");
    const parsed = parseWebVtt(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns).toEqual(hostile);
  });

  it("splits a long turn into cues of at most two lines of 42 characters, timed by characters", () => {
    const long = "Quan va arribar l'aigua del pantà, tot el poble va haver de marxar i les campanes van callar. ".repeat(4).trim();
    const turn: TranscriptTurn = { speaker: "Roser Vidal", start: 10, end: 70, text: long };
    const cues = captionCues([turn]);
    expect(cues.length).toBeGreaterThan(3);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    }
    // Back to back, from the turn's start to its end, each cue's time in proportion to its text.
    expect(cues[0]!.start).toBe(10);
    expect(cues.at(-1)!.end).toBe(70);
    cues.slice(1).forEach((cue, index) => expect(cue.start).toBe(cues[index]!.end));
    const total = cues.reduce((sum, cue) => sum + cue.lines.join(" ").length + 1, 0);
    for (const cue of cues) expect(cue.end - cue.start).toBeCloseTo((60 * (cue.lines.join(" ").length + 1)) / total, 2);
    const parsed = parseWebVtt(writeWebVtt([turn]));
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns).toHaveLength(cues.length);
    expect(parsed.turns.every((cue) => cue.speaker === "Roser Vidal")).toBe(true);
    expect(joined(parsed.turns)).toEqual([turn]);
  });

  it("keeps hour-long times and leaves out turns without text", () => {
    const late: TranscriptTurn[] = [
      { speaker: "", start: 3725.5, end: 3730.25, text: "Una hora després." },
      { speaker: "Pere", start: 3731, end: 3732, text: "   " },
      { speaker: "Pere", start: 10 * 3600 + 1, end: 10 * 3600 + 2.999, text: "Deu hores." },
    ];
    const text = writeWebVtt(late);
    expect(text).toContain("01:02:05.500 --> 01:02:10.250\nUna hora després.");
    expect(text).toContain("10:00:01.000 --> 10:00:02.999\n<v Pere>Deu hores.");
    expect(parseWebVtt(text).turns).toEqual([late[0], late[2]]);
  });

  it("writes a NOTE without a line break or -->, and an empty transcript as a bare header", () => {
    expect(writeWebVtt([], { note: "Machine\n\ntranslation --> English" })).toBe("WEBVTT\nKind: captions\n\nNOTE Machine translation → English\n");
    expect(parseWebVtt(writeWebVtt([])).problems).toEqual([]);
  });
});

describe("writeSrt", () => {
  it("numbers the cues, writes comma timings and Name: prefixes, and reads back as the same turns", () => {
    const text = writeSrt(turns);
    expect(text.split("\n\n")[1]).toBe("2\n00:00:04,800 --> 00:00:12,250\nRoser Vidal: Vaig néixer a Sant Romà de Sau, l'any\n1931.");
    const parsed = parseSrt(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns).toEqual(turns);
  });

  it("round-trips split turns, escaped text and hour-long times", () => {
    const list: TranscriptTurn[] = [
      { speaker: "Interviewer", start: 3599.5, end: 3601, text: "Fish & chips <then>?" },
      {
        speaker: "Narrator",
        start: 3602,
        end: 3700,
        text: "We walked down to the harbour every morning before the boats went out, and my father said the lamp burned whale oil until the year the new keeper came.",
      },
    ];
    const text = writeSrt(list);
    expect(text).toContain("00:59:59,500 --> 01:00:01,000\nInterviewer: Fish &amp; chips &lt;then&gt;?");
    const parsed = parseSrt(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns.length).toBeGreaterThan(2);
    expect(joined(parsed.turns)).toEqual(list);
  });

  it("reads numbered speakers back, and not a clock time", () => {
    const list: TranscriptTurn[] = [
      { speaker: "Speaker 1", start: 0, end: 2, text: "Where were you born?" },
      { speaker: "Hablante 2", start: 2, end: 5, text: "En el puerto." },
    ];
    expect(parseSrt(writeSrt(list)).turns).toEqual(list);
    const clock = parseSrt("1\n00:00:01,000 --> 00:00:02,000\nAt 3:00 we left the harbour.\n");
    expect(clock.turns.map((turn) => [turn.speaker, turn.text])).toEqual([["", "At 3:00 we left the harbour."]]);
  });

  it("writes nothing for a transcript without text", () => {
    expect(writeSrt([{ speaker: "A", start: 0, end: 1, text: "" }])).toBe("");
  });
});
