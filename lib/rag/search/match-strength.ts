import type { Leg } from "./fuse-legs";

/**
 * What a hit's relevance means, in words a researcher can trust, instead of a percentage of
 * the fused score (a date-only passage "ca. 1928" could show 98%): the meaning leg's cosine
 * similarity read against the thresholds calibrated on the golden set (the same ones Ask uses
 * to refuse, set on /admin/thresholds), or, for a hit only the words found, that it matches the
 * words. Pure, so the list, the API and tests agree.
 */
export type MatchStrength = "strong" | "good" | "weak" | "words";

export interface MatchThresholds {
  /** At or above: a good match (Ask's minimum similarity). */
  good: number;
  /** At or above: a strong match (Ask's strong similarity). */
  strong: number;
}

export interface MatchDescription {
  strength: MatchStrength;
  label: string;
  /** One sentence saying where the label comes from, for a tooltip and screen readers. */
  explanation: string;
}

const labels: Record<MatchStrength, string> = { strong: "Strong match", good: "Good match", weak: "Weak match", words: "Matches the words" };

export function describeMatch(hit: { similarity: number | null; legs: readonly Leg[] }, thresholds: MatchThresholds): MatchDescription {
  const scale = `strong from ${thresholds.strong.toFixed(2)}, good from ${thresholds.good.toFixed(2)}, thresholds calibrated on the golden set`;
  if (hit.similarity === null) {
    return { strength: "words", label: labels.words, explanation: "Found by its words only: the highlighted words match the query." };
  }
  const strength: MatchStrength = hit.similarity >= thresholds.strong ? "strong" : hit.similarity >= thresholds.good ? "good" : "weak";
  const words = hit.legs.includes("words") ? " It also matches the words." : "";
  return { strength, label: labels[strength], explanation: `Similarity of meaning ${hit.similarity.toFixed(2)} (${scale}).${words}` };
}
