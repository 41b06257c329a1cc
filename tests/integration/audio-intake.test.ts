import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { maxTranscriptionAttempts } from "../../lib/archive/audio-intake";
import { deleteRecord } from "../../lib/archive/delete-record";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { storagePath, storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import { mediaResponse } from "../../lib/archive/serve-media";
import { createSpeechToText, type SpeechToText } from "../../lib/archive/speech-to-text";
import { dismissTranscriptDraft, requestTranscription, transcriptionToolsFor, applyTranscriptDraft } from "../../lib/archive/transcript-drafts";
import { parseTranscriptText } from "../../lib/archive/transcript-text";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { closeAfterAll } from "../support/close-after-all";
import { createProject, createUser, memberPrincipal, principalOf, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { type LoopbackServer, listenOnLoopback } from "../support/loopback-server";
import { spokenRecording, type SpokenRecording } from "../support/speech-audio";
import { openTestDatabase } from "../support/test-database";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
];

const embedder = createHashEmbedder({ dimension: 32 });
const storageDir = temporaryStorageDir();
let db: Database;
let space: IndexSpace;
let projectId: string;
let openSection: string;
let localSection: string;
let curator: Principal;
let reader: Principal;
let outsider: Principal;
let admin: Principal;
let spoken: SpokenRecording;

/** What the fake transcription server received, request by request, as its multipart parser read it. */
interface Received {
  authorization: string | null;
  fields: Record<string, string>;
  file: { name: string; type: string; bytes: Uint8Array } | null;
}

type Behaviour = "answer" | "hang" | "fail-500" | "fail-400" | "not-json";

/**
 * A loopback stand-in for a whisper server: parses the real multipart body with the platform's
 * own parser (undici's Request.formData), records what arrived, and answers as told.
 */
async function fakeTranscriptionServer(behaviour: () => Behaviour): Promise<LoopbackServer & { received: Received[] }> {
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
    const form = await new Request("http://fake.test/", { method: "POST", headers, body: Buffer.concat(chunks) }).formData();
    const fields: Record<string, string> = {};
    let file: Received["file"] = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else file = { name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
    }
    received.push({ authorization: request.headers.authorization ?? null, fields, file });
    const mode = request.url === "/v1/audio/transcriptions" ? behaviour() : "fail-400";
    if (mode === "hang") {
      timers.add(setTimeout(() => response.end(), 60_000));
      return;
    }
    if (mode === "fail-500") return void response.writeHead(500, { "content-type": "text/plain" }).end("model crashed");
    if (mode === "fail-400") return void response.writeHead(400, { "content-type": "application/json" }).end('{"error":"unsupported file"}');
    if (mode === "not-json") return void response.writeHead(200, { "content-type": "text/html" }).end("<html>gateway</html>");
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        task: "transcribe",
        language: "english",
        duration: 5,
        text: "Where were you born? In the valley, by the river.",
        segments: [
          { id: 0, start: 1.02, end: 2.2, text: " Where were you born?" },
          { id: 1, start: 3.1, end: 4.6, text: " In the valley, by the river." },
        ],
      }),
    );
  });
  const loopback = await listenOnLoopback(server, () => timers.forEach(clearTimeout));
  return Object.assign(loopback, { received });
}

let server: Awaited<ReturnType<typeof fakeTranscriptionServer>>;
let behaviour: Behaviour = "answer";

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  projectId = (await createProject(db.prisma)).id;
  const slug = () => `audio-${Math.random().toString(36).slice(2, 8)}`;
  openSection = (await db.prisma.section.create({ data: { slug: slug(), name: "Interviews", fields, egressPolicy: "allow_external" } })).slug;
  localSection = (await db.prisma.section.create({ data: { slug: slug(), name: "Private interviews", fields, egressPolicy: "local_only" } })).slug;
  curator = await memberPrincipal(db.prisma, projectId, { role: "curator", membership: "editor" });
  // A curator with only read access to the project: may read the record, never its drafts.
  reader = await memberPrincipal(db.prisma, projectId, { role: "curator", membership: "reader" });
  outsider = await principalOf(db.prisma, (await createUser(db.prisma, { role: "curator" })).id);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  spoken = spokenRecording(["Where were you born?", "In the valley, by the river."]);
  server = await fakeTranscriptionServer(() => behaviour);
}, 120_000);

