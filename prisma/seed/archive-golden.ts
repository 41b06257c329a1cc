import { readFileSync } from "node:fs";
import { z } from "zod";
import { foldAccents } from "../../lib/language/fold-accents";

/**
 * The golden set of `npm run eval:archive` (prisma/seed/data/archive-golden.json): search queries
 * with graded relevance by record, and questions with the records that answer them and the facts
 * an answer must contain. Every item belongs to the dev half (tune here) or the test half (report
 * here). Relevance names records by exact title or by a rule over a section's field values, so a
 * query such as "silver denarius of Hadrian" can judge every coin that fits it.
 */
const language = z.enum(["en", "es", "ca"]);
const split = z.enum(["dev", "test"]);

const byTitle = z.strictObject({ title: z.string().min(1), grade: z.union([z.literal(1), z.literal(2)]) });
const byRule = z
  .strictObject({
    section: z.string().min(1),
    field: z.string().min(1),
    contains: z.string().min(1).optional(),
    equals: z.string().min(1).optional(),
    grade: z.union([z.literal(1), z.literal(2)]),
  })
  .refine((rule) => (rule.contains === undefined) !== (rule.equals === undefined), "a rule needs exactly one of contains and equals");

export const archiveGoldenSchema = z.object({
  description: z.string(),
  search: z.array(
    z.object({
      id: z.string().min(1),
      split,
      language,
      kinds: z.array(z.string()).default([]),
      query: z.string().min(1),
      relevant: z.array(z.union([byTitle, byRule])).min(1),
    }),
  ),
  ask: z.array(
    z.object({
      id: z.string().min(1),
      split,
      language,
      kinds: z.array(z.string()).default([]),
      question: z.string().min(1),
      records: z.array(z.string().min(1)),
      facts: z.array(z.array(z.string().min(1)).min(1)),
      evidence: z.string().optional(),
    }),
  ),
});
export type ArchiveGolden = z.output<typeof archiveGoldenSchema>;
export type SearchItem = ArchiveGolden["search"][number];
export type AskItem = ArchiveGolden["ask"][number];
export type Judgement = SearchItem["relevant"][number];

export function loadArchiveGolden(path: string): ArchiveGolden {
  const golden = archiveGoldenSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  const ids = [...golden.search, ...golden.ask].map((item) => item.id);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length) throw new Error(`golden set: repeated ids ${[...new Set(repeated)].join(", ")}`);
  return golden;
}

/** Lower case without accents or punctuation runs: "Campanes, Romà" ~ "campanes roma". */
export function foldText(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** A fact holds when any of its alternatives occurs in the answer as whole words. */
export function factHolds(answer: string, alternatives: readonly string[]): boolean {
  const haystack = ` ${foldText(answer)} `;
  return alternatives.some((alternative) => {
    const needle = foldText(alternative);
    return needle.length > 0 && haystack.includes(` ${needle} `);
  });
}

export interface JudgedRecord {
  id: string;
  title: string;
  sectionSlug: string;
  projectId: string;
  values: Record<string, unknown>;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Whether a record is what a judgement names. */
export function judges(judgement: Judgement, record: JudgedRecord): boolean {
  if ("title" in judgement) return record.title === judgement.title;
  if (record.sectionSlug !== judgement.section) return false;
  const value = valueText(record.values[judgement.field]);
  if (judgement.equals !== undefined) return value === judgement.equals;
  return foldText(value).includes(foldText(judgement.contains ?? ""));
}

/** Grades by record id (the highest grade when several judgements name a record). */
export function gradeRecords(relevant: readonly Judgement[], records: readonly JudgedRecord[]): Map<string, number> {
  const grades = new Map<string, number>();
  for (const judgement of relevant) {
    for (const record of records) {
      if (judges(judgement, record)) grades.set(record.id, Math.max(grades.get(record.id) ?? 0, judgement.grade));
    }
  }
  return grades;
}

/** Recall@k over what k results can hold: a query with 300 relevant coins is complete at 10 of them. */
export function cappedRecallAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged.values()].filter((grade) => grade > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length / Math.min(k, relevant);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}
