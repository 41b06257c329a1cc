import Link from "next/link";
import type { Principal } from "@/lib/acl";
import { findSimilarRecords, similarityFacets } from "@/lib/rag/search/find-similar";
import type { Runtime } from "@/lib/runtime";
import { formatTimecode } from "@/components/format";

/**
 * Records nearest to this one by meaning, from its stored passages; optionally by one embed
 * group ("similar by profession"). Rendered in a Suspense boundary so the record shows first.
 */
export async function SimilarRecords({
  principal,
  runtime,
  recordId,
  groupId,
}: {
  principal: Principal;
  runtime: Runtime;
  recordId: string;
  groupId?: string;
}) {
  const { sql } = runtime.database;
  const space = await runtime.space();
  const facets = await similarityFacets(sql, principal, space, recordId);
  const chosen = facets.find((facet) => facet.id === groupId);
  const similar = facets.length > 0 ? await findSimilarRecords(sql, principal, space, recordId, { embedGroupId: chosen?.id, limit: 8 }) : [];
  const href = (facet?: string) => `/records/${recordId}${facet ? `?similar=${facet}` : ""}#similar-heading`;

  return (
    <section aria-labelledby="similar-heading" data-testid="similar-records">
      <h2 id="similar-heading" className="text-base font-semibold">
        Similar records
      </h2>
      {facets.length > 1 && (
        <nav aria-label="Similar by" className="mt-2 flex flex-wrap gap-1 text-xs">
          {[{ id: undefined, label: "Everything" }, ...facets].map((facet) => {
            const current = facet.id === chosen?.id;
            return (
              <Link
                key={facet.id ?? "all"}
                href={href(facet.id)}
                aria-current={current ? "true" : undefined}
                className={`rounded-full border px-2 py-0.5 ${current ? "border-accent-700 bg-accent-50 text-accent-900" : "border-stone-300 text-stone-700 hover:bg-stone-100"}`}
              >
                {facet.id ? `By ${facet.label.toLowerCase()}` : facet.label}
              </Link>
            );
          })}
        </nav>
      )}
      {facets.length === 0 ? (
        <p className="mt-2 text-stone-500">This record has not been indexed yet, so nothing can be compared with it.</p>
      ) : similar.length === 0 ? (
        <p className="mt-2 text-stone-500">No other record you can read is close to this one{chosen ? ` by ${chosen.label.toLowerCase()}` : ""}.</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {similar.map((item) => (
            <li key={item.recordId}>
              <Link href={`/records/${item.recordId}${item.passage.timeStart !== null ? `?t=${Math.floor(item.passage.timeStart)}` : ""}`} className="link">
                {item.recordTitle}
              </Link>
              <div className="text-xs text-stone-500">
                {item.sectionName} · {Math.round(item.similarity * 100)}% similar
                {item.passage.timeStart !== null && ` · at ${formatTimecode(item.passage.timeStart)}`}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function SimilarRecordsLoading() {
  return (
    <section aria-busy="true" aria-labelledby="similar-loading-heading">
      <h2 id="similar-loading-heading" className="text-base font-semibold">
        Similar records
      </h2>
      <p className="mt-2 text-stone-500">Finding similar records…</p>
    </section>
  );
}
