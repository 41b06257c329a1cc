import "server-only";
import { createHash } from "node:crypto";
import pgvector from "pgvector";
import { egressAllowed, mayLeaveHost } from "../../acl";
import { lockSourceRecords, sourceProjectsSql } from "../../acl/derived-scope";
import type { SqlExecutor } from "../../db/sql-executor";
import { type DocumentRecord, buildGroupDocuments } from "../config/build-group-document";
import type { SectionShape } from "../config/embed-group-schema";
import type { EmbedGroup } from "../config/embed-groups";
import { CHUNKER_VERSION, chunkDocument, type DocumentChunk } from "../chunk";
import { BRIDGE_VERSION, type PreparedText, type TextToPrepare, prepareForEmbedding } from "../embed/bridge-text";
import type { Embedder } from "../embed/embedder";
import { embeddingTextHash } from "../embed/embedding-text-hash";
import type { IndexSpace } from "./index-spaces";
import { searchConfigOf, titleTermsOf } from "./search-configs";

/**
 * Indexes one record into one index space, incrementally: passages whose content hash is
 * unchanged keep their language, translation and vector; new text is language-checked,
 * bridged to English when the model needs it, looked up in the embedding cache, and only then
 * embedded. The record's passages in the space are replaced in ONE transaction, so a record
 * is never half-indexed and removed groups, languages or text are pruned with the upsert; their
 * scope is read there from their source records (lib/acl/derived-scope.ts), not from the plan.
 */
export interface IndexingContext {
  sql: SqlExecutor;
  space: IndexSpace;
  embedder: Embedder;
  sections: ReadonlyMap<string, SectionShape>;
  groupsBySection: ReadonlyMap<string, EmbedGroup[]>;
}

export interface IndexRecordResult {
  chunks: number;
  embedded: number;
  reused: number;
  cached: number;
  /** Passages an external embedder may not see (egress policy): stored without a vector. */
  withheld?: number;
}

interface PlannedChunk {
  recordId: string;
  group: EmbedGroup;
  chunk: DocumentChunk;
  prefix: string;
  contentHash: string;
  fieldPaths: string[];
  contributingSectionIds: string[];
  contributingProjectIds: string[];
  contributingRecordIds: string[];
  declaredLanguage: string | null;
  /** The group document the passage was cut from: context for its language and names. */
  documentText: string;
  language?: string;
  translatedText?: string | null;
  embeddedText?: string;
  vector?: string;
}

export async function loadDocumentRecords(sql: SqlExecutor, ids: string[]): Promise<Map<string, DocumentRecord>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{
    id: string;
    project_id: string;
    section_id: string;
    slug: string;
    title: string;
    values: Record<string, unknown>;
    version: number;
  }>(
    `SELECT r.id, r.project_id, r.section_id, s.slug, r.title, r."values", r.version FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = ANY($1::text[])`,
    [ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, projectId: row.project_id, sectionId: row.section_id, sectionSlug: row.slug, title: row.title, values: row.values, version: row.version },
    ]),
  );
}

