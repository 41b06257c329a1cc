import { createHash } from "node:crypto";

/**
 * The one split of an evaluation's queries into a half to tune on and a half to report: a
 * query with a numeric id goes by its parity (even: tune, odd: report), any other id by the
 * parity of the first byte of its sha256. Deterministic, independent of file order and of
 * which other queries exist, so every tuner and every report draws the same line. Pure.
 */
export type EvaluationHalf = "tune" | "report";

export function evaluationHalf(queryId: string): EvaluationHalf {
  const id = queryId.trim();
  const parity = /^\d+$/.test(id) ? Number(id.at(-1)) % 2 : (createHash("sha256").update(id).digest()[0] ?? 0) % 2;
  return parity === 0 ? "tune" : "report";
}
