import "server-only";
import type { SqlExecutor } from "../../db/sql-executor";
import { type CategoricalRole, categoricalRoles, proposalRoles } from "../config/object-context";
import type { ObjectSubject } from "./object-neighbours";
import { type TextSource, findTerms, fold, statedDate } from "./record-statements";
import { type RecordStatementsForRole, statedTerms } from "./respect-statements";

/**
 * What an object's record states about its roles, read from its own title and free-text fields
 * (never from the role fields themselves): the date it states, the vocabulary terms of each
 * categorical role it names, and the catalogued span of each period. The vocabulary of a role is
 * its category options, or for a text field the values it takes in the record's own project;
 * a period's span is the earliest to latest date of the objects catalogued with it in that
 * project — so nothing here comes from a project that a reader of the record's proposal could not read.
 */
export type SubjectStatements = Record<CategoricalRole | "date", RecordStatementsForRole>;

const freeText = new Set(["text", "longtext"]);

export function subjectTextSources(subject: Pick<ObjectSubject, "title" | "fields" | "values" | "context">): TextSource[] {
  const roleFields = new Set(proposalRoles.map((role) => subject.context.roles[role]).filter(Boolean));
  const sources: TextSource[] = [{ label: subject.fields.find((field) => field.key === "title")?.label ?? "Title", text: subject.title }];
  for (const field of subject.fields) {
    if (!freeText.has(field.type) || roleFields.has(field.key) || field.key === "title") continue;
    const value = subject.values[field.key];
    if (typeof value === "string" && value.trim()) sources.push({ label: field.label, text: value });
  }
  return sources;
}

export async function loadSubjectStatements(sql: SqlExecutor, subject: ObjectSubject): Promise<SubjectStatements> {
  const sources = subjectTextSources(subject);
  const date = statedDate(sources);
  const dateKey = subject.context.roles.date;
  const vocabularies = new Map<CategoricalRole, string[]>();
  let periodSpans = new Map<string, { from: number; to: number }>();
  for (const role of categoricalRoles) {
    const key = subject.context.roles[role];
    const field = key ? subject.fields.find((candidate) => candidate.key === key) : undefined;
    if (!key || !field) continue;
    const options = field.type === "category" ? field.options : [];
    const needValues = field.type !== "category";
    const needSpans = role === "period" && dateKey !== undefined;
    if (!needValues && !needSpans) {
      vocabularies.set(role, options);
      continue;
    }
    const rows = await sql.query<{ value: string; earliest: number | null; latest: number | null }>(
      `SELECT r."values"->>$1 AS value,
              min(CASE WHEN jsonb_typeof(r."values"->$2->'from') = 'number' THEN (r."values"->$2->>'from')::numeric END)::int AS earliest,
              max(CASE WHEN jsonb_typeof(r."values"->$2->'to') = 'number' THEN (r."values"->$2->>'to')::numeric END)::int AS latest
         FROM records r
        WHERE r.section_id = ANY($3::text[]) AND r.project_id = $4 AND r.id <> $5 AND jsonb_typeof(r."values"->$1) = 'string'
        GROUP BY 1 ORDER BY count(*) DESC LIMIT 1000`,
      [key, dateKey ?? "", subject.compareSectionIds, subject.projectId, subject.recordId],
    );
    vocabularies.set(role, needValues ? [...options, ...rows.map((row) => row.value)] : options);
    if (needSpans) {
      periodSpans = new Map(
        rows.filter((row) => row.earliest !== null && row.latest !== null).map((row) => [fold(row.value), { from: Number(row.earliest), to: Number(row.latest) }]),
      );
    }
  }
  const termsOf = (role: CategoricalRole) => {
    const vocabulary = vocabularies.get(role) ?? [];
    return vocabulary.length ? sources.flatMap((source) => findTerms(source.text, vocabulary).map((term) => ({ ...term, label: source.label }))) : [];
  };
  const terms = { typology: termsOf("typology"), material: termsOf("material"), period: termsOf("period") };
  const periods = statedTerms(terms.period);
  const statedPeriod = periods.length === 1 ? (periods[0]?.value ?? null) : null;
  const base = { date, periodSpans, statedPeriod };
  return {
    typology: { ...base, terms: terms.typology },
    material: { ...base, terms: terms.material },
    period: { ...base, terms: terms.period },
    date: { ...base, terms: [] },
  };
}
