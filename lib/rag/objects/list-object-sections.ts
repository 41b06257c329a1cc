import "server-only";
import type { SqlExecutor } from "../../db/sql-executor";

export interface ObjectSection {
  id: string;
  slug: string;
  name: string;
}

/**
 * The sections whose records are objects (they have an object context), in the archive's order:
 * the collections object search and the review queue filter by. Sections are the archive's
 * structure, not its content, so every signed-in user may list them.
 */
export async function listObjectSections(sql: SqlExecutor): Promise<ObjectSection[]> {
  return sql.query<ObjectSection>(`SELECT id, slug, name FROM sections WHERE object_context IS NOT NULL ORDER BY position, slug`);
}
