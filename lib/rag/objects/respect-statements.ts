/**
 * Proposals that respect the record: what the record's own text states (record-statements.ts)
 * is evidence that outranks the neighbours' votes. Pure, so the rules can be tested exactly.
 *
 * - A categorical role (typology, material, period) whose vocabulary the text names once is
 *   proposed as that term, "stated in the record"; a neighbours' winner that differs is flagged.
 * - A period whose catalogued span (the earliest to latest date of the objects catalogued with
 *   it) lies wholly outside the stated date contradicts it.
 * - A proposed date range wholly outside the stated one contradicts it; a stated date is itself
 *   the date proposal. Without a stated date, a stated period's span bounds the date the same way.
 * - A contradicted winner is never proposed: the best-voted value consistent with the record is
 *   proposed instead (with its own share as the confidence) and the contradiction is flagged; if no
 *   vote is consistent, nothing is proposed and the flag stands alone.
 * - A placeholder ("unidentified", "other", "desconegut"…) is never proposed, and neighbours that
 *   vote one are no evidence for anything: the best real value is the winner, at its own share.
 * - A term stated from the section's data that the role's field cannot take ("Quadrans" where the
 *   typologies are classes) is respected but not proposed: every other value contradicts it.
 */
import type { CategoricalRole } from "../config/object-context";
import type { CategoricalProposal, DateProposal } from "./characterise-math";
import { type DateStatement, type StatedTerm, approximateToleranceYears, fold, isPlaceholderValue } from "./record-statements";

export type RoleValue = string | { from: number; to: number };

export interface StatementSource {
  /** The field it is written in ("Title"). */
  label: string;
  /** The words as written ("323 BC - 150 BC", "Stater"). */
  text: string;
}

export interface StatedValue {
  value: RoleValue;
  sources: StatementSource[];
}

export interface ProposalFlag {
  /** What the neighbours voted (their winner), which is not proposed. */
  vote: RoleValue;
  /** The winner's share of the votes (or the date's confidence). */
  share: number;
  /** What it contradicts, in words: 'the title states "323 BC - 150 BC"'. */
  contradicts: string;
}

export interface Judgement {
  /** The value to propose, or null when nothing consistent with the record remains. */
  value: RoleValue | null;
  confidence: number;
  source: "stated" | "votes" | null;
  stated: StatedValue | null;
  flag: ProposalFlag | null;
}

export interface RecordStatementsForRole {
  /** Terms of this role's vocabulary found in the record's text. */
  terms: (StatedTerm & { label: string })[];
  /** The record's date statement (span of the dates it states). */
  date: { from: number; to: number; approximate: boolean; statements: DateStatement[] } | null;
  /** Catalogued span of each value of the period role (folded value → years), when known. */
  periodSpans: ReadonlyMap<string, { from: number; to: number }>;
  /** For the date role: the record's stated period, if it states exactly one. */
  statedPeriod: string | null;
}

export function formatYears(range: { from: number; to: number }): string {
  const year = (y: number) => (y < 0 ? `${-y} BC` : y < 1000 ? `AD ${y}` : String(y));
  return range.from === range.to ? year(range.from) : `${year(range.from)} – ${year(range.to)}`;
}

function quote(sources: readonly StatementSource[]): string {
  return [...new Set(sources.map((source) => `the ${source.label.toLowerCase()} states “${source.text}”`))].join(" and ");
}

/** Whether two ranges are disjoint, allowing `slack` years of imprecision. */
export function disjoint(a: { from: number; to: number }, b: { from: number; to: number }, slack = 0): boolean {
  return a.to < b.from - slack || b.to < a.from - slack;
}

function dateSources(date: NonNullable<RecordStatementsForRole["date"]>): StatementSource[] {
  return date.statements.map((statement) => ({ label: statement.label, text: statement.text }));
}

/** The distinct stated values of a categorical role (placeholders never count). */
export function statedTerms(terms: RecordStatementsForRole["terms"]): { value: string; sources: StatementSource[]; outside?: boolean }[] {
  const byValue = new Map<string, { value: string; sources: StatementSource[]; outside?: boolean }>();
  for (const term of terms) {
    if (isPlaceholderValue(term.value)) continue;
    const key = fold(term.value);
    const entry = byValue.get(key) ?? { value: term.value, sources: [], ...(term.outside ? { outside: true } : {}) };
    entry.sources.push({ label: term.label, text: term.text });
    byValue.set(key, entry);
  }
  return [...byValue.values()];
}

