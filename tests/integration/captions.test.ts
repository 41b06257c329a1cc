import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { FieldDefinition, TranscriptTurn } from "../../lib/archive/field-definitions";
import { parseSrt, parseWebVtt } from "../../lib/archive/transcript-formats";
import type { Database } from "../../lib/db/database";
import { captionRouteParamsSchema, captionsResponse, recordCaptions } from "../../lib/http/captions-response";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import { type CaptionTranslator, createCaptionTranslator } from "../../lib/rag/embed/caption-translation";
import { type ArchiveLanguage, type BridgeLanguage, createTranslationBridge, type TranslationBridge } from "../../lib/rag/embed/translate";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * Transcripts out as captions, through the route's own wrapper and service: a reader gets the
 * WebVTT and SRT of an interview (the same turns, read back by the parsers); an outsider, a
 * researcher who is not in the restricted mine-closure project, a field that is no transcript and
 * a malformed file name all get exactly the 404 of a missing record. The English track of a
 * Spanish interview comes from Apertium (the Debian packages apertium, apertium-eng-spa,
 * apertium-eng-cat, as .ci/run installs), counted: a second request does not run it again, and a
 * changed transcript runs it once more. A bridge marked external gets nothing of a local_only
 * section.
 */
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "transcript", label: "Transcript", type: "transcript" },
];

const spanishTurns: TranscriptTurn[] = [
  { speaker: "Entrevistadora", start: 0, end: 4.5, text: "Buenos días. ¿Dónde nació usted?" },
  {
    speaker: "Andrés Martín",
    start: 4.8,
    end: 16.25,
    text: "Nací en el pueblo, al lado de la iglesia, y mi padre trabajaba en la mina de carbón & en el huerto.",
  },
  { speaker: "Andrés Martín", start: 3725.5, end: 3731, text: "El agua llegó en invierno." },
];

/** A bridge that counts what it is asked, around the real Apertium bridge. */
function countingBridge(options: { external?: boolean } = {}) {
  const real = createTranslationBridge({ warn: () => undefined });
  const calls: { texts: string[]; from: ArchiveLanguage; to: ArchiveLanguage }[] = [];
  const bridge: TranslationBridge & { external?: boolean } = {
    external: options.external,
    status: () => real.status(),
    translateToEnglish: (texts: string[], from: BridgeLanguage) => {
      calls.push({ texts, from, to: "en" });
      return real.translateToEnglish(texts, from);
    },
    translate: (texts: string[], from: ArchiveLanguage, to: ArchiveLanguage) => {
      calls.push({ texts, from, to });
      return real.translate(texts, from, to);
    },
  };
  return { bridge, calls };
}

let db: Database;
let section: { slug: string; id: string };
let openProjectId: string;
let mineProjectId: string;
let reader: Principal;
let outsider: Principal;
let researcherOutsideMine: Principal;
let admin: Principal;
let spanishId: string;
let mineId: string;
let noTranscriptId: string;
const counted = countingBridge();
let translator: CaptionTranslator;

async function respond(principal: Principal, recordId: string, file: string, using: CaptionTranslator = translator) {
  // As the route runs it: the wrapper validates the params, then the service answers.
  const request = new Request(`http://mnemo.test/api/records/${encodeURIComponent(recordId)}/captions/${encodeURIComponent(file)}`);
  const response = await runAuthorizedRoute(
    captionRouteParamsSchema,
    (_incoming, { principal: signedIn, params }) => captionsResponse(db.prisma, signedIn, { recordId: params.id, file: params.file }, using),
    async () => principal,
    request,
    { id: recordId, file },
  );
  return { status: response.status, headers: response.headers, body: await response.text() };
}