closeAfterAll(
  () => server,
  () => db,
);

const quickRetries = { maxAttempts: 5, leaseSeconds: 60, backoffBaseSeconds: 0 };

function drain(speechToText: SpeechToText | null) {
  return runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, queue: quickRetries, audio: { storageDir, speechToText } });
}

async function interview(sectionSlug: string, bytes: Uint8Array = spoken.wav, name = "interview.wav") {
  const media = await storeMedia(db.prisma, curator, { projectId, file: { name, bytes }, expectedKind: "audio", storageDir, maxBytes: 10 * 1024 * 1024 });
  const record = await saveRecord(db.prisma, curator, { sectionSlug, projectId, values: { title: `Interview ${name}`, recording: media.id } });
  return { recordId: record.id, mediaId: media.id };
}

async function draftsOf(recordId: string) {
  return db.prisma.transcriptDraft.findMany({ where: { recordId }, orderBy: { source: "asc" } });
}

async function expectNotFound(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("not_found");
}

const speechModel = (options: { timeoutMs?: number; external?: boolean } = {}) =>
  createSpeechToText({ baseUrl: server.url, model: "fake-whisper", apiKey: "sk-test-secret-4321", ...options });

describe("audio intake in the index worker", () => {
  it("probes, makes a streamable copy, stores peaks and drafts timecoded empty turns from the silences", async () => {
    const { recordId, mediaId } = await interview(openSection);
    // The request stored the file only; the worker does the rest.
    expect(await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId } })).toMatchObject({ intake: "pending", streamKey: null, peaks: null });
    expect(await draftsOf(recordId)).toEqual([]);
    const progress = await drain(null);
    expect(progress.failed).toBe(0);

    const media = await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId } });
    expect(media.intake).toBe("ready");
    expect(media.durationSeconds).toBeCloseTo(spoken.durationSeconds, 1);
    expect(media.streamMime).toBe("audio/ogg");
    const peaks = media.peaks as [number, number][];
    expect(peaks.length).toBe(1000);
    expect(Math.max(...peaks.map(([, max]) => max))).toBeGreaterThan(0.2);
    // The lead-in second is silent in the waveform too.
    expect(peaks.slice(0, Math.floor((1000 * 0.9) / spoken.durationSeconds)).every(([min, max]) => max - min < 0.05)).toBe(true);

    // The player gets the Ogg Opus copy, with byte ranges; the original WAV is kept and served as it was.
    const stream = await mediaResponse(db.prisma, reader, { id: mediaId, range: null, method: "GET", storageDir, variant: "stream" });
    expect(stream.headers.get("content-type")).toBe("audio/ogg");
    const streamBytes = new Uint8Array(await stream.arrayBuffer());
    expect(new TextDecoder().decode(streamBytes.subarray(0, 4))).toBe("OggS");
    expect(streamBytes.byteLength).toBeLessThan(spoken.wav.byteLength / 4);
    const range = await mediaResponse(db.prisma, reader, { id: mediaId, range: "bytes=100-199", method: "GET", storageDir, variant: "stream" });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(streamBytes.subarray(100, 200));
    const original = await mediaResponse(db.prisma, reader, { id: mediaId, range: null, method: "GET", storageDir });
    expect(original.headers.get("content-type")).toBe("audio/wav");
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(spoken.wav);
    // Nobody outside the project gets the copy either: the same not found as a missing file.
    await expectNotFound(mediaResponse(db.prisma, outsider, { id: mediaId, range: null, method: "GET", storageDir, variant: "stream" }));

    const [draft] = await draftsOf(recordId);
    expect(draft).toMatchObject({ source: "segmentation", status: "ready", mediaId, fieldKey: "transcript" });
    const turns = draft?.turns as { start: number; end: number; text: string }[];
    expect(turns).toHaveLength(2);
    turns.forEach((turn, index) => {
      expect(Math.abs(turn.start - (spoken.speechStarts[index] ?? -1))).toBeLessThan(0.1);
      expect(turn.text).toBe("");
    });
    console.log(
      `segmentation: speech starts ${spoken.speechStarts.map((start) => start.toFixed(3)).join(", ")} s; found ${turns.map((turn) => turn.start).join(", ")} s`,
    );
  });

  it("offers the draft to editors only; using it fills empty turns that saving refuses by line", async () => {
    const { recordId } = await interview(openSection, spoken.wav, "editing.wav");
    await drain(null);
    const tools = await transcriptionToolsFor(db.prisma, curator, recordId, null);
    expect(tools.transcript).toMatchObject({ recording: { kind: "audio", intake: "ready" }, speechToText: null });
    // The curator is told what it means for them; the setting's name is for an administrator.
    expect(tools.transcript?.speechToTextOff).toMatch(/^Speech to text is not set up on this installation/);
    expect(tools.transcript?.speechToTextOff).not.toMatch(/MNEMO_/);
    expect(tools.transcript?.recording?.peaks).toHaveLength(1000);
    const [summary] = tools.transcript?.drafts ?? [];
    expect(summary).toMatchObject({ source: "segmentation", status: "ready", turnCount: 2 });

    for (const principal of [reader, outsider]) {
      await expectNotFound(transcriptionToolsFor(db.prisma, principal, recordId, null));
      await expectNotFound(applyTranscriptDraft(db.prisma, principal, { draftId: summary?.id ?? "" }));
      await expectNotFound(dismissTranscriptDraft(db.prisma, principal, { draftId: summary?.id ?? "" }));
      await expectNotFound(requestTranscription(db.prisma, principal, { recordId, fieldKey: "transcript" }, speechModel()));
    }
    // A missing draft and a malformed id are the same not found.
    await expectNotFound(applyTranscriptDraft(db.prisma, curator, { draftId: "00000000-0000-4000-8000-000000000000" }));
    await expectNotFound(applyTranscriptDraft(db.prisma, curator, { draftId: "nope" }));
    expect((await draftsOf(recordId))[0]?.status).toBe("ready");

    const used = await applyTranscriptDraft(db.prisma, curator, { draftId: summary?.id ?? "" });
    expect(used).toMatchObject({ fieldKey: "transcript", turns: 2, empty: 2 });
    const lines = used.text.split("\n");
    // An empty turn is its timecode and a space, where the archivist types "Speaker: text".
    expect(lines[0]).toMatch(/^\[00:01\.\d+ - 00:0\d\.\d+\] $/);
    expect(parseTranscriptText(used.text)).toEqual({ ok: false, error: "Line 1: the turn has no text." });
    expect(parseTranscriptText(`${lines[0]} Marta: Where were you born?\n${lines[1]}`)).toEqual({ ok: false, error: "Line 2: the turn has no text." });
    expect((await draftsOf(recordId))[0]?.status).toBe("applied");
    // Used once; it is no longer offered.
    expect((await transcriptionToolsFor(db.prisma, curator, recordId, null)).transcript?.drafts).toEqual([]);
    const events = await db.prisma.auditEvent.findMany({ where: { targetId: recordId, action: { startsWith: "transcript_draft." } } });
    expect(events.map((event) => event.action)).toEqual(["transcript_draft.applied"]);
  });

  it("does not offer a skeleton over a transcript already written, and marks an unreadable recording failed", async () => {
    const media = await storeMedia(db.prisma, curator, { projectId, file: { name: "typed.wav", bytes: spoken.wav }, storageDir, maxBytes: 10 * 1024 * 1024 });
    const typed = await saveRecord(db.prisma, curator, {
      sectionSlug: openSection,
      projectId,
      values: { title: "Typed", recording: media.id, transcript: [{ speaker: "Marta", start: 1, end: 2, text: "Where were you born?" }] },
    });
    // A WAV header over nothing ffmpeg can read.
    const broken = new Uint8Array(spoken.wav.subarray(0, 44));
    new DataView(broken.buffer).setUint16(20, 99, true);
    const damaged = await interview(openSection, broken, "damaged.wav");
    const progress = await drain(null);
    expect(progress.failed).toBe(0);
    expect((await db.prisma.media.findUniqueOrThrow({ where: { id: media.id } })).intake).toBe("ready");
    expect(await draftsOf(typed.id)).toEqual([]);
    expect(await db.prisma.media.findUniqueOrThrow({ where: { id: damaged.mediaId } })).toMatchObject({ intake: "failed", peaks: null, streamKey: null });
    expect(await draftsOf(damaged.recordId)).toEqual([]);
    const [event] = await db.prisma.auditEvent.findMany({ where: { action: "media.intake_failed", targetId: damaged.mediaId } });
    expect((event?.details as { reason: string }).reason).toMatch(/ffprobe|ffmpeg/);
  });
});

