import "server-only";

/**
 * Through what a record was saved, as its version in `record_versions` says it. The row itself is
 * written by a database trigger on every insert and version change of a record (migration
 * 20261209010000_record_versions), so no write path can skip it; the path names itself for its
 * transaction with `keepVersionsAs`, and the trigger copies that into the row. A path that does
 * not is recorded as "unknown" — still kept, with the person (the record's updated_by_id).
 */
export const saveChannels = ["form", "api", "mcp", "proposal", "version-restore", "import", "bulk-load", "project-restore", "earlier", "unknown"] as const;
export type SaveChannel = (typeof saveChannels)[number];

export interface SaveThrough {
  via: Exclude<SaveChannel, "earlier" | "unknown">;
  /** The API token of an api or mcp save (its name is looked up and kept with the version). */
  apiTokenId?: string;
  /** The import job of an import save. */
  importJobId?: string;
  /** The proposal decided, when it was a stored one. */
  proposalId?: string;
  /** The field a proposal decision wrote. */
  role?: string;
  /** The version a version-restore brought back. */
  restoredFrom?: number;
  /** The project restore's archived slug. */
  archivedSlug?: string;
}

interface RawQuery {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Names the saving path for the rest of the transaction (`set_config(…, true)`: transaction-local,
 * gone at commit or rollback). Call it inside the transaction, before the record is written. The
 * API token's name is copied in, so the history still names it after the token is deleted.
 */
export async function keepVersionsAs(tx: RawQuery, through: SaveThrough): Promise<void> {
  const context = Object.fromEntries(Object.entries(through).filter(([, value]) => value !== undefined));
  await tx.$queryRawUnsafe(
    `SELECT set_config('mnemo.record_save',
       ($1::jsonb || COALESCE((SELECT jsonb_build_object('apiTokenName', name) FROM api_tokens WHERE id = $1::jsonb ->> 'apiTokenId'), '{}'::jsonb))::text,
       true)::text AS set`,
    JSON.stringify(context),
  );
}
