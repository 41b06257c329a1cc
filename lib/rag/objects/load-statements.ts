import "server-only";
import { LRUCache } from "lru-cache";
import type { FieldDefinition } from "../../archive/field-definitions";
import type { SqlExecutor } from "../../db/sql-executor";
import { type CategoricalRole, type ObjectContext, categoricalRoles, dateRangeOf, proposalRoles, roleValue } from "../config/object-context";
import type { ObjectSubject } from "./object-neighbours";
import { type StatedTerm, type TextSource, approximateToleranceYears, findTerms, fold, isPlaceholderValue, statedDate } from "./record-statements";
import { type RecordStatementsForRole, disjoint, statedTerms } from "./respect-statements";

/**
 * What an object's record states about its roles, read from its own title and free-text fields
 * (never from the role fields themselves): the date it states, the vocabulary terms of each
 * categorical role it names, and the catalogued span of each period.
 *
 * From the catalogue of the record's own project and collection (so nothing comes from a project
 * a reader of the record's proposal could not read), cached for a minute:
 *  - a role's vocabulary: its category options, or for a text field the values it takes;
 *  - a period's span: the earliest to latest date of the objects catalogued with it;
 *  - which fields are reliable witnesses: a field whose statements for a role disagree with the
 *    catalogued value on more than 10% of at least 10 catalogued objects (of up to 200 checked)
 *    is not read for that role — a print's "Etching on paper" names its support, while the
 *    material catalogued is the medium. A field the catalogue cannot check yet is believed;
 *  - the role's other names in the section's data: the values of a field that names the typology
 *    in other words (a coin's "Denomination"), each resolved to the one real role value the
 *    catalogue gives it ("Diobol" → obol), or else kept as a term outside the role's values
 *    ("Quadrans", catalogued only as "other"): stated, respected, never proposed.
 */
export type SubjectStatements = Record<CategoricalRole | "date", RecordStatementsForRole>;

const freeText = new Set(["text", "longtext"]);
export const calibrationSample = 200;
export const minimumCalibrated = 10;
export const minimumAgreement = 0.9;
const factsTtlMs = 60_000;

export function subjectTextSources(subject: {
  title: string;
  fields: readonly FieldDefinition[];
  values: Record<string, unknown>;
  context: ObjectContext;
}): TextSource[] {
  const roleFields = new Set(proposalRoles.map((role) => subject.context.roles[role]).filter(Boolean));
  const sources: TextSource[] = [{ label: subject.fields.find((field) => field.key === "title")?.label ?? "Title", text: subject.title }];
  for (const field of subject.fields) {
    if (!freeText.has(field.type) || roleFields.has(field.key) || field.key === "title") continue;
    const value = subject.values[field.key];
    if (typeof value === "string" && value.trim()) sources.push({ label: field.label, text: value });
  }
  return sources;
}

/** Fields that name a role in other words, by key or label (English, Spanish, Catalan). */
const roleAliasFields: Partial<Record<CategoricalRole, RegExp>> = {
  typology: /^(?:denomination|denominaci[oó]n?|denominaci[oó])$/i,
};

/** What a term of a role's other names resolves to: the real role value it is catalogued with, or none. */
export interface AliasTerm {
  term: string;
  /** The one real (non-placeholder) role value the catalogue gives the term; null when none or several. */
  value: string | null;
}

/**
 * A role's terms found in a text: its own vocabulary as written, and its other names resolved
 * (aliases, by folded term). Pure.
 */
export function roleTermsIn(text: string, vocabulary: readonly string[], aliases: ReadonlyMap<string, AliasTerm>): StatedTerm[] {
  const own = new Set(vocabulary.map(fold));
  const extra = [...aliases.values()].map((alias) => alias.term).filter((term) => !own.has(fold(term)));
  return findTerms(text, extra.length ? [...vocabulary, ...extra] : vocabulary).map((found): StatedTerm => {
    if (own.has(fold(found.value))) return found;
    const alias = aliases.get(fold(found.value));
    return alias?.value ? { value: alias.value, text: found.text } : { value: found.value, text: found.text, outside: true };
  });
}

