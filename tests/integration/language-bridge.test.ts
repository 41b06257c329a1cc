import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import type { Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { prepareForEmbedding } from "../../lib/rag/embed/bridge-text";
import { createTranslationBridge } from "../../lib/rag/embed/translate";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { indexRecord, indexRecords, type IndexingContext } from "../../lib/rag/index/index-record";
import { ensureIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { createProject, createRecord, indexingContext } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

// Needs the Debian packages apertium, apertium-eng-spa and apertium-eng-cat (as .ci/run installs).
let db: Database;
let space: IndexSpace;
let projectId: string;
// An English-only model, so Spanish and Catalan go through the bridge.
const embedder = createHashEmbedder({ dimension: 64, language: "en" });
const sectionSlug = `interviews-bridge-${Date.now()}`;
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "note", label: "Note", type: "text" },
  { key: "transcript", label: "Transcript", type: "transcript" },
];

function context(): Promise<IndexingContext> {
  return indexingContext(db.prisma, db.sql, space, embedder);
}

async function passages(recordId: string) {
  return db.sql.query<{ text: string; language: string; translated_text: string | null }>(
    `SELECT text, language, translated_text FROM chunks WHERE record_id = $1 AND index_space_id = $2 ORDER BY ordinal`,
    [recordId, space.id],
  );
}

beforeAll(async () => {
  db = await openTestDatabase();
  space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension: embedder.dimension, chunkerVersion: 1 });
  projectId = (await createProject(db.prisma)).id;
  await db.prisma.section.create({ data: { slug: sectionSlug, name: "Interviews", fields } });
  // Small passages, each field apart: the short note is detected on its own, the record as context.
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug,
    group: { slug: "text", label: "Text", fields: ["note", "transcript"], chunking: "long_document", maxTokens: 16, minTokens: 1, overlap: 0 },
  });
});
afterAll(async () => {
  await db.close();
});

