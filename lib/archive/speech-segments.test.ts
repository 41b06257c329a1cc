import { describe, expect, it } from "vitest";
import { defaultSegmenting, parseSilences, speechSegments, waveformPeaks } from "./speech-segments";

// What ffmpeg 5 prints for the demo's valley-01.ogg (silencedetect=noise=-40dB:d=0.45), cut short.
const stderr = `Input #0, ogg, from 'valley-01.ogg':
  Duration: 00:01:55.35, start: 0.000000, bitrate: 12 kb/s
[silencedetect @ 0x559d663d66c0] silence_start: 9.13979
[silencedetect @ 0x559d663d66c0] silence_end: 9.9234 | silence_duration: 0.783604
[silencedetect @ 0x559d663d66c0] silence_start: 24.5095
[silencedetect @ 0x559d663d66c0] silence_end: 25.5201 | silence_duration: 1.01058
size=N/A time=00:00:30.00 bitrate=N/A speed= 512x
[silencedetect @ 0x559d663d66c0] silence_start: 28.0653
`;

describe("silences from ffmpeg's stderr", () => {
  it("pairs starts and ends, and runs a silence still open at the end to the duration", () => {
    expect(parseSilences(stderr, 30)).toEqual([
      { start: 9.13979, end: 9.9234 },
      { start: 24.5095, end: 25.5201 },
      { start: 28.0653, end: 30 },
    ]);
  });

  it("reads a recording that starts silent (an end without a start) and ignores other lines", () => {
    expect(parseSilences("silence_end: 0.42 | silence_duration: 0.42\nframe=1\n", 5)).toEqual([{ start: 0, end: 0.42 }]);
    expect(parseSilences("nothing here", 5)).toEqual([]);
  });
});

describe("speech segments", () => {
  it("turns the gaps between silences into timecoded segments", () => {
    expect(speechSegments(parseSilences(stderr, 30), 30)).toEqual([
      { start: 0, end: 9.14 },
      { start: 9.92, end: 24.51 },
      { start: 25.52, end: 28.07 },
    ]);
  });

  it("joins over short pauses, drops clicks, and leaves a leading silence out", () => {
    const silences = [
      { start: 0, end: 1.2 },
      { start: 3.0, end: 3.3 }, // a breath: joined over
      { start: 5.0, end: 6.0 },
      { start: 6.1, end: 7.0 }, // 0.1 s of sound between two silences: a click
    ];
    expect(speechSegments(silences, 9)).toEqual([
      { start: 1.2, end: 5 },
      { start: 7, end: 9 },
    ]);
  });

  it("cuts speech longer than a turn into even pieces, and never joins past the limit", () => {
    expect(speechSegments([], 70, { ...defaultSegmenting, maxTurnSeconds: 30 })).toEqual([
      { start: 0, end: 23.33 },
      { start: 23.33, end: 46.67 },
      { start: 46.67, end: 70 },
    ]);
    const joinedUpTo = speechSegments([{ start: 20, end: 20.2 }], 45, { ...defaultSegmenting, maxTurnSeconds: 30 });
    expect(joinedUpTo).toEqual([
      { start: 0, end: 20 },
      { start: 20.2, end: 45 },
    ]);
  });

  it("gives no segment for a recording that is silent throughout", () => {
    expect(speechSegments([{ start: 0, end: 12 }], 12)).toEqual([]);
  });
});

describe("waveform peaks", () => {
  function samples(values: number[]): Uint8Array {
    const bytes = new Uint8Array(values.length * 2);
    const view = new DataView(bytes.buffer);
    values.forEach((value, index) => view.setInt16(index * 2, value, true));
    return bytes;
  }

  it("gives the min and max of each equal share of the samples, scaled to -1..1", () => {
    expect(waveformPeaks(samples([0, 16384, -32768, 100, 0, 0, 32767, -16384]), 4)).toEqual([
      [0, 0.5],
      [-1, 0],
      [0, 0],
      [-0.5, 1],
    ]);
  });

  it("gives fewer pairs than asked for when there are fewer samples, and ignores an odd last byte", () => {
    const odd = new Uint8Array([...samples([32767, -32768]), 7]);
    expect(waveformPeaks(odd, 1000)).toEqual([
      [0, 1],
      [-1, 0],
    ]);
    expect(waveformPeaks(new Uint8Array(0))).toEqual([]);
  });
});
