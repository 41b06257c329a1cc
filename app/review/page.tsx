import type { Metadata } from "next";
import Link from "next/link";
import { canCreateRecords } from "@/lib/acl";
import { authorizedPage } from "@/lib/http/authorized";
import { listObjectSections } from "@/lib/rag/objects/list-object-sections";
import { proposalRoles, type ProposalRole } from "@/lib/rag/config/object-context";
import { formatProposalValue, listPendingProposals, proposalAccuracy } from "@/lib/rag/objects/proposals";
import { formatDateTime } from "@/components/format";
import { ProposeClient } from "./propose-client";
import { DataTable } from "@/components/data-table";
import { ProposalFlagNote } from "@/components/proposal-flag";

export const metadata: Metadata = { title: "Proposals" };

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const roleLabels: Record<ProposalRole, string> = { typology: "Typology", material: "Material", period: "Period", date: "Date" };

/**
 * The review queue: pending typology, material, period and date proposals the reader may see
 * (their record and every project their evidence came from), a page at a time, and how often
 * curators have accepted what was proposed. Curators decide on each object's page.
 */
export default async function ReviewPage({ searchParams }: PageProps) {
  const { principal, runtime } = await authorizedPage("/review");
  const query = await searchParams;
  const first = (name: string) => (Array.isArray(query[name]) ? query[name][0] : query[name]);
  const role = proposalRoles.find((candidate) => candidate === first("role"));
  const page = Number.parseInt(first("page") ?? "1", 10) || 1;
  const objects = await runtime.objects();
  const sections = await listObjectSections(objects.sql);
  const section = sections.find((candidate) => candidate.slug === first("section"))?.slug;
  const [queue, accuracy] = await Promise.all([
    listPendingProposals(objects, principal, { page, role, sectionSlug: section }),
    proposalAccuracy(objects, principal),
  ]);
  const href = (changes: { role?: string | undefined; section?: string | undefined; page?: number }) => {
    const search = new URLSearchParams();
    const nextRole = "role" in changes ? changes.role : role;
    const nextSection = "section" in changes ? changes.section : section;
    if (nextRole) search.set("role", nextRole);
    if (nextSection) search.set("section", nextSection);
    if (changes.page && changes.page > 1) search.set("page", String(changes.page));
    const text = search.toString();
    return text ? `/review?${text}` : "/review";
  };
  const canPropose = canCreateRecords(principal);

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">Proposals</h1>
          <p className="mt-1 max-w-2xl text-sm text-stone-600">
            Typology, material, period and date proposed for objects from their most similar catalogued neighbours. Open an object to see the evidence
            {canPropose ? " and decide." : "; curators who edit its collection decide."}
          </p>
        </div>
        {canPropose && <ProposeClient />}
      </div>

      <section aria-labelledby="queue-heading" className="mt-8">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="queue-heading" className="text-xl font-semibold">
            Awaiting a decision <span className="text-base font-normal text-stone-500">({queue.total})</span>
          </h2>
          <nav aria-label="Filter by collection" className="flex flex-wrap gap-1 text-xs">
            {[undefined, ...sections.map((candidate) => candidate.slug)].map((candidate) => (
              <Link
                key={candidate ?? "all"}
                href={href({ section: candidate, page: 1 })}
                aria-current={candidate === section ? "true" : undefined}
                className={`rounded-full border px-2 py-0.5 ${candidate === section ? "border-accent-700 bg-accent-50 text-accent-900" : "border-stone-300 text-stone-700 hover:bg-stone-100"}`}
              >
                {candidate ? sections.find((item) => item.slug === candidate)?.name : "All collections"}
              </Link>
            ))}
          </nav>
          <nav aria-label="Filter by role" className="flex flex-wrap gap-1 text-xs">
            {[undefined, ...proposalRoles].map((candidate) => (
              <Link
                key={candidate ?? "all"}
                href={href({ role: candidate, page: 1 })}
                aria-current={candidate === role ? "true" : undefined}
                className={`rounded-full border px-2 py-0.5 ${candidate === role ? "border-accent-700 bg-accent-50 text-accent-900" : "border-stone-300 text-stone-700 hover:bg-stone-100"}`}
              >
                {candidate ? roleLabels[candidate] : "All roles"}
              </Link>
            ))}
          </nav>
        </div>
        {queue.proposals.length === 0 ? (
          <p className="notice mt-3">
            {queue.total === 0 && !role && !section ? "Nothing awaits a decision." : "No pending proposal matches these filters."}
            {canPropose &&
              queue.total === 0 &&
              " “Propose for uncatalogued objects” compares the objects you edit that lack a typology, material, period or date."}
          </p>
        ) : (
          <DataTable columns={["Object", "Role", "Proposed", "Confidence", "Proposed on"]} className="mt-3" testId="review-queue">
            {queue.proposals.map((proposal) => (
              <tr key={proposal.id} className="border-b border-stone-100 align-middle">
                <td className="py-2 pr-3">
                  <Link href={`/records/${proposal.recordId}#proposals-heading`} className="flex items-center gap-2">
                    {proposal.thumbnailMediaId && (
                      // eslint-disable-next-line @next/next/no-img-element
                      <img
                        src={`/api/media/${proposal.thumbnailMediaId}?variant=thumb`}
                        alt=""
                        width={40}
                        height={40}
                        className="h-10 w-10 rounded border border-stone-200 object-contain"
                      />
                    )}
                    <span className="link">{proposal.recordTitle}</span>
                  </Link>
                  <span className="text-xs text-stone-500">{proposal.sectionName}</span>
                </td>
                <td className="py-2 pr-3">{roleLabels[proposal.role]}</td>
                <td className="py-2 pr-3">
                  {proposal.proposed ? (
                    <span className="font-medium" data-testid="queue-proposed-value">
                      {formatProposalValue(proposal.value)}
                    </span>
                  ) : (
                    <span className="text-stone-500">Not proposed</span>
                  )}
                  {proposal.proposed && proposal.stated && (
                    <span className="ml-2 rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-900">stated in the record</span>
                  )}
                  {proposal.flag && <ProposalFlagNote flag={proposal.flag} proposed={proposal.proposed} compact />}
                </td>
                <td className="py-2 pr-3 tabular-nums">
                  {proposal.evidence.mode === "agent" ? "agent" : proposal.proposed && proposal.stated ? "stated" : `${Math.round(proposal.confidence * 100)}%`}
                </td>
                <td className="py-2 text-stone-600">{formatDateTime(proposal.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        )}
        {queue.pageCount > 1 && (
          <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
            {queue.page > 1 ? (
              <Link href={href({ page: queue.page - 1 })} className="link">
                Previous
              </Link>
            ) : (
              <span className="text-stone-400">Previous</span>
            )}
            <span>
              Page {queue.page} of {queue.pageCount}
            </span>
            {queue.page < queue.pageCount ? (
              <Link href={href({ page: queue.page + 1 })} className="link">
                Next
              </Link>
            ) : (
              <span className="text-stone-400">Next</span>
            )}
          </nav>
        )}
      </section>

      <section aria-labelledby="accuracy-heading" className="mt-10">
        <h2 id="accuracy-heading" className="text-xl font-semibold">
          Accuracy of decided proposals
        </h2>
        <p className="mt-1 text-sm text-stone-600">Accepted as proposed, out of every decision (accepted, overridden or rejected) on proposals you can see.</p>
        <DataTable
          columns={[
            "Role",
            { label: "Decided", numeric: true },
            { label: "Accepted", numeric: true },
            { label: "Overridden", numeric: true },
            { label: "Rejected", numeric: true },
            { label: "Accuracy", numeric: true },
          ]}
          className="mt-3 max-w-2xl"
          testId="accuracy-report"
        >
          {accuracy.map((row) => (
            <tr key={row.role} className="border-b border-stone-100">
              <th scope="row" className="py-2 pr-3 font-medium">
                {roleLabels[row.role]}
              </th>
              <td className="py-2 pr-3 text-right tabular-nums">{row.decided}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.accepted}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.overridden}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.rejected}</td>
              <td className="py-2 text-right tabular-nums">{row.accuracy === null ? "–" : `${Math.round(row.accuracy * 100)}%`}</td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}
