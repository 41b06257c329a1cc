import "server-only";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import pgvector from "pgvector";
import { type EgressPolicy, egressAllowed, mayLeaveHost } from "../../acl";
import type { FieldDefinition } from "../../archive/field-definitions";
import { openImage } from "../../archive/image-limits";
import { storagePath } from "../../archive/media-storage";
import type { SqlExecutor } from "../../db/sql-executor";
import type { Embedder } from "../embed/embedder";
import { embeddingTextHash } from "../embed/embedding-text-hash";
import type { IndexSpace } from "./index-spaces";
import { contextSpaceName, imageSpaceName } from "../embed/descriptor-embedder";
import type { ImageEmbedder } from "../embed/image-embedder";
import { contextText, readObjectContext } from "../config/object-context";

/**
 * The object half of indexing, run by the same durable queue as text: for each object record
 * (a section with an object context) it makes a thumbnail of every image field, an image vector
 * per image in each image space, and one vector of the object's catalogue context in the text
 * space. Unchanged images and context keep their vectors (source hash); the record's vectors are
 * replaced in ONE transaction, so images removed or replaced leave no stale vector behind.
 * Images of a section that may not egress never reach an external image embedder.
 */
export interface ObjectIndexing {
  sql: SqlExecutor;
  storageDir: string;
  imageEmbedders: readonly ImageEmbedder[];
  /** The text space and its embedder, for context vectors. */
  textSpace: IndexSpace;
  embedder: Embedder;
}

export interface ObjectIndexResult {
  images: number;
  described: number;
  thumbnails: number;
  withheld: number;
}

export const THUMBNAIL_SIDE = 160;

interface WantedVector {
  mediaId: string | null;
  fieldKey: string;
  view: string;
  kind: "image" | "context";
  space: string;
  sourceHash: string;
  compute: () => Promise<Float32Array>;
}

interface ObjectRow {
  id: string;
  values: Record<string, unknown>;
  fields: FieldDefinition[];
  object_context: unknown;
  egress_policy: EgressPolicy;
}

interface MediaRow {
  id: string;
  record_id: string | null;
  kind: string;
  mime: string;
  storage_key: string;
  thumbnail_key: string | null;
  sha256: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Stored under a key derived from the media id, so running again overwrites rather than piles up. */
export function thumbnailKeyFor(mediaId: string): string {
  return `thumbs/${mediaId}.webp`;
}

export async function makeThumbnail(bytes: Uint8Array): Promise<Buffer> {
  return openImage(bytes).rotate().resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: "inside", withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
}

export async function indexObjects(context: ObjectIndexing, recordIds: readonly string[]): Promise<ObjectIndexResult> {
  const result: ObjectIndexResult = { images: 0, described: 0, thumbnails: 0, withheld: 0 };
  if (recordIds.length === 0) return result;
  const { sql } = context;
  const records = await sql.query<ObjectRow>(
    `SELECT r.id, r."values", s.fields, s.object_context, s.egress_policy
       FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = ANY($1::text[])`,
    [[...recordIds]],
  );
  const media = await sql.query<MediaRow>(
    `SELECT id, record_id, kind, mime, storage_key, thumbnail_key, sha256 FROM media
      WHERE record_id = ANY($1::text[]) AND kind = 'image' AND image_check IS DISTINCT FROM 'undecodable'`,
    [[...recordIds]],
  );
  const mediaById = new Map(media.map((row) => [row.id, row]));
  const contextSpace = contextSpaceName(context.textSpace.id);
  const contextVectors = await embedContexts(context, records, contextSpace);

  for (const record of records) {
    const objectContext = readObjectContext(record.object_context);
    const wanted: WantedVector[] = [];
    if (objectContext) {
      for (const image of objectContext.images) {
        const mediaId = record.values[image.field];
        const row = typeof mediaId === "string" ? mediaById.get(mediaId) : undefined;
        if (!row || row.record_id !== record.id) continue;
        result.images++;
        let bytes: Uint8Array | undefined;
        const load = async () => (bytes ??= new Uint8Array(await readFile(storagePath(context.storageDir, row.storage_key))));
        if (!row.thumbnail_key) {
          const key = thumbnailKeyFor(row.id);
          const path = storagePath(context.storageDir, key);
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, await makeThumbnail(await load()));
          await sql.query(`UPDATE media SET thumbnail_key = $2 WHERE id = $1`, [row.id, key]);
          result.thumbnails++;
        }
        for (const embedder of context.imageEmbedders) {
          if (!mayLeaveHost(embedder, egressAllowed([record.egress_policy]))) {
            result.withheld++;
            continue;
          }
          const space = imageSpaceName(embedder);
          wanted.push({
            mediaId: row.id,
            fieldKey: image.field,
            view: image.view,
            kind: "image",
            space,
            sourceHash: sha256(`${space}:${image.view}:${row.sha256}`),
            compute: async () => {
              const [vector] = await embedder.embedImages([{ bytes: await load(), mime: row.mime }]);
              if (!vector || vector.length !== embedder.dimension) throw new Error(`the image embedder returned no vector of ${embedder.dimension} dimensions`);
              return vector;
            },
          });
        }
      }
      // The catalogue text goes through the text embedder: not to a remote one unless allowed.
      const text = embeddableContext(context, record);
      if (text) {
        wanted.push({
          mediaId: null,
          fieldKey: "",
          view: "",
          kind: "context",
          space: contextSpace,
          sourceHash: sha256(`${contextSpace}:${text}`),
          compute: async () => {
            const vector = contextVectors.get(text) ?? (await context.embedder.embed([text], "passage"))[0];
            if (!vector) throw new Error("the embedder returned no vector for the object context");
            return vector;
          },
        });
      }
    }

    const existing = await sql.query<{ space: string; field_key: string; source_hash: string }>(
      `SELECT space, field_key, source_hash FROM object_vectors WHERE record_id = $1`,
      [record.id],
    );
    const kept = new Set(existing.map((row) => `${row.space}|${row.field_key}|${row.source_hash}`));
    const fresh: { item: WantedVector; literal: string }[] = [];
    for (const item of wanted) {
      if (kept.has(`${item.space}|${item.fieldKey}|${item.sourceHash}`)) continue;
      fresh.push({ item, literal: pgvector.toSql(Array.from(await item.compute())) as string });
      result.described++;
    }
    await sql.transaction(async (tx) => {
      const keep = wanted.map((item) => `${item.space}|${item.fieldKey}`);
      await tx.query(`DELETE FROM object_vectors WHERE record_id = $1 AND NOT ((space || '|' || field_key) = ANY($2::text[]))`, [record.id, keep]);
      for (const { item, literal } of fresh) {
        await tx.query(
          `INSERT INTO object_vectors (id, record_id, media_id, field_key, view, kind, space, source_hash, embedding)
           VALUES (gen_random_uuid()::text, $1, $2, $3, $4, $5, $6, $7, $8::vector)
           ON CONFLICT (record_id, space, field_key) DO UPDATE
             SET media_id = EXCLUDED.media_id, view = EXCLUDED.view, kind = EXCLUDED.kind,
                 source_hash = EXCLUDED.source_hash, embedding = EXCLUDED.embedding, created_at = now()`,
          [record.id, item.mediaId, item.fieldKey, item.view, item.kind, item.space, item.sourceHash, literal],
        );
      }
    });
  }
  return result;
}

