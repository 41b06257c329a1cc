import { formatProposalValue } from "@/lib/rag/objects/proposals";
import type { ProposalFlag } from "@/lib/rag/objects/respect-statements";

/**
 * A flagged vote on an object's page or in the review queue: what the neighbours voted and the
 * record's own words it contradicts. `proposed` says whether something consistent was proposed instead.
 */
export function ProposalFlagNote({ flag, proposed, compact = false }: { flag: ProposalFlag; proposed: boolean; compact?: boolean }) {
  return (
    <p className={`${compact ? "mt-1" : "mt-2"} rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-900`} data-testid="proposal-flag">
      <span className="font-semibold">Contradicts the record:</span> the neighbours voted {formatProposalValue(flag.vote)} (
      {Math.round(Math.max(0, flag.share) * 100)}%), but {flag.contradicts}
      {proposed ? "; that vote is not proposed." : "; nothing consistent with the record is proposed."}
    </p>
  );
}
