import type { Metadata } from "next";
import Link from "next/link";
import { type ScoreDistribution, binWidth, scoreDistribution } from "@/lib/admin/ask-thresholds";
import { listGoldenSetNames } from "@/lib/admin/golden-sets";
import { readAskThresholds } from "@/lib/rag/ask/ask-settings";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { isAppError } from "@/lib/errors";
import { ThresholdsFormClient } from "./thresholds-form-client";
import { AdminPageHeader } from "@/components/page-header";
import { NamedOptions } from "@/components/select-options";
import { PageSection } from "@/components/page-section";

export const metadata: Metadata = { title: "Answer thresholds" };

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function Histogram({ distribution, marks }: { distribution: ScoreDistribution; marks: { at: number; label: string; className: string }[] }) {
  const width = 720;
  const height = 220;
  const left = 30;
  const bottom = 28;
  const plotWidth = width - left - 10;
  const plotHeight = height - bottom - 10;
  const binsShown = distribution.bins.length;
  const max = Math.max(1, ...distribution.relevant, ...distribution.irrelevant);
  const x = (value: number) => left + ((value - (distribution.bins[0] ?? 0)) / (binsShown * binWidth)) * plotWidth;
  const barWidth = plotWidth / binsShown / 2 - 1;
  const y = (count: number) => 10 + plotHeight - (count / max) * plotHeight;
  return (
    <figure className="mt-3">
      <svg viewBox={`0 0 ${width} ${height}`} className="w-full max-w-3xl" role="img" aria-labelledby="histogram-caption" data-testid="score-histogram">
        {distribution.bins.map((bin, index) => (
          <g key={bin}>
            <rect
              x={x(bin)}
              y={y(distribution.relevant[index] ?? 0)}
              width={barWidth}
              height={10 + plotHeight - y(distribution.relevant[index] ?? 0)}
              className="fill-accent-700"
            >
              <title>{`${distribution.relevant[index]} relevant at ${bin.toFixed(2)}–${(bin + binWidth).toFixed(2)}`}</title>
            </rect>
            <rect
              x={x(bin) + barWidth + 1}
              y={y(distribution.irrelevant[index] ?? 0)}
              width={barWidth}
              height={10 + plotHeight - y(distribution.irrelevant[index] ?? 0)}
              className="fill-stone-400"
            >
              <title>{`${distribution.irrelevant[index]} irrelevant at ${bin.toFixed(2)}–${(bin + binWidth).toFixed(2)}`}</title>
            </rect>
            {index % 4 === 0 && (
              <text x={x(bin)} y={height - 8} className="fill-stone-500 text-[10px]">
                {bin.toFixed(1)}
              </text>
            )}
          </g>
        ))}
        {marks.map((mark) => (
          <g key={mark.label}>
            <line x1={x(mark.at)} x2={x(mark.at)} y1={8} y2={10 + plotHeight} className={mark.className} strokeWidth={2} strokeDasharray="4 3" />
            <text x={x(mark.at) + 3} y={18} className="fill-stone-700 text-[10px]">
              {mark.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption id="histogram-caption" className="text-xs text-stone-600">
        Cosine similarity of the passages retrieved for {distribution.questions} questions: teal bars are passages of an expected record (relevant), grey bars
        the others. Dashed lines mark the current and suggested thresholds.
      </figcaption>
    </figure>
  );
}

/**
 * The Q&A refusal thresholds, read off the data: pick a golden set, see how similar relevant
 * and irrelevant passages are, and set the thresholds from there.
 */
export default async function ThresholdsPage({ searchParams }: PageProps) {
  const { principal, runtime } = await authorizedAdminPage("/admin/thresholds");
  const query = await searchParams;
  const { prisma, sql } = runtime.database;
  const sets = await listGoldenSetNames(prisma);
  const chosen = sets.find((set) => set.id === query.set)?.id;
  const current = await readAskThresholds(sql);
  let distribution: ScoreDistribution | null = null;
  let error: string | null = null;
  if (chosen) {
    try {
      distribution = await scoreDistribution(await runtime.search(), principal, { goldenSetId: chosen });
    } catch (caught) {
      if (!isAppError(caught)) throw caught;
      error = caught.message;
    }
  }
  const marks = distribution
    ? [
        { at: current.minSimilarity, label: "minimum", className: "stroke-amber-600" },
        { at: current.strongSimilarity, label: "strong", className: "stroke-red-700" },
        ...(distribution.suggested !== null ? [{ at: distribution.suggested, label: "suggested", className: "stroke-emerald-700" }] : []),
      ]
    : [];

  return (
    <div>
      <AdminPageHeader title="Answer thresholds">
        A passage grounds an answer when its similarity reaches the strong threshold, or the minimum with enough of the question’s words; otherwise the question
        is refused. Read the thresholds off a golden set’s relevant and irrelevant passages.
      </AdminPageHeader>
      <form action="/admin/thresholds" className="mt-4 flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="field-label">Golden set</span>
          <select name="set" defaultValue={chosen ?? ""} className="field-input">
            <option value="" disabled>
              Choose a set
            </option>
            <NamedOptions items={sets} />
          </select>
        </label>
        <button type="submit" className="btn">
          Show the distribution
        </button>
      </form>
      {sets.length === 0 && (
        <p className="notice mt-4">
          There is no golden set yet.{" "}
          <Link href="/golden" className="link">
            Create one
          </Link>{" "}
          with questions and the records that answer them.
        </p>
      )}
      {error && (
        <div role="alert" className="notice-error mt-4">
          {error}
        </div>
      )}
      {distribution && (
        <PageSection id="distribution" title="Score distribution" className="mt-6">
          {distribution.questions === 0 ? (
            <p className="notice mt-2">None of the set’s questions has an expected record you can read.</p>
          ) : (
            <>
              <Histogram distribution={distribution} marks={marks} />
              <p className="mt-2 text-sm" data-testid="suggested-threshold">
                {distribution.suggested === null
                  ? "No suggestion: the set yields only relevant or only irrelevant passages."
                  : `Suggested minimum: ${distribution.suggested.toFixed(2)} — it keeps ${Math.round((distribution.thresholds.find((row) => row.at === distribution.suggested)?.relevantKept ?? 0) * 100)}% of relevant passages and lets ${Math.round((distribution.thresholds.find((row) => row.at === distribution.suggested)?.irrelevantKept ?? 0) * 100)}% of irrelevant ones through.`}
              </p>
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer">Every threshold</summary>
                <table className="mt-2 text-left">
                  <thead className="text-xs text-stone-500">
                    <tr>
                      <th scope="col" className="pr-4">
                        Threshold
                      </th>
                      <th scope="col" className="pr-4">
                        Relevant kept
                      </th>
                      <th scope="col">Irrelevant kept</th>
                    </tr>
                  </thead>
                  <tbody>
                    {distribution.thresholds.map((row) => (
                      <tr key={row.at}>
                        <td className="pr-4 tabular-nums">{row.at.toFixed(2)}</td>
                        <td className="pr-4 tabular-nums">{Math.round(row.relevantKept * 100)}%</td>
                        <td className="tabular-nums">{Math.round(row.irrelevantKept * 100)}%</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            </>
          )}
        </PageSection>
      )}
      <PageSection id="set" title="Thresholds in use" className="mt-8">
        <ThresholdsFormClient current={current} suggested={distribution?.suggested ?? null} />
      </PageSection>
    </div>
  );
}
