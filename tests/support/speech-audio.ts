import { execFileSync } from "node:child_process";

/**
 * Short spoken recordings for the audio tests, synthesised with espeak-ng as the demo's are:
 * each phrase trimmed of espeak's own quiet edges and placed after a known silence, so the test
 * knows to the sample where speech starts.
 */

const sampleRate = 22_050;
/** |sample| above this (-35 dBFS, silencedetect's threshold) counts as sound. */
const quiet = Math.round(32768 * 10 ** (-35 / 20));

function speech(text: string): Int16Array {
  const wav = execFileSync("espeak-ng", ["-v", "en", "--stdout", text]);
  const data = wav.indexOf("data");
  if (data < 0) throw new Error("espeak-ng wrote no WAV data chunk");
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + data + 8, wav.byteOffset + wav.byteLength - ((wav.byteLength - data - 8) % 2)));
  let first = 0;
  while (first < samples.length && Math.abs(samples[first] ?? 0) < quiet) first++;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last] ?? 0) < quiet) last--;
  return samples.slice(first, last + 1);
}

export interface SpokenRecording {
  wav: Uint8Array<ArrayBuffer>;
  /** Where each phrase's first audible sample is, in seconds. */
  speechStarts: number[];
  durationSeconds: number;
}

/** A mono 16-bit WAV: `lead` seconds of silence, then each phrase followed by `gap` seconds of silence. */
export function spokenRecording(phrases: string[], options: { lead?: number; gap?: number } = {}): SpokenRecording {
  const lead = options.lead ?? 1;
  const gap = options.gap ?? 0.9;
  const parts: Int16Array[] = [new Int16Array(Math.round(lead * sampleRate))];
  const speechStarts: number[] = [];
  let at = parts[0]?.length ?? 0;
  for (const phrase of phrases) {
    const spoken = speech(phrase);
    speechStarts.push(at / sampleRate);
    parts.push(spoken, new Int16Array(Math.round(gap * sampleRate)));
    at += spoken.length + Math.round(gap * sampleRate);
  }
  const dataBytes = at * 2;
  const wav = new Uint8Array(44 + dataBytes);
  const view = new DataView(wav.buffer);
  const ascii = (offset: number, text: string) => [...text].forEach((character, index) => view.setUint8(offset + index, character.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  let offset = 44;
  for (const part of parts) {
    for (const sample of part) {
      view.setInt16(offset, sample, true);
      offset += 2;
    }
  }
  return { wav, speechStarts, durationSeconds: at / sampleRate };
}
