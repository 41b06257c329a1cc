import type { Metadata } from "next";
import Link from "next/link";
import { tuningGoldenSetName } from "@/lib/admin/fusion-calibration";
import { listGoldenSetNames } from "@/lib/admin/golden-sets";
import { listSpaceOverview } from "@/lib/admin/model-switch";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { formatDateTime } from "@/components/format";
import { fusionSlices } from "@/lib/rag/index/index-spaces";
import { AutoRefreshClient, CompareSpacesClient, FusionActionsClient, RegisterSpaceClient, SpaceActionsClient } from "./spaces-client";
import { SettingsTable } from "./settings-table";
import { DataTable } from "@/components/data-table";
import { AdminPageHeader } from "@/components/page-header";
import { PageSection } from "@/components/page-section";

const sliceNames = { all: "All languages", en: "English", es: "Spanish", ca: "Catalan" } as const;

export const metadata: Metadata = { title: "Index spaces" };

/**
 * Index spaces: the active one, candidates being built beside it (coverage read from the
 * index), a golden-set comparison, activation in one step and rollback.
 */
export default async function SpacesPage() {
  const { principal, runtime } = await authorizedAdminPage("/admin/spaces");
  const { prisma, sql } = runtime.database;
  const [spaces, sets] = await Promise.all([listSpaceOverview(sql, principal), listGoldenSetNames(prisma)]);
  const building = spaces.some((space) => space.status === "building" && space.indexed < space.records);
  const canRollBack = spaces.some((space) => space.status === "retired" && space.activatedAt);
  const hashAllowed = runtime.config.hashEmbedderAllowed;
  return (
    <div>
      <AdminPageHeader title="Index spaces">
        An index space is one embedding model’s view of the archive. A new model is built beside the active one, compared on a golden set, and switched to in
        one step; the previous space stays, so a rollback is one step too.
      </AdminPageHeader>
      {building && <AutoRefreshClient seconds={4} />}
      <DataTable columns={["Space", "Status", "Built", "Active since", "Actions"]} testId="index-spaces">
        {spaces.map((space) => {
          const percent = space.records ? Math.floor((space.indexed / space.records) * 100) : 100;
          return (
            <tr key={space.id} className="border-b border-stone-100 align-top">
              <th scope="row" className="py-2 pr-3 font-medium">
                {space.name}
                {!space.usable && <div className="text-xs font-normal text-red-700">This server cannot embed with this model (not configured here).</div>}
              </th>
              <td className="py-2 pr-3">{space.status}</td>
              <td className="py-2 pr-3">
                <div
                  role="progressbar"
                  aria-label={`${space.name} built`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  className="h-2 w-40 rounded bg-stone-100"
                >
                  <div className="h-2 rounded bg-accent-700" style={{ width: `${percent}%` }} />
                </div>
                <span className="text-xs tabular-nums text-stone-600">
                  {space.indexed} of {space.records} records
                </span>
              </td>
              <td className="py-2 pr-3 text-stone-600">{space.activatedAt ? formatDateTime(space.activatedAt) : "–"}</td>
              <td className="py-2">
                {space.status !== "active" && (
                  <SpaceActionsClient spaceId={space.id} name={space.name} ready={space.usable && space.indexed >= space.records} />
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>
      {canRollBack && (
        <div className="mt-3">
          <SpaceActionsClient rollback />
        </div>
      )}

      <PageSection id="fusion" title="Fusion of meaning and words" className="mt-8">
        <p className="mt-1 max-w-3xl text-sm text-stone-600">
          Hybrid search adds the meaning and the words scores, each scaled to its leg&apos;s best for the query. Each space measures on the golden sets how well
          each leg finds the expected records, overall and per query language, and gives meaning the share of that sum that ranked them best (0 = words only,
          0.5 = equal, 1 = meaning only). Figures are nDCG@10 on those questions.
        </p>
        {spaces
          .filter((space) => space.status !== "retired")
          .map((space) => (
            <div key={space.id} className="mt-4" data-testid={`fusion-${space.status}`}>
              <h3 className="font-medium">
                {space.name} <span className="text-sm font-normal text-stone-500">({space.status})</span>
              </h3>
              {space.fusion ? (
                <>
                  <table className="mt-2 text-left text-sm tabular-nums">
                    <caption className="text-left text-xs text-stone-500">
                      Measured {formatDateTime(new Date(space.fusion.measuredAt))} on {space.fusion.source}
                    </caption>
                    <thead className="border-b border-stone-200 text-xs text-stone-500">
                      <tr>
                        {[
                          "Queries in",
                          "Questions",
                          "Words alone",
                          "Meaning alone",
                          "Equal weights",
                          "Measured weights",
                          "Meaning share",
                          "Length normalisation (BM25 b)",
                        ].map((label) => (
                          <th key={label} scope="col" className="py-1 pr-4">
                            {label}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {fusionSlices.map((slice) => {
                        const figures = space.fusion?.figures[slice];
                        if (!figures) return null;
                        return (
                          <tr key={slice} className="border-b border-stone-100">
                            <th scope="row" className="py-1 pr-4 font-normal">
                              {sliceNames[slice]}
                            </th>
                            <td className="py-1 pr-4">{figures.queries}</td>
                            <td className="py-1 pr-4">{figures.keyword.toFixed(3)}</td>
                            <td className="py-1 pr-4">{figures.semantic.toFixed(3)}</td>
                            <td className="py-1 pr-4">{figures.equal.toFixed(3)}</td>
                            <td className="py-1 pr-4 font-medium">{figures.calibrated.toFixed(3)}</td>
                            <td className="py-1 pr-4">{space.fusion?.meaningShare[slice]?.toFixed(2)}</td>
                            <td className="py-1 pr-4">{space.fusion?.lengthNormalisation?.[slice]?.toFixed(2) ?? "—"}</td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                  <p className="mt-1 text-xs text-stone-500">
                    Languages with too few questions use the overall share and b. b is how much BM25 discounts a long passage (0 none, 1 full), measured per
                    language on the same questions. The choice smooths each curve over neighbouring shares and leans a language towards the overall curve.
                  </p>
                  {space.fusion.secondPassage !== undefined ? (
                    <p className="mt-1 text-xs text-stone-600">
                      A record&apos;s second-best passage adds {space.fusion.secondPassage.toFixed(2)} of its score to the record&apos;s words score
                      {space.fusion.secondPassageFigures
                        ? ` (words alone at each share: ${space.fusion.secondPassageFigures.map((point) => `${point.share} → ${point.keyword.toFixed(3)}`).join(", ")})`
                        : ""}
                      .
                    </p>
                  ) : null}
                  {space.fusion.shareFigures || space.fusion.lengthFigures ? (
                    <details className="mt-1 text-xs text-stone-600">
                      <summary className="cursor-pointer">Curves the weights were chosen from</summary>
                      <dl className="mt-1 space-y-1 tabular-nums">
                        {fusionSlices.map((slice) => {
                          const shares = space.fusion?.shareFigures?.[slice];
                          const lengths = space.fusion?.lengthFigures?.[slice];
                          if (!shares && !lengths) return null;
                          return (
                            <div key={slice}>
                              <dt className="font-medium">{sliceNames[slice]}</dt>
                              {shares ? (
                                <dd>
                                  Hybrid at each meaning share: {shares.map((point) => `${point.share.toFixed(2)} → ${point.hybrid.toFixed(3)}`).join(", ")}
                                </dd>
                              ) : null}
                              {lengths ? <dd>Words alone at each b: {lengths.map((point) => `${point.b} → ${point.keyword.toFixed(3)}`).join(", ")}</dd> : null}
                            </div>
                          );
                        })}
                      </dl>
                    </details>
                  ) : null}
                </>
              ) : (
                <p className="mt-1 text-sm text-stone-600">Not measured: meaning and words weigh the same.</p>
              )}
              <div className="mt-2">
                <FusionActionsClient
                  spaceId={space.id}
                  name={space.name}
                  calibrated={Boolean(space.fusion)}
                  canMeasure={space.usable && sets.length > 0}
                  sets={sets}
                  defaultSetId={sets.find((set) => set.name === tuningGoldenSetName)?.id ?? ""}
                />
              </div>
            </div>
          ))}
      </PageSection>

      <PageSection id="compare" title="Compare on a golden set" className="mt-8">
        {sets.length === 0 ? (
          <p className="notice mt-2">
            <Link href="/golden" className="link">
              Create a golden set
            </Link>{" "}
            to compare spaces on questions with known answers.
          </p>
        ) : (
          <CompareSpacesClient
            sets={sets}
            candidates={spaces.filter((space) => space.status !== "active" && space.usable).map((space) => ({ id: space.id, name: space.name }))}
          />
        )}
      </PageSection>

      <PageSection id="register" title="Register a new model" className="mt-8">
        <RegisterSpaceClient hashAllowed={hashAllowed} />
      </PageSection>

      <SettingsTable />
    </div>
  );
}
