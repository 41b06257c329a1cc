import "server-only";
import { readFile } from "node:fs/promises";
import { auditSql } from "../db/audit";
import type { SqlExecutor } from "../db/sql-executor";
import { truncateText } from "../storable-text";
import { decodeProblem } from "./image-limits";
import { storagePath } from "./media-storage";

export interface ImageVerification {
  decoded: number;
  undecodable: number;
}

/**
 * Decodes every pixel of the records' images still pending since their upload (whose request
 * read only the header), and records the outcome: `decoded`, or `undecodable` with an audit
 * event naming the decoder's reason. An undecodable image keeps its file and row — nothing a
 * person uploaded is thrown away — but it is served as a download, shown as damaged and left
 * out of thumbnails and image vectors. Run by the index worker before it indexes the records'
 * objects; a file missing on disk fails the record (retried), like any other read.
 */
export async function verifyPendingImages(sql: SqlExecutor, storageDir: string, recordIds: readonly string[]): Promise<ImageVerification> {
  const result: ImageVerification = { decoded: 0, undecodable: 0 };
  if (recordIds.length === 0) return result;
  const pending = await sql.query<{ id: string; project_id: string; record_id: string; storage_key: string; original_name: string }>(
    `SELECT id, project_id, record_id, storage_key, original_name FROM media
      WHERE record_id = ANY($1::text[]) AND image_check = 'pending' ORDER BY id`,
    [[...recordIds]],
  );
  for (const image of pending) {
    const bytes = new Uint8Array(await readFile(storagePath(storageDir, image.storage_key)));
    const problem = await decodeProblem(bytes);
    if (!problem) {
      await sql.query(`UPDATE media SET image_check = 'decoded' WHERE id = $1 AND image_check = 'pending'`, [image.id]);
      result.decoded++;
      continue;
    }
    await sql.transaction(async (tx) => {
      await tx.query(`UPDATE media SET image_check = 'undecodable' WHERE id = $1 AND image_check = 'pending'`, [image.id]);
      await auditSql(tx, {
        action: "media.undecodable",
        targetType: "media",
        targetId: image.id,
        projectId: image.project_id,
        details: { recordId: image.record_id, originalName: image.original_name, reason: truncateText(problem, 300) },
      });
    });
    result.undecodable++;
  }
  return result;
}