describe("transcription through an OpenAI-compatible endpoint", () => {
  it("sends the recording as a real multipart body and lands the answer as a ready draft", async () => {
    behaviour = "answer";
    const before = server.received.length;
    const { recordId, mediaId } = await interview(openSection, spoken.wav, "asr.wav");
    await drain(speechModel());
    const requests = server.received.slice(before);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const media = await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId } });
    // The streamable copy is what is sent: its exact bytes arrived, with the fields whisper servers read.
    expect(request?.file?.bytes).toEqual(new Uint8Array(await readFile(storagePath(storageDir, media.streamKey ?? "?"))));
    expect(request?.file).toMatchObject({ name: "asr.ogg", type: "audio/ogg" });
    expect(request?.fields).toEqual({ model: "fake-whisper", response_format: "verbose_json", "timestamp_granularities[]": "segment" });
    expect(request?.authorization).toBe("Bearer sk-test-secret-4321");

    const drafts = await draftsOf(recordId);
    expect(drafts.map((draft) => `${draft.source}:${draft.status}`)).toEqual(["segmentation:ready", "asr:ready"]);
    expect(drafts[1]).toMatchObject({ model: "fake-whisper", error: null, attempts: 1 });
    expect(drafts[1]?.turns).toEqual([
      { speaker: "", start: 1.02, end: 2.2, text: "Where were you born?" },
      { speaker: "", start: 3.1, end: 4.6, text: "In the valley, by the river." },
    ]);
    const tools = await transcriptionToolsFor(db.prisma, curator, recordId, speechModel());
    expect(tools.transcript?.speechToText).toEqual({ model: "fake-whisper", allowed: true });
    const used = await applyTranscriptDraft(db.prisma, curator, { draftId: drafts[1]?.id ?? "" });
    expect(parseTranscriptText(used.text)).toMatchObject({ ok: true, turns: [{ text: "Where were you born?" }, { text: "In the valley, by the river." }] });
  });

  it("retries a timeout and a 500 with the queue's backoff, then leaves a failed draft that says why", async () => {
    for (const [mode, message] of [
      ["hang", /no answer within 300 ms/],
      ["fail-500", /answered HTTP 500: model crashed/],
    ] as const) {
      behaviour = mode;
      const before = server.received.length;
      const { recordId } = await interview(openSection, spoken.wav, `${mode}.wav`);
      await drain(speechModel({ timeoutMs: 300 }));
      expect(server.received.length - before).toBe(maxTranscriptionAttempts);
      const asr = (await draftsOf(recordId)).find((draft) => draft.source === "asr");
      expect(asr).toMatchObject({ status: "failed", attempts: maxTranscriptionAttempts });
      expect(asr?.error).toMatch(message);
      expect(asr?.error).not.toContain("sk-test-secret-4321");
      // The record itself was indexed in the end: a failed transcription does not park it.
      expect(await db.prisma.indexQueueItem.count({ where: { recordId } })).toBe(0);
      const tools = await transcriptionToolsFor(db.prisma, curator, recordId, speechModel());
      expect(tools.transcript?.drafts.find((draft) => draft.source === "asr")).toMatchObject({ status: "failed", error: expect.stringMatching(message) });
    }
  });

  it("does not retry what a retry cannot fix: a 400 and an answer that is not JSON fail at once", async () => {
    for (const [mode, message] of [
      ["fail-400", /answered HTTP 400: \{"error":"unsupported file"\}/],
      ["not-json", /not JSON: <html>gateway<\/html>/],
    ] as const) {
      behaviour = mode;
      const before = server.received.length;
      const { recordId } = await interview(openSection, spoken.wav, `${mode}.wav`);
      await drain(speechModel());
      expect(server.received.length - before).toBe(1);
      const asr = (await draftsOf(recordId)).find((draft) => draft.source === "asr");
      expect(asr).toMatchObject({ status: "failed", attempts: 1 });
      expect(asr?.error).toMatch(message);
    }
  });

  it("never sends a local_only section's recording to an external endpoint, queued or asked for", async () => {
    behaviour = "answer";
    const external = speechModel({ external: true });
    const before = server.received.length;
    const { recordId, mediaId } = await interview(localSection, spoken.wav, "private.wav");
    await drain(external);
    expect(server.received.length).toBe(before);
    expect((await draftsOf(recordId)).map((draft) => draft.source)).toEqual(["segmentation"]);
    expect((await transcriptionToolsFor(db.prisma, curator, recordId, external)).transcript?.speechToText).toEqual({ model: "fake-whisper", allowed: false });
    const refused = await requestTranscription(db.prisma, curator, { recordId, fieldKey: "transcript" }, external).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "bad_request", message: expect.stringMatching(/stay on this server/) });
    // A draft queued before the section became local-only is checked again when its turn comes.
    await db.prisma.transcriptDraft.create({ data: { recordId, fieldKey: "transcript", mediaId, source: "asr", status: "pending", model: "fake-whisper" } });
    await db.prisma.indexQueueItem.create({ data: { recordId, reason: "test" } });
    await drain(external);
    expect(server.received.length).toBe(before);
    const asr = (await draftsOf(recordId)).find((draft) => draft.source === "asr");
    expect(asr).toMatchObject({ status: "failed", error: expect.stringMatching(/local only/) });

    // An endpoint on this host is a local receiver: the same section's recording may go to it.
    await drain(null);
    const { recordId: localRecord } = await interview(localSection, spoken.wav, "private-local.wav");
    await drain(speechModel());
    expect(server.received.length).toBe(before + 1);
    expect((await draftsOf(localRecord)).find((draft) => draft.source === "asr")?.status).toBe("ready");
  });

  it("lets an editor ask again (Transcribe with …), through the queue, and refuses when speech to text is off", async () => {
    behaviour = "answer";
    const { recordId } = await interview(openSection, spoken.wav, "again.wav");
    await drain(null);
    expect((await draftsOf(recordId)).map((draft) => draft.source)).toEqual(["segmentation"]);
    const off = await requestTranscription(db.prisma, curator, { recordId, fieldKey: "transcript" }, null).catch((error: unknown) => error);
    expect(off).toMatchObject({ code: "bad_request", message: expect.stringMatching(/^Speech to text is not set up on this installation/) });
    const wrongField = await requestTranscription(db.prisma, curator, { recordId, fieldKey: "title" }, speechModel()).catch((error: unknown) => error);
    expect(wrongField).toMatchObject({ code: "bad_request" });

    const { draftId } = await requestTranscription(db.prisma, admin, { recordId, fieldKey: "transcript" }, speechModel());
    expect(await db.prisma.transcriptDraft.findUniqueOrThrow({ where: { id: draftId } })).toMatchObject({ status: "pending", createdById: admin.userId });
    expect(await db.prisma.indexQueueItem.count({ where: { recordId } })).toBe(1);
    await drain(speechModel());
    expect((await db.prisma.transcriptDraft.findUniqueOrThrow({ where: { id: draftId } })).status).toBe("ready");
    await dismissTranscriptDraft(db.prisma, curator, { draftId });
    expect((await db.prisma.transcriptDraft.findUniqueOrThrow({ where: { id: draftId } })).status).toBe("dismissed");
    const actions = (await db.prisma.auditEvent.findMany({ where: { targetId: recordId }, orderBy: { at: "asc" } })).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(["transcript_draft.requested", "transcript_draft.dismissed"]));
  });

  it("keeps nothing behind when the record is deleted: drafts go with it, and the copy's file with the original", async () => {
    const { recordId, mediaId } = await interview(openSection, spoken.wav, "deleted.wav");
    await drain(null);
    expect((await draftsOf(recordId)).length).toBe(1);
    const media = await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId } });
    const record = await db.prisma.record.findUniqueOrThrow({ where: { id: recordId } });
    const { storageKeys } = await deleteRecord(db.prisma, curator, { id: recordId, version: record.version });
    expect(storageKeys.sort()).toEqual([media.storageKey, media.streamKey].sort());
    expect(await draftsOf(recordId)).toEqual([]);
  });
});