/** The catalogue context an object's vector is drawn from, or null when it has none or it may not leave the host for this embedder. */
function embeddableContext(context: ObjectIndexing, record: ObjectRow): string | null {
  const objectContext = readObjectContext(record.object_context);
  if (!objectContext) return null;
  const text = contextText(objectContext, record.fields, record.values);
  return text && mayLeaveHost(context.embedder, egressAllowed([record.egress_policy])) ? text : null;
}

/**
 * The batch's new or changed context vectors in one pass: texts many objects share ("Material:
 * bronze. Period: Roman Imperial.") are embedded once, through the text space's embedding
 * cache, and the rest in one call the model threads can share out, instead of one call per object.
 */
async function embedContexts(context: ObjectIndexing, records: readonly ObjectRow[], contextSpace: string): Promise<Map<string, Float32Array>> {
  const texts = new Map<string, string>();
  for (const record of records) {
    const text = embeddableContext(context, record);
    if (text) texts.set(record.id, text);
  }
  if (texts.size === 0) return new Map();
  const current = await context.sql.query<{ record_id: string; source_hash: string }>(
    `SELECT record_id, source_hash FROM object_vectors WHERE record_id = ANY($1::text[]) AND space = $2 AND field_key = ''`,
    [[...texts.keys()], contextSpace],
  );
  const unchanged = new Map(current.map((row) => [row.record_id, row.source_hash]));
  const needed = [...new Set([...texts].filter(([recordId, text]) => unchanged.get(recordId) !== sha256(`${contextSpace}:${text}`)).map(([, text]) => text))];
  if (needed.length === 0) return new Map();
  const spaceId = context.textSpace.id;
  const cached = await context.sql.query<{ text_hash: string; vector: string }>(
    `SELECT text_hash, embedding::text AS vector FROM embedding_cache WHERE index_space_id = $1 AND text_hash = ANY($2::text[])`,
    [spaceId, needed.map(embeddingTextHash)],
  );
  const byHash = new Map(cached.map((row) => [row.text_hash, Float32Array.from(pgvector.fromSql(row.vector) as number[])]));
  const vectors = new Map<string, Float32Array>();
  const missing: string[] = [];
  for (const text of needed) {
    const vector = byHash.get(embeddingTextHash(text));
    if (vector) vectors.set(text, vector);
    else missing.push(text);
  }
  if (missing.length) {
    const computed = await context.embedder.embed(missing, "passage");
    if (computed.length !== missing.length) throw new Error(`the embedder returned ${computed.length} vectors for ${missing.length} object contexts`);
    missing.forEach((text, index) => vectors.set(text, computed[index]!));
    await context.sql.query(
      `INSERT INTO embedding_cache (index_space_id, text_hash, embedding)
       SELECT $1, h, v::vector FROM unnest($2::text[], $3::text[]) AS t(h, v)
       ON CONFLICT DO NOTHING`,
      [spaceId, missing.map(embeddingTextHash), computed.map((vector) => pgvector.toSql(Array.from(vector)) as string)],
    );
  }
  return vectors;
}