export function judgeCategorical(role: CategoricalRole, votes: CategoricalProposal | null, statements: RecordStatementsForRole): Judgement {
  const stated = statedTerms(statements.terms);
  const statedKeys = new Set(stated.map((term) => fold(term.value)));
  const date = role === "period" ? statements.date : null;
  const slack = date?.approximate ? approximateToleranceYears : 0;
  /** Why a value contradicts the record, or null when it does not. */
  const conflict = (value: string): string | null => {
    if (stated.length > 0 && !statedKeys.has(fold(value))) return quote(stated.flatMap((term) => term.sources));
    const span = date ? statements.periodSpans.get(fold(value)) : undefined;
    if (date && span && disjoint(span, date, slack)) {
      return `${quote(dateSources(date))}, outside ${value} (catalogued ${formatYears(span)})`;
    }
    return null;
  };
  const single = stated.length === 1 ? (stated[0] as { value: string; sources: StatementSource[]; outside?: boolean }) : null;
  // Placeholder votes are no evidence: the winner is the best real value, at its own share.
  const real = (votes?.votes ?? []).filter((vote) => !isPlaceholderValue(vote.value));
  const winner = real[0]?.value ?? null;
  const winnerShare = real[0]?.share ?? 0;
  const winnerConflict = winner === null ? null : conflict(winner);
  const flag = winner !== null && winnerConflict !== null ? { vote: winner, share: winnerShare, contradicts: winnerConflict } : null;
  if (single?.outside) return { value: null, confidence: 0, source: null, stated: { value: single.value, sources: single.sources }, flag };
  if (single) return { value: single.value, confidence: 1, source: "stated", stated: { value: single.value, sources: single.sources }, flag };
  if (winner !== null && winnerConflict === null) return { value: winner, confidence: winnerShare, source: "votes", stated: null, flag: null };
  // The winner contradicts the record: the best vote that does not, if any.
  const consistent = real.find((vote) => conflict(vote.value) === null);
  if (consistent) return { value: consistent.value, confidence: consistent.share, source: "votes", stated: null, flag };
  return { value: null, confidence: 0, source: null, stated: null, flag };
}

export function judgeDate(votes: DateProposal | null, statements: RecordStatementsForRole): Judgement {
  const date = statements.date;
  const proposed = votes ? { from: votes.earliest, to: votes.latest } : null;
  if (date) {
    const flag =
      proposed && disjoint(proposed, date, date.approximate ? approximateToleranceYears : 0)
        ? { vote: proposed, share: votes?.confidence ?? 0, contradicts: quote(dateSources(date)) }
        : null;
    return {
      value: { from: date.from, to: date.to },
      confidence: 1,
      source: "stated",
      stated: { value: { from: date.from, to: date.to }, sources: dateSources(date) },
      flag,
    };
  }
  const period = statements.statedPeriod;
  const span = period ? statements.periodSpans.get(fold(period)) : undefined;
  if (proposed && period && span && disjoint(proposed, span)) {
    return {
      value: null,
      confidence: 0,
      source: null,
      stated: null,
      flag: { vote: proposed, share: votes?.confidence ?? 0, contradicts: `the record states the period ${period} (catalogued ${formatYears(span)})` },
    };
  }
  return { value: proposed, confidence: votes?.confidence ?? 0, source: proposed ? "votes" : null, stated: null, flag: null };
}

/** Whether a proposed value contradicts what the record states (for eval:objects' contradiction rate). */
export function contradicts(role: CategoricalRole | "date", value: RoleValue | null, statements: RecordStatementsForRole): boolean {
  if (value === null) return false;
  if (role === "date") {
    if (typeof value === "string") return false;
    const judged = judgeDate({ earliest: value.from, latest: value.to, central: value.from, confidence: 1, voters: 1 }, statements);
    return judged.flag !== null;
  }
  if (typeof value !== "string") return false;
  const judged = judgeCategorical(role, { value, confidence: 1, votes: [{ value, weight: 1, share: 1, voters: 1 }], voters: 1 }, statements);
  return judged.flag !== null;
}
