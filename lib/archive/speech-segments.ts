/**
 * Speech segments from ffmpeg's `silencedetect` filter, and the waveform of a recording: pure
 * functions over what ffmpeg prints and writes, so they are tested without ffmpeg.
 *
 * Measured by `npm run eval:segmentation` on the demo's 12 interviews (espeak-ng turns joined by
 * 0.6 s of silence, 152 turns, Ogg Opus): pauses of 0.3 s or more at -35 dB, with the joining
 * below, give 152 segments whose starts are every turn's start within 0.06 s (median 0.01 s).
 * That clean speech finds every turn at any setting from -30 to -50 dB and 0.2 to 0.5 s; -35 dB
 * sits above a quiet room's noise, and 0.3 s pauses joined under 0.5 s keep breaths in a turn.
 */

export const silenceNoiseDecibels = -35;
export const silenceMinSeconds = 0.3;

export interface Silence {
  start: number;
  end: number;
}

export interface SpeechSegment {
  start: number;
  end: number;
}

/**
 * The silences ffmpeg reports on stderr (`silence_start: 9.13` … `silence_end: 9.92 |
 * silence_duration: 0.78`). A silence still open when the stream ends has no end line: it
 * runs to `durationSeconds`.
 */
export function parseSilences(stderr: string, durationSeconds: number): Silence[] {
  const silences: Silence[] = [];
  let open: number | null = null;
  for (const match of stderr.matchAll(/silence_(start|end):\s*(-?[\d.]+(?:e[-+]?\d+)?)/g)) {
    const value = Math.max(0, Number(match[2]));
    if (!Number.isFinite(value)) continue;
    if (match[1] === "start") open = value;
    else {
      silences.push({ start: open ?? 0, end: Math.min(value, durationSeconds) });
      open = null;
    }
  }
  if (open !== null && open < durationSeconds) silences.push({ start: open, end: durationSeconds });
  return silences;
}

export interface SegmentingOptions {
  /** Pauses shorter than this inside a turn are joined over (a breath, a sentence end). */
  joinPausesUnder: number;
  /** A turn is not made longer than this by joining; longer speech is cut into even pieces. */
  maxTurnSeconds: number;
  /** Sound shorter than this between silences is a click or a cough, not a turn. */
  minSpeechSeconds: number;
}

export const defaultSegmenting: SegmentingOptions = { joinPausesUnder: 0.5, maxTurnSeconds: 30, minSpeechSeconds: 0.25 };

/** The speech between the silences, joined over short pauses, cut where it runs too long. */
export function speechSegments(silences: readonly Silence[], durationSeconds: number, options: SegmentingOptions = defaultSegmenting): SpeechSegment[] {
  const raw: SpeechSegment[] = [];
  let cursor = 0;
  for (const silence of [...silences].sort((a, b) => a.start - b.start)) {
    if (silence.start > cursor) raw.push({ start: cursor, end: Math.min(silence.start, durationSeconds) });
    cursor = Math.max(cursor, silence.end);
  }
  if (cursor < durationSeconds) raw.push({ start: cursor, end: durationSeconds });
  const sounds = raw.filter((segment) => segment.end - segment.start >= options.minSpeechSeconds);

  const joined: SpeechSegment[] = [];
  for (const segment of sounds) {
    const last = joined.at(-1);
    if (last && segment.start - last.end < options.joinPausesUnder && segment.end - last.start <= options.maxTurnSeconds) last.end = segment.end;
    else joined.push({ ...segment });
  }
  return joined.flatMap((segment) => cut(segment, options.maxTurnSeconds)).map(rounded);
}

function cut(segment: SpeechSegment, maxSeconds: number): SpeechSegment[] {
  const length = segment.end - segment.start;
  const pieces = Math.ceil(length / maxSeconds);
  if (pieces <= 1) return [segment];
  const step = length / pieces;
  return Array.from({ length: pieces }, (_, index) => ({
    start: segment.start + index * step,
    end: index === pieces - 1 ? segment.end : segment.start + (index + 1) * step,
  }));
}

const rounded = (segment: SpeechSegment): SpeechSegment => ({ start: Math.round(segment.start * 100) / 100, end: Math.round(segment.end * 100) / 100 });

/** How many [min, max] pairs a waveform has: enough for a wide editor, small as JSON. */
export const peakCount = 1000;

/**
 * A waveform from signed 16-bit little-endian mono samples: `count` [min, max] pairs in -1..1
 * (two decimals), each over an equal share of the samples; fewer when there are fewer samples.
 */
export function waveformPeaks(samples: Uint8Array, count = peakCount): [number, number][] {
  const view = new DataView(samples.buffer, samples.byteOffset, samples.byteLength - (samples.byteLength % 2));
  const total = view.byteLength / 2;
  const buckets = Math.min(count, total);
  const peaks: [number, number][] = [];
  for (let bucket = 0; bucket < buckets; bucket++) {
    const from = Math.floor((bucket * total) / buckets);
    const to = Math.floor(((bucket + 1) * total) / buckets);
    let min = 0;
    let max = 0;
    for (let index = from; index < to; index++) {
      const value = view.getInt16(index * 2, true);
      if (value < min) min = value;
      if (value > max) max = value;
    }
    peaks.push([Math.round((min / 32768) * 100) / 100, Math.round((max / 32767) * 100) / 100]);
  }
  return peaks;
}
