import { describe, expect, it } from "vitest";
import { moovAfterMdat, transcriptFieldsOf } from "./audio-intake";
import type { FieldDefinition } from "./field-definitions";
import { SpeechToTextError, speechToTextFromConfig, transcriptionsEndpoint, turnsFromVerboseJson } from "./speech-to-text";

describe("speech-to-text answers", () => {
  it("turns verbose_json segments into timecoded turns in time order, leaving blank ones out", () => {
    const answer = {
      task: "transcribe",
      language: "catalan",
      duration: 9.5,
      text: "Bon dia. On vau néixer?",
      segments: [
        { id: 1, seek: 0, start: 4.2, end: 9.5, text: "  On vau\n néixer? ", tokens: [1], avg_logprob: -0.2 },
        { id: 0, seek: 0, start: 0.123, end: 3.456, text: " Bon dia." },
        { id: 2, seek: 0, start: 9.5, end: 9.5, text: "  " },
      ],
    };
    expect(turnsFromVerboseJson(answer)).toEqual([
      { speaker: "", start: 0.12, end: 3.46, text: "Bon dia." },
      { speaker: "", start: 4.2, end: 9.5, text: "On vau néixer?" },
    ]);
  });

  it("refuses an answer without segments (plain json or text) with a message that says what was expected", () => {
    expect(() => turnsFromVerboseJson({ text: "hello" })).toThrow(SpeechToTextError);
    expect(() => turnsFromVerboseJson({ text: "hello" })).toThrow(/verbose_json with segments/);
    expect(() => turnsFromVerboseJson({ segments: [{ start: "0", end: 1, text: "x" }] })).toThrow(/segments/);
    try {
      turnsFromVerboseJson([]);
    } catch (error) {
      expect((error as SpeechToTextError).retryable).toBe(false);
    }
  });

  it("builds the endpoint whether or not the base URL ends in /v1", () => {
    expect(transcriptionsEndpoint("http://127.0.0.1:8000")).toBe("http://127.0.0.1:8000/v1/audio/transcriptions");
    expect(transcriptionsEndpoint("https://api.example.org/v1/")).toBe("https://api.example.org/v1/audio/transcriptions");
  });
});

describe("speech-to-text configuration", () => {
  const off = {
    MNEMO_ASR: "off" as const,
    MNEMO_ASR_URL: undefined,
    MNEMO_ASR_MODEL: undefined,
    MNEMO_ASR_API_KEY: undefined,
    MNEMO_ASR_TIMEOUT_MS: undefined,
    MNEMO_ASR_LANGUAGE: undefined,
    MNEMO_ASR_EXTERNAL: undefined,
    MNEMO_INDEX_LEASE_SECONDS: undefined,
  };

  it("is off by default, and names the missing variables when switched on incomplete", () => {
    expect(speechToTextFromConfig(off)).toBeNull();
    expect(() => speechToTextFromConfig({ ...off, MNEMO_ASR: "openai-compatible", MNEMO_ASR_API_KEY: "sk-secret-value" })).toThrow(
      /MNEMO_ASR_URL: is required[\s\S]*MNEMO_ASR_MODEL: is required/,
    );
    try {
      speechToTextFromConfig({ ...off, MNEMO_ASR: "openai-compatible", MNEMO_ASR_API_KEY: "sk-secret-value" });
    } catch (error) {
      expect(String(error)).not.toContain("sk-secret-value");
    }
  });

  it("refuses a timeout the queue's lease would not wait for", () => {
    const on = { ...off, MNEMO_ASR: "openai-compatible" as const, MNEMO_ASR_MODEL: "whisper-1", MNEMO_ASR_URL: "http://127.0.0.1:9000" };
    expect(() => speechToTextFromConfig({ ...on, MNEMO_ASR_TIMEOUT_MS: 600_000 })).toThrow(
      /MNEMO_ASR_TIMEOUT_MS: must be shorter than the index queue's lease \(MNEMO_INDEX_LEASE_SECONDS, 300 s\)/,
    );
    expect(speechToTextFromConfig({ ...on, MNEMO_ASR_TIMEOUT_MS: 600_000, MNEMO_INDEX_LEASE_SECONDS: 900 })).not.toBeNull();
  });

  it("counts a loopback server as local and any other as external, unless told otherwise", () => {
    const on = { ...off, MNEMO_ASR: "openai-compatible" as const, MNEMO_ASR_MODEL: "whisper-1" };
    expect(speechToTextFromConfig({ ...on, MNEMO_ASR_URL: "http://127.0.0.1:9000" })).toMatchObject({ model: "whisper-1", external: false });
    expect(speechToTextFromConfig({ ...on, MNEMO_ASR_URL: "https://api.openai.com" })?.external).toBe(true);
    expect(speechToTextFromConfig({ ...on, MNEMO_ASR_URL: "http://localhost:9000", MNEMO_ASR_EXTERNAL: "1" })?.external).toBe(true);
  });
});

describe("recordings and their transcript fields", () => {
  const fields: FieldDefinition[] = [
    { key: "title", label: "Title", type: "text" },
    { key: "audio", label: "Audio", type: "media", mediaKind: "audio" },
    { key: "video", label: "Video", type: "media", mediaKind: "video" },
    { key: "transcript", label: "Transcript", type: "transcript" },
    { key: "videoTranscript", label: "Video transcript", type: "transcript", mediaField: "video" },
  ];

  it("pairs a transcript with the media field it names, or with the first media field", () => {
    expect(transcriptFieldsOf(fields, "audio")).toEqual(["transcript"]);
    expect(transcriptFieldsOf(fields, "video")).toEqual(["videoTranscript"]);
    expect(transcriptFieldsOf(fields, "title")).toEqual([]);
  });
});

describe("MP4 layout", () => {
  const box = (type: string, size: number) => {
    const bytes = new Uint8Array(Math.max(size, 8));
    new DataView(bytes.buffer).setUint32(0, size);
    bytes.set(
      [...type].map((character) => character.charCodeAt(0)),
      4,
    );
    return bytes;
  };
  const file = (...boxes: Uint8Array[]) => new Uint8Array(boxes.flatMap((item) => [...item]));

  it("notices an index (moov) after the data, which a player must fetch from the end first", () => {
    expect(moovAfterMdat(file(box("ftyp", 16), box("mdat", 64), box("moov", 24)))).toBe(true);
    expect(moovAfterMdat(file(box("ftyp", 16), box("moov", 24), box("mdat", 64)))).toBe(false);
    expect(moovAfterMdat(file(box("ftyp", 16), box("free", 3)))).toBe(false);
  });
});
