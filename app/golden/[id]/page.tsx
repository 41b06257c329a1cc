import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { canKeepGoldenSets } from "@/lib/acl";
import { getGoldenSet } from "@/lib/admin/golden-sets";
import { authorizedPage } from "@/lib/http/authorized";
import { isAppError } from "@/lib/errors";
import { formatDateTime } from "@/components/format";
import { GoldenSetEditorClient } from "./golden-set-editor-client";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";

export const metadata: Metadata = { title: "Golden set" };

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** One golden set: its questions (editable), a run button, the last run's figures and misses. */
export default async function GoldenSetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { principal, runtime } = await authorizedPage(`/golden/${encodeURIComponent(id)}`);
  if (!canKeepGoldenSets(principal)) notFound();
  const { prisma } = runtime.database;
  const set = await getGoldenSet(prisma, principal, id).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  const last = set.runs[0];
  return (
    <div>
      <PageHeader back={{ href: "/golden", label: "Golden sets" }} title={set.name} />
      <p className="text-sm text-stone-600">{set.section?.name ?? "Every section"}</p>

      <GoldenSetEditorClient id={set.id} name={set.name} sectionSlug={set.section?.slug} questions={set.questions} />

      <section aria-labelledby="runs-heading" className="mt-10">
        <h2 id="runs-heading" className="text-xl font-semibold">
          Last run
        </h2>
        {!last ? (
          <p className="notice mt-2">Not run yet.</p>
        ) : (
          <div data-testid="golden-run">
            <p className="mt-1 text-sm text-stone-600">
              {formatDateTime(last.at)} · {last.mode} · {last.metrics.questions} questions
              {last.results.some((result) => result.unreadableExpected) && " · figures count only the records you can read"}
            </p>
            <dl className="mt-3 grid max-w-xl grid-cols-3 gap-3">
              {[
                ["Recall@10", percent(last.metrics.recallAtK)],
                ["nDCG@10", last.metrics.ndcg10.toFixed(3)],
                ["MRR", last.metrics.mrr10.toFixed(3)],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg border border-stone-200 bg-white p-3">
                  <dt className="text-xs text-stone-500">{label}</dt>
                  <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
            <DataTable columns={["Question", { label: "Recall", numeric: true }, "Found at rank", "Missed"]}>
              {last.results.map((result, index) => (
                <tr key={`${result.question}-${index}`} className="border-b border-stone-100 align-top">
                  <td className="py-2 pr-3">{result.question}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{result.recall === null ? "–" : percent(result.recall)}</td>
                  <td className="py-2 pr-3">
                    {result.found.map((item) => (
                      <div key={item.recordId}>
                        #{item.rank}{" "}
                        <Link href={`/records/${item.recordId}`} className="link">
                          {item.title}
                        </Link>
                      </div>
                    ))}
                  </td>
                  <td className="py-2 text-red-800" data-testid="golden-missed">
                    {result.missed.map((item) => (
                      <div key={item.recordId}>
                        <Link href={`/records/${item.recordId}`} className="link">
                          {item.title}
                        </Link>
                      </div>
                    ))}
                    {result.unreadableExpected && <div className="text-stone-500">a record you cannot read</div>}
                  </td>
                </tr>
              ))}
            </DataTable>
            {set.runs.length > 1 && (
              <details className="mt-3 text-sm">
                <summary className="cursor-pointer">Earlier runs</summary>
                <ul className="mt-2 space-y-1 text-stone-600">
                  {set.runs.slice(1).map((run) => (
                    <li key={run.id}>
                      {formatDateTime(run.at)} · {run.mode} · recall@10 {percent(run.metrics.recallAtK)} · nDCG@10 {run.metrics.ndcg10.toFixed(3)} · MRR{" "}
                      {run.metrics.mrr10.toFixed(3)}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