/** Resolves each term of an alias field to the role values catalogued with it (rows: term, role value, count). */
export function resolveAliases(rows: readonly { term: string; value: string; count: number }[]): Map<string, AliasTerm> {
  const byTerm = new Map<string, { term: string; values: Set<string>; spelt: Map<string, string> }>();
  for (const row of rows) {
    const term = row.term.trim();
    if (!term || isPlaceholderValue(term)) continue;
    const key = fold(term);
    const entry = byTerm.get(key) ?? { term, values: new Set<string>(), spelt: new Map<string, string>() };
    if (!isPlaceholderValue(row.value)) {
      entry.values.add(fold(row.value));
      entry.spelt.set(fold(row.value), row.value);
    }
    byTerm.set(key, entry);
  }
  return new Map(
    [...byTerm.entries()].map(([key, entry]) => [
      key,
      { term: entry.term, value: entry.values.size === 1 ? (entry.spelt.get([...entry.values][0] as string) ?? null) : null },
    ]),
  );
}

interface CatalogueFacts {
  vocabularies: Map<CategoricalRole, string[]>;
  /** Per role, its other names in the section's data (folded term → resolution). */
  aliases: Map<CategoricalRole, Map<string, AliasTerm>>;
  periodSpans: Map<string, { from: number; to: number }>;
  /** Per role, the labels of fields whose statements the catalogue contradicts too often. */
  unreliable: Map<CategoricalRole | "date", Set<string>>;
}

/** A section's catalogue facts, read again after a minute; the 256 most recently used kept. */
const factsCache = new LRUCache<string, CatalogueFacts>({ max: 256, ttl: factsTtlMs });

