import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { longTextHash } from "../../lib/archive/record-long-text";
import type { Database } from "../../lib/db/database";
import { englishTextParamsSchema, englishTextResponse, recordTextTranslations } from "../../lib/http/english-text-response";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import { createTextTranslator, type TextTranslator } from "../../lib/rag/embed/text-translation";
import { type BridgeLanguage, createTranslationBridge, type TranslationBridge } from "../../lib/rag/embed/translate";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * The English beside each paragraph of a long text, through the route's own wrapper and service:
 * a reader gets one entry per paragraph of a Catalan text with an English paragraph in it — the
 * Catalan ones translated by Apertium (the Debian packages apertium, apertium-eng-cat, as
 * .ci/run installs), the English one detected as English and left alone — made once and served
 * from the cache by content hash after. An outsider, a principal with no projects, a researcher
 * outside the restricted project, a field that is no long text and a malformed key all get the
 * 404 of a missing record. A bridge marked external (here a fake one on a loopback HTTP server)
 * receives nothing of a local_only section, and only the Spanish or Catalan paragraphs of one
 * that allows egress.
 */
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "body", label: "Text", type: "longtext" },
  { key: "notes", label: "Notes", type: "longtext" },
];

const catalanText = [
  "# La vaga",
  "Els miners de Sant Romà van deixar la feina a la mina durant tres setmanes l'hivern de 1952.",
  "[[page:2]]",
  "The archivist's note: this testimony was written down by the miner's daughter in 1978.",
  "",
  "L'aigua va inundar les galeries més baixes i les famílies van haver de marxar del poble.",
].join("\n");

/** A bridge that counts what it is asked, around the real Apertium bridge. */
function countingBridge() {
  const real = createTranslationBridge({ warn: () => undefined });
  const calls: { texts: string[]; from: BridgeLanguage }[] = [];
  const bridge: TranslationBridge = {
    status: () => real.status(),
    translateToEnglish: (texts: string[], from: BridgeLanguage) => {
      calls.push({ texts, from });
      return real.translateToEnglish(texts, from);
    },
  };
  return { bridge, calls };
}

/** An external translation service, faked on a loopback port: it records every body it receives. */
async function startFakeBridgeServer(): Promise<{ url: string; received: string[]; close: () => Promise<void>; server: Server }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push(body);
      const { texts } = JSON.parse(body) as { texts: string[] };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ texts: texts.map((text) => `EN ${text}`) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/translate`, received, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A bridge that sends text off the host: every translation is a POST to the fake service. */
function externalBridge(url: string): TranslationBridge & { external: true } {
  return {
    external: true,
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "fake external service" }),
    translateToEnglish: async (texts: string[], from: BridgeLanguage) => {
      const response = await fetch(url, { method: "POST", body: JSON.stringify({ texts, from }) });
      return ((await response.json()) as { texts: string[] }).texts;
    },
  };
}

let db: Database;
let section: { slug: string; id: string };
let openProjectId: string;
let restrictedProjectId: string;
let reader: Principal;
let outsider: Principal;
let researcherOutside: Principal;
let admin: Principal;
let catalanId: string;
let restrictedId: string;
let englishId: string;
const counted = countingBridge();
let translator: TextTranslator;
let fake: Awaited<ReturnType<typeof startFakeBridgeServer>>;

async function respond(principal: Principal, recordId: string, field: string, using: TextTranslator = translator) {
  const request = new Request(`http://mnemo.test/api/records/${encodeURIComponent(recordId)}/english/${encodeURIComponent(field)}`);
  const response = await runAuthorizedRoute(
    englishTextParamsSchema,
    (_incoming, { principal: signedIn, params }) => englishTextResponse(db.prisma, signedIn, { recordId: params.id, fieldKey: params.field }, using),
    async () => principal,
    request,
    { id: recordId, field },
  );
  return { status: response.status, headers: response.headers, body: await response.text() };
}

beforeAll(async () => {
  db = await openTestDatabase();
  fake = await startFakeBridgeServer();
  section = await createSection(db.prisma, fields);
  openProjectId = (await createProject(db.prisma)).id;
  restrictedProjectId = (await createProject(db.prisma, { restricted: true })).id;
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, openProjectId);
  await addMember(db.prisma, readerUser.id, restrictedProjectId);
  reader = await principalOf(db.prisma, readerUser.id);
  outsider = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  const researcher = await createUser(db.prisma);
  await addMember(db.prisma, researcher.id, openProjectId);
  researcherOutside = await principalOf(db.prisma, researcher.id);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  catalanId = (
    await createRecord(db.prisma, section, openProjectId, {
      title: "La vaga de 1952",
      body: catalanText,
      notes: "Only English here: the strike lasted three weeks.",
    })
  ).id;
  restrictedId = (await createRecord(db.prisma, section, restrictedProjectId, { title: "Tancament", body: catalanText })).id;
  englishId = (
    await createRecord(db.prisma, section, openProjectId, { title: "The closure", body: "The mine closed in 1961 and the village emptied within a decade." })
  ).id;
  translator = createTextTranslator({ bridge: counted.bridge });
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await db?.close();
});

interface Body {
  field: string;
  machineTranslation: string;
  from: string[];
  total: number;
  paragraphs: { language: string; english: string | null }[];
}