/** The text OCR read on each page of a scan (pages it could not read have none). */
async function loadScanPages(sql: SqlExecutor, mediaId: string): Promise<{ page: number; text: string }[]> {
  return sql.query<{ page: number; text: string }>(`SELECT page, text FROM media_pages WHERE media_id = $1 AND status = 'read' ORDER BY page`, [mediaId]);
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export async function indexRecord(context: IndexingContext, recordId: string): Promise<IndexRecordResult> {
  const [result] = await indexRecords(context, [recordId]);
  return result ?? { chunks: 0, embedded: 0, reused: 0, cached: 0 };
}

/**
 * Indexes several records together: one language pass, one Apertium run per language, one
 * cache lookup and one embedding call for all their new passages, then one transaction per
 * record. If anything fails the whole call fails; the worker then retries record by record so
 * one bad record cannot hold back the others.
 */
export async function indexRecords(context: IndexingContext, recordIds: string[]): Promise<IndexRecordResult[]> {
  const { sql, space, embedder } = context;
  const records = await loadDocumentRecords(sql, recordIds);
  const sources = {
    sections: context.sections,
    loadRecords: (ids: string[]) => loadDocumentRecords(sql, ids),
    loadScanPages: (mediaId: string) => loadScanPages(sql, mediaId),
  };
  const plans = new Map<string, PlannedChunk[]>();
  for (const recordId of recordIds) {
    const record = records.get(recordId);
    // A record deleted meanwhile has no passages left (ON DELETE CASCADE).
    if (record) plans.set(recordId, await planRecord(record, context, sources));
  }
  const planned = [...plans.values()].flat();
  const results = new Map<string, IndexRecordResult>(recordIds.map((id) => [id, { chunks: plans.get(id)?.length ?? 0, embedded: 0, reused: 0, cached: 0 }]));

  // 1. Reuse what an earlier pass already computed for identical passages.
  const existing = await sql.query<{
    record_id: string;
    content_hash: string;
    language: string;
    translated_text: string | null;
    embedded_text: string;
    vector: string;
  }>(
    `SELECT record_id, content_hash, language, translated_text, embedded_text, embedding::text AS vector
       FROM chunks WHERE record_id = ANY($1::text[]) AND index_space_id = $2 AND embedding IS NOT NULL`,
    [[...plans.keys()], space.id],
  );
  const previous = new Map(existing.map((row) => [`${row.record_id}:${row.content_hash}`, row]));
  const fresh: PlannedChunk[] = [];
  for (const item of planned) {
    const earlier = previous.get(`${item.recordId}:${item.contentHash}`);
    if (earlier) {
      Object.assign(item, { language: earlier.language, translatedText: earlier.translated_text, embeddedText: earlier.embedded_text, vector: earlier.vector });
      const result = results.get(item.recordId);
      if (result) result.reused++;
    } else {
      fresh.push(item);
    }
  }

  // An external embedder never receives text of a section that may not leave the host: such
  // passages get their language and translation here (both local) but no vector, and keyword
  // search still finds them.
  const withheld = new Set<PlannedChunk>();
  if (embedder.external && fresh.length) {
    const policies = new Map(
      (await sql.query<{ id: string; egress_policy: string }>(`SELECT id, egress_policy FROM sections`)).map((row) => [row.id, row.egress_policy]),
    );
    for (const item of fresh) {
      if (mayLeaveHost(embedder, egressAllowed(item.contributingSectionIds.map((id) => policies.get(id))))) continue;
      withheld.add(item);
      const result = results.get(item.recordId);
      if (result) result.withheld = (result.withheld ?? 0) + 1;
    }
  }

  // 2. Language and bridge for new text, then the embedding cache, then the model.
  if (fresh.length) {
    const prepared = await prepareForEmbedding(
      fresh.map((item) => ({ text: item.chunk.text, language: item.declaredLanguage ?? undefined, context: item.documentText })),
      embedder,
    );
    const prefixes = await bridgedPrefixes(fresh, prepared, embedder);
    fresh.forEach((item, index) => {
      const bridge = prepared[index];
      item.language = bridge?.language ?? item.declaredLanguage ?? "und";
      item.translatedText = bridge?.translatedText ?? null;
      item.embeddedText = `${prefixes[index] ?? item.prefix}\n${bridge?.embeddedText ?? item.chunk.text}`;
    });
    const toEmbed = fresh.filter((item) => !withheld.has(item));
    const hashes = toEmbed.map((item) => embeddingTextHash(item.embeddedText ?? ""));
    const hits = await sql.query<{ text_hash: string; vector: string }>(
      `SELECT text_hash, embedding::text AS vector FROM embedding_cache WHERE index_space_id = $1 AND text_hash = ANY($2::text[])`,
      [space.id, [...new Set(hashes)]],
    );
    const fromCache = new Map(hits.map((row) => [row.text_hash, row.vector]));
    const missing = new Map<string, { text: string; recordId: string }>();
    toEmbed.forEach((item, index) => {
      const key = hashes[index] ?? "";
      const vector = fromCache.get(key);
      const result = results.get(item.recordId);
      if (vector) {
        item.vector = vector;
        if (result) result.cached++;
      } else if (!missing.has(key)) {
        missing.set(key, { text: item.embeddedText ?? "", recordId: item.recordId });
        if (result) result.embedded++;
      }
    });
    if (missing.size) {
      const keys = [...missing.keys()];
      const vectors = await embedder.embed(
        [...missing.values()].map((entry) => entry.text),
        "passage",
      );
      if (vectors.length !== keys.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${keys.length} texts`);
      const literals = vectors.map((vector) => {
        if (vector.length !== space.dimension) throw new Error(`the embedder returned ${vector.length} dimensions, the index space has ${space.dimension}`);
        return pgvector.toSql(Array.from(vector)) as string;
      });
      await sql.query(
        `INSERT INTO embedding_cache (index_space_id, text_hash, embedding)
         SELECT $1, h, v::vector FROM unnest($2::text[], $3::text[]) AS t(h, v)
         ON CONFLICT DO NOTHING`,
        [space.id, keys, literals],
      );
      const byKey = new Map(keys.map((key, index) => [key, literals[index]]));
      toEmbed.forEach((item, index) => {
        item.vector ??= byKey.get(hashes[index] ?? "");
      });
    }
  }

  // 3. Replace each record's passages in this space in one transaction.
  for (const [recordId, items] of plans) {
    const record = records.get(recordId);
    if (record) await replacePassages(sql, space, record, items);
  }
  return recordIds.map((id) => results.get(id) ?? { chunks: 0, embedded: 0, reused: 0, cached: 0 });
}

/**
 * The prefix (record title › headings) in the language the passage is embedded in: a passage
 * the bridge translated for an English-only model gets its prefix translated from the same
 * language, with the record's names kept as written, so the model never reads a Spanish or
 * Catalan title in front of English text (a short record whose title is its text would
 * otherwise be half foreign). Untranslated passages keep their prefix as written.
 * Each prefix is translated with its own group document as context (the names it keeps come
 * from there), once per document: shared across documents, the first passage of a batch
 * would decide it for the others, and the same record would get another prefix depending on
 * which records were indexed with it or which of its passages were already indexed.
 */
async function bridgedPrefixes(items: readonly PlannedChunk[], prepared: readonly PreparedText[], embedder: Embedder): Promise<(string | undefined)[]> {
  const wanted = new Map<string, TextToPrepare>();
  const keyOf = (item: PlannedChunk, index: number): string | undefined => {
    const bridge = prepared[index];
    if (!bridge?.translatedText || !item.prefix.trim()) return undefined;
    return `${bridge.language}\n${item.prefix}\n${item.documentText}`;
  };
  items.forEach((item, index) => {
    const key = keyOf(item, index);
    if (key && !wanted.has(key)) wanted.set(key, { text: item.prefix, language: prepared[index]?.language, context: item.documentText });
  });
  if (wanted.size === 0) return items.map(() => undefined);
  const translated = await prepareForEmbedding([...wanted.values()], embedder);
  const byKey = new Map([...wanted.keys()].map((key, index) => [key, translated[index]?.embeddedText]));
  return items.map((item, index) => {
    const key = keyOf(item, index);
    return key ? byKey.get(key) : undefined;
  });
}

async function planRecord(
  record: DocumentRecord,
  context: IndexingContext,
  sources: { sections: ReadonlyMap<string, SectionShape>; loadRecords: (ids: string[]) => Promise<Map<string, DocumentRecord>> },
): Promise<PlannedChunk[]> {
  const planned: PlannedChunk[] = [];
  for (const group of context.groupsBySection.get(record.sectionId) ?? []) {
    // One document per scope (buildGroupDocuments); their passages are numbered on through the group.
    let ordinal = 0;
    for (const document of await buildGroupDocuments(record, group, sources)) {
      const chunks = chunkDocument(document.text, { mode: group.chunking, maxTokens: group.maxTokens, minTokens: group.minTokens, overlap: group.overlap }).map(
        (chunk) => ({ ...chunk, ordinal: ordinal + chunk.ordinal }),
      );
      ordinal += chunks.length;
      for (const chunk of chunks) {
        const prefix = [record.title, ...chunk.headingPath].join(" › ");
        planned.push({
          recordId: record.id,
          group,
          chunk,
          prefix,
          contentHash: hash(`${CHUNKER_VERSION}\n${BRIDGE_VERSION}\n${context.space.id}\n${document.language ?? ""}\n${prefix}\n${chunk.text}`),
          fieldPaths: document.fieldPaths,
          contributingSectionIds: document.contributingSectionIds,
          contributingProjectIds: document.contributingProjectIds,
          contributingRecordIds: document.contributingRecordIds,
          declaredLanguage: document.language,
          documentText: document.text,
        });
      }
    }
  }
  return planned;
}

async function replacePassages(sql: SqlExecutor, space: IndexSpace, record: DocumentRecord, planned: PlannedChunk[]): Promise<void> {
  const recordId = record.id;
  await sql.transaction(async (tx) => {
    // One writer per record and space at a time. A worker that stalled past its lease and the
    // worker that took its claim over may both get here; without the lock, Postgres would let
    // each delete only the passages it can see and insert its own, doubling them.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`chunks:${recordId}:${space.id}`]);
    // The passages' scope is read from their source records below, as they are now; a save
    // moving one of them meanwhile waits for this transaction and then re-scopes what it wrote.
    await lockSourceRecords(tx, [recordId, ...planned.flatMap((item) => item.contributingRecordIds)]);
    // A record saved since it was read is left to the pass its save queued, so a stalled worker
    // never puts an older version's passages over a newer one's.
    const [current] = await tx.query<{ version: number }>(`SELECT version FROM records WHERE id = $1`, [recordId]);
    if (!current || (record.version !== undefined && current.version !== record.version)) return;
    await tx.query(`DELETE FROM chunks WHERE record_id = $1 AND index_space_id = $2`, [recordId, space.id]);
    if (planned.length === 0) return;
    const column = <T>(pick: (item: PlannedChunk, index: number) => T) => planned.map(pick);
    await tx.query(
      `INSERT INTO chunks (id, record_id, project_id, section_id, embed_group_id, index_space_id, language, ordinal, text,
                           embedded_text, translated_text, start_offset, end_offset, heading_path, page, page_end,
                           time_start, time_end, field_keys, contributing_section_ids, contributing_project_ids,
                           contributing_record_ids, content_hash, token_count, embedding, search_vector)
       SELECT gen_random_uuid()::text, $1, $2, $3, t.group_id, $4, t.language, t.ordinal, t.text,
              t.embedded_text, t.translated_text, t.start_offset, t.end_offset,
              ARRAY(SELECT json_array_elements_text(t.heading_path::json)), t.page, t.page_end, t.time_start, t.time_end,
              ARRAY(SELECT json_array_elements_text(t.field_keys::json)),
              ARRAY(SELECT json_array_elements_text(t.sections::json)),
              ${sourceProjectsSql("source.record_ids", "source.planned_project_ids")},
              source.record_ids, t.content_hash, t.token_count, t.vector::vector,
              setweight(to_tsvector(t.config::regconfig, unaccent(t.text)), 'A')
                || setweight(to_tsvector('english'::regconfig, unaccent(coalesce(t.translated_text, ''))), 'B')
                || setweight(to_tsvector(t.config::regconfig, unaccent(t.title_terms)), 'C')
         FROM unnest($5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[], $11::int[], $12::int[],
                     $13::text[], $14::int[], $15::int[], $16::float8[], $17::float8[], $18::text[], $19::text[],
                     $20::text[], $21::text[], $22::int[], $23::text[], $24::text[], $25::text[], $26::text[])
           AS t(group_id, language, ordinal, text, embedded_text, translated_text, start_offset, end_offset,
                heading_path, page, page_end, time_start, time_end, field_keys, sections, projects,
                content_hash, token_count, vector, config, title_terms, records)
         CROSS JOIN LATERAL (SELECT ARRAY(SELECT json_array_elements_text(t.records::json)) AS record_ids,
                                    ARRAY(SELECT json_array_elements_text(t.projects::json)) AS planned_project_ids) AS source`,
      [
        record.id,
        record.projectId,
        record.sectionId,
        space.id,
        column((item) => item.group.id),
        column((item) => item.language ?? "und"),
        column((item) => item.chunk.ordinal),
        column((item) => item.chunk.text),
        column((item) => item.embeddedText ?? ""),
        column((item) => item.translatedText ?? null),
        column((item) => item.chunk.startOffset),
        column((item) => item.chunk.endOffset),
        column((item) => JSON.stringify(item.chunk.headingPath)),
        column((item) => item.chunk.page),
        column((item) => item.chunk.pageEnd),
        column((item) => item.chunk.timeStart),
        column((item) => item.chunk.timeEnd),
        column((item) => JSON.stringify(item.fieldPaths)),
        column((item) => JSON.stringify(item.contributingSectionIds)),
        column((item) => JSON.stringify(item.contributingProjectIds)),
        column((item) => item.contentHash),
        column((item) => item.chunk.tokenCount),
        column((item) => item.vector ?? null),
        column((item) => searchConfigOf(item.language)),
        column((item) => titleTermsOf(record.title, item.chunk.text)),
        column((item) => JSON.stringify(item.contributingRecordIds)),
      ],
    );
  });
}
