import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { canKeepGoldenSets } from "@/lib/acl";
import { listGoldenSets } from "@/lib/admin/golden-sets";
import { listSectionNames } from "@/lib/archive/sections";
import { authorizedPage } from "@/lib/http/authorized";
import { formatDateTime } from "@/components/format";
import { NewGoldenSetClient } from "./new-golden-set-client";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";

export const metadata: Metadata = { title: "Golden sets" };

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Golden sets of questions with their expected records, and how the index last did on each. */
export default async function GoldenSetsPage() {
  const { principal, runtime } = await authorizedPage("/golden");
  if (!canKeepGoldenSets(principal)) notFound();
  const { prisma } = runtime.database;
  const [sets, sections] = await Promise.all([listGoldenSets(prisma, principal), listSectionNames(prisma)]);
  return (
    <div>
      <PageHeader title="Golden sets">
        Questions with the records that answer them. Running a set searches the active index as you would and reports recall@10, nDCG@10 and MRR, with the
        records it missed. Your sets are yours to change; admins see every set.
      </PageHeader>
      <div className="mt-4 rounded-lg border border-stone-200 bg-white p-4">
        <NewGoldenSetClient sections={sections} />
      </div>
      {sets.length === 0 ? (
        <p className="notice mt-6">No golden set yet. Create one, then add questions and tick the records that answer them.</p>
      ) : (
        <DataTable
          columns={[
            "Set",
            "Collection",
            { label: "Questions", numeric: true },
            { label: "Recall@10", numeric: true },
            { label: "nDCG@10", numeric: true },
            { label: "MRR", numeric: true },
            "Last run",
          ]}
          className="mt-6"
          testId="golden-sets"
        >
          {sets.map((set) => (
            <tr key={set.id} className="border-b border-stone-100">
              <th scope="row" className="py-2 pr-3 font-medium">
                <Link href={`/golden/${set.id}`} className="link">
                  {set.name}
                </Link>
              </th>
              <td className="py-2 pr-3">{set.section?.name ?? "Every section"}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{set.questions}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{set.lastRun ? percent(set.lastRun.metrics.recallAtK) : "–"}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{set.lastRun ? set.lastRun.metrics.ndcg10.toFixed(3) : "–"}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{set.lastRun ? set.lastRun.metrics.mrr10.toFixed(3) : "–"}</td>
              <td className="py-2 text-stone-600">{set.lastRun ? `${formatDateTime(set.lastRun.at)} (${set.lastRun.mode})` : "never"}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