describe("the English beside a long text's paragraphs", () => {
  it("translates the Catalan paragraphs once, leaves the English one alone, and serves the cache after", async () => {
    const first = await respond(reader, catalanId, "body");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const body = JSON.parse(first.body) as Body;
    expect(body).toMatchObject({ field: "body", machineTranslation: "Apertium", from: ["ca"], total: 3 });
    expect(body.paragraphs.map((paragraph) => paragraph.language)).toEqual(["ca", "en", "ca"]);
    const [strike, note, water] = body.paragraphs;
    expect(strike?.english).toMatch(/\bminers\b/i);
    expect(strike?.english).toContain("Sant Romà");
    expect(strike?.english).not.toMatch(/\bfeina\b|setmanes/);
    expect(note?.english).toBeNull();
    expect(water?.english).toMatch(/\bwater\b/i);
    expect(counted.calls.flatMap((call) => call.texts).join("\n")).not.toContain("archivist");
    const runs = counted.calls.length;
    expect(runs).toBeGreaterThan(0);

    // Again, and by another reader: the cache answers, Apertium is not run.
    const again = await respond(admin, catalanId, "body");
    expect(again.body).toBe(first.body);
    expect(counted.calls).toHaveLength(runs);
    // The restricted copy of the same text is the same content hash: its readers share the cache.
    expect((await respond(reader, restrictedId, "body")).body).toBe(first.body);
    expect(counted.calls).toHaveLength(runs);

    // A changed text is another hash: translated once more.
    const row = await db.prisma.record.findUniqueOrThrow({ where: { id: catalanId } });
    await db.prisma.record.update({
      where: { id: catalanId },
      data: { values: { ...(row.values as object), body: `${catalanText}\n\nMoltes gràcies a tots.` } as never },
    });
    const changed = JSON.parse((await respond(reader, catalanId, "body")).body) as Body;
    expect(changed.total).toBe(4);
    expect(changed.paragraphs.at(-1)?.english).toMatch(/thank/i);
    expect(counted.calls.length).toBeGreaterThan(runs);
  }, 120_000);

  it("gives outsiders, a principal with no projects, a researcher outside the project, other fields and bad keys the 404 of a missing record", async () => {
    const missing = await respond(reader, randomUUID(), "body");
    expect(missing.status).toBe(404);
    const before = counted.calls.length;
    const cases = [
      await respond(outsider, catalanId, "body"),
      await respond(outsider, restrictedId, "body"),
      await respond(researcherOutside, restrictedId, "body"),
      await respond(reader, catalanId, "title"),
      await respond(reader, catalanId, "nothere"),
      await respond(reader, catalanId, "Body"),
      await respond(reader, catalanId, "../body"),
      await respond(reader, catalanId, "notes"), // English only: no English to make
      await respond(reader, englishId, "body"),
      await respond(reader, "not-a-uuid", "body"),
    ];
    for (const outcome of cases) expect({ status: outcome.status, body: outcome.body }).toEqual({ status: missing.status, body: missing.body });
    expect(counted.calls).toHaveLength(before);
    // Whoever may read the restricted record gets it.
    expect((await respond(admin, restrictedId, "body")).status).toBe(200);
  });

  it("offers the toggle on the record page only for long texts with Spanish or Catalan paragraphs", async () => {
    const fieldsOf = { section: { fields, egressPolicy: "local_only" } };
    const offered = await recordTextTranslations(
      { ...fieldsOf, values: { title: "x", body: catalanText, notes: "Only English here: the strike lasted three weeks." } },
      translator,
    );
    expect(offered).toEqual({ body: true, notes: false });
    expect(await recordTextTranslations({ ...fieldsOf, values: { title: "x" } }, translator)).toEqual({});
  });

  it("sends nothing of a local_only section to an external bridge, and only the Catalan paragraphs of one that allows egress", async () => {
    const external = createTextTranslator({ bridge: externalBridge(fake.url) });
    const localOnly = await db.prisma.section.findUniqueOrThrow({ where: { id: section.id } });
    expect(localOnly.egressPolicy).toBe("local_only");
    const refused = await respond(reader, catalanId, "body", external);
    expect(refused.status).toBe(404);
    expect(await external.offersEnglish({ text: catalanText, contentHash: longTextHash(catalanText), egressPolicy: "local_only" })).toBe(false);
    expect(await recordTextTranslations({ values: { body: catalanText }, section: { fields, egressPolicy: "local_only" } }, external)).toEqual({ body: false });
    expect(fake.received).toEqual([]);

    // A section that allows egress: the same external bridge gets the Catalan paragraphs, not the English one.
    const open = await createSection(db.prisma, fields);
    await db.prisma.section.update({ where: { id: open.id }, data: { egressPolicy: "allow_external" } });
    const sharedId = (await createRecord(db.prisma, open, openProjectId, { title: "Compartit", body: catalanText })).id;
    const allowed = await respond(reader, sharedId, "body", external);
    expect(allowed.status).toBe(200);
    const sent = fake.received.join("\n");
    expect(sent).toContain("Els miners");
    expect(sent).not.toContain("archivist");
    expect((JSON.parse(allowed.body) as Body).paragraphs[0]?.english).toMatch(/^EN Els miners/);
  }, 60_000);
});