async function catalogueFacts(sql: SqlExecutor, subject: ObjectSubject): Promise<CatalogueFacts> {
  const key = [subject.projectId, subject.sectionId, ...subject.compareSectionIds].join("|");
  const cached = factsCache.get(key);
  if (cached) return cached;
  const dateKey = subject.context.roles.date;
  const vocabularies = new Map<CategoricalRole, string[]>();
  let periodSpans = new Map<string, { from: number; to: number }>();
  for (const role of categoricalRoles) {
    const fieldKey = subject.context.roles[role];
    const field = fieldKey ? subject.fields.find((candidate) => candidate.key === fieldKey) : undefined;
    if (!fieldKey || !field) continue;
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
        WHERE r.section_id = ANY($3::text[]) AND r.project_id = $4 AND jsonb_typeof(r."values"->$1) = 'string'
        GROUP BY 1 ORDER BY count(*) DESC LIMIT 1000`,
      [fieldKey, dateKey ?? "", subject.compareSectionIds, subject.projectId],
    );
    vocabularies.set(role, needValues ? [...options, ...rows.map((row) => row.value)] : options);
    if (needSpans) {
      periodSpans = new Map(
        rows
          .filter((row) => row.earliest !== null && row.latest !== null)
          .map((row) => [fold(row.value), { from: Number(row.earliest), to: Number(row.latest) }]),
      );
    }
  }

  const aliases = new Map<CategoricalRole, Map<string, AliasTerm>>();
  for (const role of categoricalRoles) {
    const fieldKey = subject.context.roles[role];
    const pattern = roleAliasFields[role];
    if (!fieldKey || !pattern) continue;
    const roleKeys = new Set(Object.values(subject.context.roles));
    const aliasFields = subject.fields.filter(
      (field) => (field.type === "text" || field.type === "category") && !roleKeys.has(field.key) && (pattern.test(field.key) || pattern.test(field.label)),
    );
    const rows: { term: string; value: string; count: number }[] = [];
    for (const field of aliasFields) {
      const found = await sql.query<{ term: string; value: string; count: number }>(
        `SELECT r."values"->>$1 AS term, r."values"->>$2 AS value, count(*)::int AS count
           FROM records r
          WHERE r.section_id = ANY($3::text[]) AND r.project_id = $4 AND jsonb_typeof(r."values"->$1) = 'string' AND jsonb_typeof(r."values"->$2) = 'string'
          GROUP BY 1, 2 LIMIT 2000`,
        [field.key, fieldKey, subject.compareSectionIds, subject.projectId],
      );
      rows.push(...found.map((row) => ({ ...row, count: Number(row.count) })));
    }
    if (rows.length) aliases.set(role, resolveAliases(rows));
  }

  // Calibration: how often each field's statements agree with what is catalogued.
  const sample = await sql.query<{ title: string; values: Record<string, unknown> }>(
    `SELECT r.title, r."values" FROM records r WHERE r.section_id = $1 AND r.project_id = $2 ORDER BY r.id LIMIT ${calibrationSample}`,
    [subject.sectionId, subject.projectId],
  );
  const tally = new Map<string, { checked: number; agreed: number }>();
  const count = (role: CategoricalRole | "date", label: string, agrees: boolean) => {
    const entry = tally.get(`${role}\u0000${label}`) ?? { checked: 0, agreed: 0 };
    entry.checked++;
    if (agrees) entry.agreed++;
    tally.set(`${role}\u0000${label}`, entry);
  };
  for (const record of sample) {
    const sources = subjectTextSources({ title: record.title, fields: subject.fields, values: record.values, context: subject.context });
    for (const role of categoricalRoles) {
      const catalogued = fold(roleValue(subject.context, role, record.values));
      const vocabulary = vocabularies.get(role) ?? [];
      if (!catalogued || vocabulary.length === 0) continue;
      for (const source of sources) {
        const stated = statedTerms(roleTermsIn(source.text, vocabulary, aliases.get(role) ?? new Map()).map((term) => ({ ...term, label: source.label })));
        // A term the role's field cannot take is no disagreement the catalogue could settle.
        if (stated.length === 1 && !stated[0]?.outside) count(role, source.label, fold(stated[0]?.value ?? "") === catalogued);
      }
    }
    const catalogued = dateKey ? dateRangeOf(record.values[dateKey]) : null;
    if (!catalogued) continue;
    for (const source of sources) {
      const stated = statedDate([source]);
      if (stated) count("date", source.label, !disjoint(stated, catalogued, stated.approximate ? approximateToleranceYears : 0));
    }
  }
  const unreliable = new Map<CategoricalRole | "date", Set<string>>();
  for (const [tallyKey, { checked, agreed }] of tally) {
    if (checked < minimumCalibrated || agreed / checked >= minimumAgreement) continue;
    const [role, label] = tallyKey.split("\u0000") as [CategoricalRole | "date", string];
    unreliable.set(role, new Set([...(unreliable.get(role) ?? []), label]));
  }

  const facts = { vocabularies, aliases, periodSpans, unreliable };
  factsCache.set(key, facts);
  return facts;
}

export async function loadSubjectStatements(sql: SqlExecutor, subject: ObjectSubject): Promise<SubjectStatements> {
  const facts = await catalogueFacts(sql, subject);
  const sources = subjectTextSources(subject);
  const reliable = (role: CategoricalRole | "date") => sources.filter((source) => !facts.unreliable.get(role)?.has(source.label));
  const termsOf = (role: CategoricalRole) => {
    const vocabulary = facts.vocabularies.get(role) ?? [];
    const aliases = facts.aliases.get(role) ?? new Map<string, AliasTerm>();
    return vocabulary.length || aliases.size
      ? reliable(role).flatMap((source) => roleTermsIn(source.text, vocabulary, aliases).map((term) => ({ ...term, label: source.label })))
      : [];
  };
  const date = statedDate(reliable("date"));
  const terms = { typology: termsOf("typology"), material: termsOf("material"), period: termsOf("period") };
  const periods = statedTerms(terms.period);
  const statedPeriod = periods.length === 1 ? (periods[0]?.value ?? null) : null;
  const base = { date, periodSpans: facts.periodSpans, statedPeriod };
  return {
    typology: { ...base, terms: terms.typology },
    material: { ...base, terms: terms.material },
    period: { ...base, terms: terms.period },
    date: { ...base, terms: [] },
  };
}