describe(`language bridge while indexing (${testDatabaseMode()})`, { timeout: 120_000 }, () => {
  it("detects short Catalan turns with the record as context and keeps names through the bridge", async () => {
    const record = await createRecord(db.prisma, { slug: sectionSlug }, projectId, {
      title: "La Roser",
      note: "La porta era sempre oberta.",
      transcript: [
        { speaker: "Roser", start: 0, end: 6, text: "Vaig néixer a Sant Romà de Vall l'any 1931, a la casa del molí." },
        { speaker: "Roser", start: 6, end: 12, text: "El meu pare treballava a la mina i la meva mare cosia xarxes al moll." },
        { speaker: "Roser", start: 15, end: 20, text: "Roser va néixer al Port de la Calma, deia el meu avi." },
      ],
    });
    await indexRecord(await context(), record.id);
    const stored = await passages(record.id);
    const turn = (words: string) => stored.find((passage) => passage.text.includes(words));
    // Alone, this note is detected as Italian; the record around it is Catalan.
    expect(stored.find((passage) => passage.text === "Note: La porta era sempre oberta.")).toBeDefined();
    expect(turn("La porta era sempre oberta")?.language).toBe("ca");
    expect(turn("La porta era sempre oberta")?.translated_text).toMatch(/door/i);
    expect(stored.every((passage) => passage.language === "ca")).toBe(true);
    const names = stored.map((passage) => passage.translated_text ?? "").join("\n");
    expect(names).toContain("Sant Romà de Vall");
    expect(names).toContain("Port de la Calma");
    // "Roser" opens a sentence, but the record uses it as a name (the speaker label).
    expect(turn("Roser va néixer")?.translated_text).toMatch(/Roser\b.*\bborn/);
    expect(names).not.toMatch(/rosebush|\bvale\b|\bcalm\b/i);
  });

  it("trusts the declared language", async () => {
    const record = await createRecord(db.prisma, { slug: sectionSlug }, projectId, {
      title: "Carmen",
      language: "es",
      transcript: [{ speaker: "Carmen", start: 0, end: 4, text: "La sal se sacaba de las salinas." }],
    });
    await indexRecord(await context(), record.id);
    const [passage] = await passages(record.id);
    expect(passage?.language).toBe("es");
    expect(passage?.translated_text).toMatch(/salt/i);
  });

  it("gives the model the title in the passage's language too, names kept", async () => {
    const record = await createRecord(db.prisma, { slug: sectionSlug }, projectId, {
      title: "Les campanes de Sant Romà de Vall",
      language: "ca",
      note: "Les campanes es van portar en un camió, embolicades amb palla.",
    });
    await indexRecord(await context(), record.id);
    const [passage] = await db.sql.query<{ embedded_text: string; translated_text: string | null }>(
      `SELECT embedded_text, translated_text FROM chunks WHERE record_id = $1 AND index_space_id = $2 ORDER BY ordinal`,
      [record.id, space.id],
    );
    expect(passage?.translated_text).toMatch(/lorry|truck/i);
    const [prefix] = (passage?.embedded_text ?? "").split("\n");
    // The English-only model reads an English title before the English passage, not the Catalan one.
    expect(prefix).toMatch(/\bbells\b/i);
    expect(prefix).not.toContain("campanes");
    expect(prefix).toContain("Sant Romà de Vall");
  });

  it("translates a record's title with its own text as context, whatever records are indexed beside it", async () => {
    // "Mar" is a name where the record's text uses it as one, and the sea where it does not.
    const named = { title: "Mar y la barca", language: "es", note: "La barca de Mar salía del puerto cada mañana." };
    const unnamed = { title: "Mar y la barca", language: "es", note: "La barca salía del puerto cada mañana." };
    const prefixOf = async (recordId: string) => {
      const [passage] = await db.sql.query<{ embedded_text: string }>(`SELECT embedded_text FROM chunks WHERE record_id = $1 AND index_space_id = $2`, [
        recordId,
        space.id,
      ]);
      return passage?.embedded_text.split("\n")[0];
    };
    for (const namedFirst of [true, false]) {
      const a = await createRecord(db.prisma, { slug: sectionSlug }, projectId, named);
      const b = await createRecord(db.prisma, { slug: sectionSlug }, projectId, unnamed);
      await indexRecords(await context(), namedFirst ? [a.id, b.id] : [b.id, a.id]);
      expect([await prefixOf(a.id), await prefixOf(b.id)]).toEqual(["Mar and the boat", "Sea and the boat"]);
    }
  });

  it("bridges a query the way it bridges a passage (embedQuery's path)", async () => {
    const [query] = await prepareForEmbedding([{ text: "On va néixer la Roser, al Port de la Calma?" }], embedder);
    expect(query?.language).toBe("ca");
    expect(query?.translatedText).toContain("Roser");
    expect(query?.translatedText).toContain("Port de la Calma");
  });

  it("keeps a person's two surnames joined by i as one name, and translates the i between two people", async () => {
    const [turn, people] = await prepareForEmbedding(
      [
        { text: "Roser Cases i Mitjans: Les van pujar a un camió de l'empresa, lligades amb palla.", language: "ca" },
        { text: "Al moll hi treballaven en Josep Farré i la Maria Bosch, cada dia.", language: "ca" },
      ],
      embedder,
    );
    expect(turn?.translatedText).toMatch(/^Roser Cases i Mitjans: .*\btruck\b/);
    expect(people?.translatedText).toMatch(/Josep Farré and .*Maria Bosch/);
  });

  it("says Spanish 'dejar de' as stopping, not leaving, and keeps a wrapped line's lower case", async () => {
    const [stopped, page] = await prepareForEmbedding(
      [
        { text: "Dolores: Dejé de trabajar en 1967 y muchos dejaron de acudir a la lonja.", language: "es" },
        { text: "El pagament es farà en dues parts: la meitat en signar\nl'acta d'ocupació i la resta quan la família deixi la\n\ncasa.", language: "ca" },
      ],
      embedder,
    );
    expect(stopped?.translatedText).toMatch(/\bstopped working in 1967\b.*\bstopped attending\b/);
    expect(stopped?.translatedText).not.toMatch(/\bleft\b/);
    // Lines a scanned page wrapped go on in lower case; a sentence after a blank line may not start one.
    expect(page?.translatedText).toMatch(/\n(?:the )?record\b/);
    expect(page?.translatedText).toMatch(/\n\nhome\./);
  });

  it("glosses an irregular plural's possessive into Catalan as a compound, not as 'has' glued to the noun", async () => {
    const bridge = createTranslationBridge();
    const [wives, carmen] = (await bridge.translate(["Half the fishermen's wives mended nets.", "Carmen's husband was a fisherman."], "en", "ca")) ?? [];
    expect(wives).toMatch(/\bdones de pescadors\b/);
    expect(wives).not.toMatch(/han\b/);
    expect(carmen).toMatch(/\bmarit de Carmen\b/);
  });
});
