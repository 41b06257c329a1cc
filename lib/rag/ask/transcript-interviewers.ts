import "server-only";
import { type Principal, canRead } from "../../acl";
import type { FieldDefinition } from "../../archive/field-definitions";
import { relationTargetsByField } from "../../archive/validate-record-values";
import type { SqlExecutor } from "../../db/sql-executor";

/**
 * Who interviews in a transcript: the records its `interviewer` relation points to (a relation
 * field keyed or labelled "interviewer", "entrevistador(a)"), named as their titles — which is
 * how a transcript passage labels their turns ("Helen Ashworth: …"). Their turns ask; they are
 * never quoted as the answer. Only people the principal may read are named, so nothing about a
 * record they cannot read steers which sentence they are shown.
 */
const interviewerField = (field: FieldDefinition) =>
  field.type === "relation" && (/interview|entrevist/i.test(field.key) || /interview|entrevist/i.test(field.label));

export async function transcriptInterviewers(sql: SqlExecutor, principal: Principal, recordIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (recordIds.length === 0) return result;
  const rows = await sql.query<{ id: string; values: Record<string, unknown>; fields: FieldDefinition[] }>(
    `SELECT r.id, r."values", s.fields FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = ANY($1::text[])`,
    [[...new Set(recordIds)]],
  );
  const targetsOf = new Map(rows.map((row) => [row.id, [...relationTargetsByField(row.fields.filter(interviewerField), row.values).values()].flat()]));
  const targetIds = [...new Set([...targetsOf.values()].flat())];
  if (targetIds.length === 0) return result;
  const people = await sql.query<{ id: string; title: string; project_id: string }>(`SELECT id, title, project_id FROM records WHERE id = ANY($1::text[])`, [
    targetIds,
  ]);
  const readable = new Map(people.filter((person) => canRead(principal, { projectId: person.project_id })).map((person) => [person.id, person.title]));
  for (const [recordId, targets] of targetsOf) {
    const names = targets.flatMap((id) => (readable.has(id) ? [readable.get(id)!] : []));
    if (names.length > 0) result.set(recordId, names);
  }
  return result;
}
