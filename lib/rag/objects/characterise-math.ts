/**
 * The arithmetic of "describe the object by its relatives", pure so it can be tested exactly:
 * a similarity-weighted vote for categorical roles, and for the date an earliest–latest range
 * with a weighted central estimate. Neighbours without a value for the role do not vote.
 */
export interface CategoricalVote {
  value: string;
  weight: number;
  /** weight / total weight of the voters, 0..1 */
  share: number;
  voters: number;
}

export interface CategoricalProposal {
  value: string;
  /** The winner's share of the weight: how much of the evidence agrees. */
  confidence: number;
  votes: CategoricalVote[];
  voters: number;
}

/** Weights below this do not vote (a dissimilar neighbour is not evidence). */
export const minimumVoteWeight = 1e-6;

export function voteCategorical(neighbours: readonly { value: string | null | undefined; weight: number }[]): CategoricalProposal | null {
  const tally = new Map<string, { weight: number; voters: number; display: string }>();
  let total = 0;
  let voters = 0;
  for (const neighbour of neighbours) {
    const display = neighbour.value?.trim();
    if (!display || !(neighbour.weight > minimumVoteWeight)) continue;
    // "Bronze" and "bronze " are one value; the first spelling seen is shown.
    const key = display.toLocaleLowerCase();
    const entry = tally.get(key) ?? { weight: 0, voters: 0, display };
    entry.weight += neighbour.weight;
    entry.voters++;
    tally.set(key, entry);
    total += neighbour.weight;
    voters++;
  }
  if (total === 0) return null;
  const votes = [...tally.values()]
    .map((entry) => ({ value: entry.display, weight: entry.weight, share: entry.weight / total, voters: entry.voters }))
    .sort((a, b) => b.weight - a.weight || b.voters - a.voters || a.value.localeCompare(b.value));
  const winner = votes[0];
  if (!winner) return null;
  return { value: winner.value, confidence: winner.share, votes, voters };
}

export interface DateProposal {
  /** Weighted lower quantile of the neighbours' earliest years. */
  earliest: number;
  /** Weighted upper quantile of the neighbours' latest years. */
  latest: number;
  /** Weighted median of the neighbours' midpoints. */
  central: number;
  /** Share of the weight whose range contains the central estimate. */
  confidence: number;
  voters: number;
}

/** The range keeps the middle 80% of the weight on each side. */
export const dateRangeQuantiles = { lower: 0.1, upper: 0.9 } as const;

/**
 * The weighted q-quantile of values: the smallest value at which the cumulative weight reaches
 * q of the total (so with equal weights, q = 0.5 is the lower median).
 */
export function weightedQuantile(items: readonly { value: number; weight: number }[], q: number): number {
  const sorted = items.filter((item) => item.weight > 0 && Number.isFinite(item.value)).sort((a, b) => a.value - b.value);
  if (sorted.length === 0) throw new RangeError("no weighted values");
  const total = sorted.reduce((sum, item) => sum + item.weight, 0);
  let cumulative = 0;
  for (const item of sorted) {
    cumulative += item.weight;
    if (cumulative >= q * total - 1e-9) return item.value;
  }
  return (sorted[sorted.length - 1] as { value: number }).value;
}

export function aggregateDates(neighbours: readonly { from: number; to: number; weight: number }[]): DateProposal | null {
  const voters = neighbours.filter((item) => item.weight > minimumVoteWeight && Number.isFinite(item.from) && Number.isFinite(item.to));
  if (voters.length === 0) return null;
  const ranges = voters.map((item) => ({ from: Math.min(item.from, item.to), to: Math.max(item.from, item.to), weight: item.weight }));
  const central = Math.round(
    weightedQuantile(
      ranges.map((item) => ({ value: (item.from + item.to) / 2, weight: item.weight })),
      0.5,
    ),
  );
  const earliest = Math.min(
    central,
    weightedQuantile(
      ranges.map((item) => ({ value: item.from, weight: item.weight })),
      dateRangeQuantiles.lower,
    ),
  );
  const latest = Math.max(
    central,
    weightedQuantile(
      ranges.map((item) => ({ value: item.to, weight: item.weight })),
      dateRangeQuantiles.upper,
    ),
  );
  const total = ranges.reduce((sum, item) => sum + item.weight, 0);
  const containing = ranges.filter((item) => item.from <= central && central <= item.to).reduce((sum, item) => sum + item.weight, 0);
  return { earliest, latest, central, confidence: containing / total, voters: voters.length };
}
