import "server-only";
import type { SqlExecutor } from "../../db/sql-executor";

export interface SectionIndexStats {
  sectionId: string;
  sectionSlug: string;
  sectionName: string;
  records: number;
  /** Records with at least one passage in the space. */
  indexed: number;
  pending: number;
  running: number;
  failed: number;
  oldestPendingSeconds: number | null;
  groups: { groupId: string; slug: string; label: string; records: number; chunks: number }[];
}

/** Pending, running, failed, oldest pending age and coverage per section and group, for one space. */
export async function indexStats(sql: SqlExecutor, spaceId: string): Promise<SectionIndexStats[]> {
  const sections = await sql.query<{
    id: string;
    slug: string;
    name: string;
    records: number;
    indexed: number;
    pending: number;
    running: number;
    failed: number;
    oldest: number | null;
  }>(
    `SELECT s.id, s.slug, s.name,
            count(r.id)::int AS records,
            count(r.id) FILTER (WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.record_id = r.id AND c.index_space_id = $1))::int AS indexed,
            count(q.id) FILTER (WHERE q.status = 'pending')::int AS pending,
            count(q.id) FILTER (WHERE q.status = 'running')::int AS running,
            count(q.id) FILTER (WHERE q.status = 'parked')::int AS failed,
            extract(epoch FROM now() - min(q.created_at) FILTER (WHERE q.status <> 'parked'))::float8 AS oldest
       FROM sections s
       LEFT JOIN records r ON r.section_id = s.id
       LEFT JOIN index_queue q ON q.record_id = r.id
      GROUP BY s.id, s.slug, s.name, s.position
      ORDER BY s.position, s.name`,
    [spaceId],
  );
  const groups = await sql.query<{ section_id: string; id: string; slug: string; label: string; records: number; chunks: number }>(
    `SELECT g.section_id, g.id, g.slug, g.label,
            count(DISTINCT c.record_id)::int AS records, count(c.id)::int AS chunks
       FROM embed_groups g LEFT JOIN chunks c ON c.embed_group_id = g.id AND c.index_space_id = $1
      GROUP BY g.id ORDER BY g.slug`,
    [spaceId],
  );
  return sections.map((section) => ({
    sectionId: section.id,
    sectionSlug: section.slug,
    sectionName: section.name,
    records: section.records,
    indexed: section.indexed,
    pending: section.pending,
    running: section.running,
    failed: section.failed,
    oldestPendingSeconds: section.oldest === null ? null : Math.round(section.oldest),
    groups: groups
      .filter((group) => group.section_id === section.id)
      .map((group) => ({ groupId: group.id, slug: group.slug, label: group.label, records: group.records, chunks: group.chunks })),
  }));
}