beforeAll(async () => {
  db = await openTestDatabase();
  section = await createSection(db.prisma, fields);
  openProjectId = (await createProject(db.prisma)).id;
  mineProjectId = (await createProject(db.prisma, { restricted: true })).id;
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, openProjectId);
  await addMember(db.prisma, readerUser.id, mineProjectId);
  reader = await principalOf(db.prisma, readerUser.id);
  outsider = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  const researcher = await createUser(db.prisma);
  await addMember(db.prisma, researcher.id, openProjectId);
  researcherOutsideMine = await principalOf(db.prisma, researcher.id);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  spanishId = (await createRecord(db.prisma, section, openProjectId, { title: "Entrevista a Andrés", language: "es", transcript: spanishTurns })).id;
  mineId = (await createRecord(db.prisma, section, mineProjectId, { title: "Cierre de la mina", language: "es", transcript: spanishTurns })).id;
  noTranscriptId = (await createRecord(db.prisma, section, openProjectId, { title: "Sin transcripción", summary: "Nada." })).id;
  translator = createCaptionTranslator({ bridge: counted.bridge });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe("captions out", () => {
  it("serves a reader the transcript as WebVTT: voice spans, hour-long times, the same turns read back", async () => {
    const { status, headers, body } = await respond(reader, spanishId, "transcript.vtt");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(headers.get("content-disposition")).toBe('attachment; filename="entrevista-a-andres-transcript.vtt"');
    expect(body.startsWith("WEBVTT\nKind: captions\nLanguage: es\n")).toBe(true);
    expect(body).toContain("<v Entrevistadora>Buenos días. ¿Dónde nació usted?");
    expect(body).toContain("01:02:05.500 --> 01:02:11.000\n<v Andrés Martín>El agua llegó en invierno.");
    expect(body).toContain("&amp; en el huerto");
    const parsed = parseWebVtt(body);
    expect(parsed.problems).toEqual([]);
    // The long turn is split into two cues; joined, the turns are the stored ones.
    expect(parsed.turns.map((turn) => turn.text).join(" ")).toBe(spanishTurns.map((turn) => turn.text).join(" "));
    expect(parsed.turns[0]).toEqual(spanishTurns[0]);
    expect(parsed.turns.at(-1)).toEqual(spanishTurns[2]);
  });

  it("serves the same transcript as SRT", async () => {
    const { status, headers, body } = await respond(reader, spanishId, "transcript.srt");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    expect(headers.get("content-disposition")).toContain('filename="entrevista-a-andres-transcript.srt"');
    expect(body.startsWith("1\n00:00:00,000 --> 00:00:04,500\nEntrevistadora: Buenos días.")).toBe(true);
    const parsed = parseSrt(body);
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns.map((turn) => `${turn.speaker}|${turn.text}`)[0]).toBe("Entrevistadora|Buenos días. ¿Dónde nació usted?");
  });

  it("gives an outsider, a researcher outside the restricted mine project, a non-transcript field and a bad file name the 404 of a missing record", async () => {
    const missing = await respond(reader, randomUUID(), "transcript.vtt");
    expect(missing.status).toBe(404);
    const cases = [
      await respond(outsider, spanishId, "transcript.vtt"),
      await respond(outsider, spanishId, "transcript.en.srt"),
      await respond(outsider, spanishId, "transcript.en.json"),
      await respond(reader, spanishId, "transcript.json"),
      await respond(researcherOutsideMine, mineId, "transcript.vtt"),
      await respond(researcherOutsideMine, mineId, "transcript.en.vtt"),
      await respond(reader, spanishId, "summary.vtt"),
      await respond(reader, spanishId, "title.srt"),
      await respond(reader, spanishId, "nothere.vtt"),
      await respond(reader, noTranscriptId, "transcript.vtt"),
      await respond(reader, spanishId, "transcript.txt"),
      await respond(reader, spanishId, "../../etc/passwd"),
      await respond(reader, "not-a-uuid", "transcript.vtt"),
    ];
    for (const outcome of cases) expect({ status: outcome.status, body: outcome.body }).toEqual({ status: missing.status, body: missing.body });
    // Whoever may read the restricted record gets it.
    expect((await respond(reader, mineId, "transcript.vtt")).status).toBe(200);
    expect((await respond(admin, mineId, "transcript.srt")).status).toBe(200);
    // No Apertium for anyone refused.
    expect(counted.calls.filter((call) => call.texts.some((text) => text.includes("Buenos")))).toHaveLength(0);
  });

  it("makes the English track of a Spanish interview with Apertium once, and serves it from the cache after", async () => {
    const first = await respond(reader, spanishId, "transcript.en.vtt");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-disposition")).toContain('filename="entrevista-a-andres-transcript.en.vtt"');
    expect(first.body).toContain("Language: en");
    expect(first.body).toContain("machine translation from Spanish");
    const english = parseWebVtt(first.body);
    expect(english.problems).toEqual([]);
    const text = english.turns.map((turn) => turn.text).join(" ");
    expect(text).toMatch(/\bwhere\b/i);
    expect(text).toMatch(/\b(water|winter)\b/i);
    expect(text).not.toMatch(/¿Dónde|agua|invierno/);
    // The speakers are kept, and a name is not translated.
    expect(english.turns[0]?.speaker).toBe("Entrevistadora");
    expect(english.turns.at(-1)?.speaker).toBe("Andrés Martín");
    expect(english.turns.at(-1)?.start).toBe(3725.5);
    expect(counted.calls).toHaveLength(1);
    expect(counted.calls[0]).toMatchObject({ from: "es", to: "en" });

    // Again, as SRT, and by another reader: the cache answers.
    const again = await respond(reader, spanishId, "transcript.en.vtt");
    expect(again.body).toBe(first.body);
    const srt = await respond(admin, spanishId, "transcript.en.srt");
    expect(srt.status).toBe(200);
    expect(
      parseSrt(srt.body)
        .turns.map((turn) => turn.text)
        .join(" "),
    ).toBe(text);
    // The record page's "English beside each turn": the same English, one turn per original turn.
    const json = await respond(reader, spanishId, "transcript.en.json");
    expect(json.status).toBe(200);
    const beside = JSON.parse(json.body) as { language: string; translatedFrom: string; turns: { start: number; speaker: string; text: string }[] };
    expect(beside).toMatchObject({ language: "en", translatedFrom: "es" });
    expect(beside.turns.map((turn) => [turn.start, turn.speaker])).toEqual(spanishTurns.map((turn) => [turn.start, turn.speaker]));
    expect(beside.turns.map((turn) => turn.text).join(" ")).toBe(text);
    expect(counted.calls).toHaveLength(1);

    // A changed transcript is another hash: translated once more.
    const row = await db.prisma.record.findUniqueOrThrow({ where: { id: spanishId } });
    const changed = [...spanishTurns, { speaker: "Entrevistadora", start: 3732, end: 3735, text: "Muchas gracias." }];
    await db.prisma.record.update({ where: { id: spanishId }, data: { values: { ...(row.values as object), transcript: changed } as never } });
    const updated = await respond(reader, spanishId, "transcript.en.vtt");
    expect(updated.status).toBe(200);
    expect(updated.body).toMatch(/thank/i);
    expect(counted.calls).toHaveLength(2);
    await respond(reader, spanishId, "transcript.en.vtt");
    expect(counted.calls).toHaveLength(2);
  }, 120_000);

  it("has no English track for an English interview, nor from an external bridge for a local_only section", async () => {
    const englishId = (
      await createRecord(db.prisma, section, openProjectId, {
        title: "Harbour",
        language: "en",
        transcript: [{ speaker: "A", start: 0, end: 2, text: "The lamp burned whale oil." }],
      })
    ).id;
    const missing = await respond(reader, randomUUID(), "transcript.en.vtt");
    const noEnglish = await respond(reader, englishId, "transcript.en.vtt");
    expect({ status: noEnglish.status, body: noEnglish.body }).toEqual({ status: missing.status, body: missing.body });
    expect((await respond(reader, englishId, "transcript.vtt")).status).toBe(200);

    const external = countingBridge({ external: true });
    const externalTranslator = createCaptionTranslator({ bridge: external.bridge });
    const input = { turns: spanishTurns, contentHash: "h", declaredLanguage: "es", egressPolicy: "local_only" };
    expect(await externalTranslator.offersEnglish(input)).toBe(false);
    expect((await respond(reader, spanishId, "transcript.en.vtt", externalTranslator)).status).toBe(404);
    expect(external.calls).toHaveLength(0);
    // The same external bridge may translate a section that allows egress.
    expect(await externalTranslator.offersEnglish({ ...input, egressPolicy: "allow_external" })).toBe(true);
    expect(await translator.offersEnglish(input)).toBe(true);
  }, 120_000);

  it("tells the record page each transcript's language and English track, translating nothing, for readers only", async () => {
    const before = counted.calls.length;
    const page = (principal: Principal, id: string) => recordCaptions(db.prisma, principal, { id, section: { fields } }, translator);
    expect(await page(reader, spanishId)).toEqual({ transcript: { language: "es", english: true } });
    expect(await page(reader, mineId)).toEqual({ transcript: { language: "es", english: true } });
    expect(await page(researcherOutsideMine, mineId)).toEqual({});
    expect(await page(outsider, spanishId)).toEqual({});
    expect(await page(reader, noTranscriptId)).toEqual({});
    expect(counted.calls.length).toBe(before);
  }, 60_000);

  it("answers a translation failure with 503, not a 500, and caches no failure", async () => {
    let failures = 0;
    const failing = createCaptionTranslator({
      bridge: {
        status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "" }),
        translateToEnglish: async () => {
          failures++;
          throw new Error("apertium broke");
        },
      },
    });
    const first = await respond(reader, mineId, "transcript.en.vtt", failing);
    expect(first.status).toBe(503);
    expect(first.body).toContain("could not be made");
    await respond(reader, mineId, "transcript.en.vtt", failing);
    expect(failures).toBe(2);
  });
});
