import Link from "next/link";
import { cache } from "react";
import type { Principal } from "@/lib/acl";
import { type Neighbour, loadObjectSubject, neighbourReads } from "@/lib/rag/objects/object-neighbours";
import { type RoleCharacterisation, characteriseObject, proposalNeighbours, proposedFieldValue } from "@/lib/rag/objects/characterise";
import { type StoredProposal, formatProposalValue, proposalsForRecord } from "@/lib/rag/objects/proposals";
import { ProposalFlagNote } from "@/components/proposal-flag";
import { type SimilarObjectMode, findSimilarObjects } from "@/lib/rag/objects/similar-objects";
import type { Runtime } from "@/lib/runtime";
import { formatDateTime } from "@/components/format";
import { PeriodChart } from "@/components/period-chart";
import { ProposalDecisionClient } from "./proposal-decision-client";

/**
 * An object's page below its fields: the similar-objects grid (hybrid, visual, near-duplicates)
 * and the proposals drawn from its most similar catalogued neighbours, with their evidence and,
 * for curators who edit the project, the decision controls.
 */
const modeLabels: Record<SimilarObjectMode, string> = { hybrid: "Images and catalogue", visual: "Images only", near_duplicate: "Near-duplicates" };

const percent = (value: number | null | undefined) => (value === null || value === undefined ? "–" : `${Math.round(Math.max(0, value) * 100)}%`);

function Thumbnail({ mediaId, alt, size = 96 }: { mediaId: string; alt: string; size?: number }) {
  return (
    // Thumbnails are served by the ACL-checked media route; next/image would cache them across users.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={`/api/media/${mediaId}?variant=thumb`}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      className="rounded border border-stone-200 bg-stone-50 object-contain"
      style={{ width: size, height: size }}
    />
  );
}

function NeighbourCard({ neighbour }: { neighbour: Neighbour }) {
  const views = Object.entries(neighbour.similarities).filter(([leg]) => leg.startsWith("view:"));
  return (
    <li className="rounded-lg border border-stone-200 bg-white p-2" data-testid="similar-object">
      <Link href={`/records/${neighbour.recordId}`} className="block">
        <span className="flex gap-1">
          {neighbour.images.slice(0, 2).map((image) => (
            <Thumbnail key={image.mediaId} mediaId={image.mediaId} alt={`${neighbour.title}, ${image.view}`} size={72} />
          ))}
        </span>
        <span className="link mt-1 block text-sm leading-snug">{neighbour.title}</span>
      </Link>
      <div className="mt-1 text-xs text-stone-600">
        {[neighbour.roles.typology, neighbour.roles.material, neighbour.roles.period].filter(Boolean).join(" · ")}
      </div>
      <div className="mt-1 text-xs text-stone-500">
        {views.map(([leg, value]) => `${leg.slice(5)} ${percent(value)}`).join(" · ")}
        {neighbour.contextSimilarity !== null && ` · catalogue ${percent(neighbour.contextSimilarity)}`}
      </div>
    </li>
  );
}

/**
 * What the two object panels of one page read alike, once per request: the object, and the
 * neighbours' candidate lists, vectors and details (per request, so per principal).
 */
const sharedReads = cache(async (runtime: Runtime, principal: Principal, recordId: string) => {
  const objects = await runtime.objects();
  return { objects, subject: await loadObjectSubject(objects.sql, principal, recordId), reads: neighbourReads() };
});

export async function SimilarObjects({
  principal,
  runtime,
  recordId,
  mode,
}: {
  principal: Principal;
  runtime: Runtime;
  recordId: string;
  mode: SimilarObjectMode;
}) {
  const { objects, subject, reads } = await sharedReads(runtime, principal, recordId);
  const result = await findSimilarObjects(objects, principal, { recordId, mode, limit: 12 }, { subject, reads });
  const href = (next: SimilarObjectMode) => `/records/${recordId}${next === "hybrid" ? "" : `?objects=${next}`}#similar-objects-heading`;
  return (
    <section aria-labelledby="similar-objects-heading" className="mt-10" data-testid="similar-objects">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="similar-objects-heading" className="text-xl font-semibold">
          Similar objects
        </h2>
        <nav aria-label="Compare by" className="flex flex-wrap gap-1 text-xs">
          {(Object.keys(modeLabels) as SimilarObjectMode[]).map((candidate) => (
            <Link
              key={candidate}
              href={href(candidate)}
              aria-current={candidate === mode ? "true" : undefined}
              className={`rounded-full border px-2 py-0.5 ${candidate === mode ? "border-accent-700 bg-accent-50 text-accent-900" : "border-stone-300 text-stone-700 hover:bg-stone-100"}`}
            >
              {modeLabels[candidate]}
            </Link>
          ))}
        </nav>
      </div>
      <p className="mt-1 text-sm text-stone-600">
        {mode === "near_duplicate"
          ? `Objects at least ${percent(result.floor)} similar on every view (${result.views.join(", ")}).`
          : `Nearest by ${result.views.join(" and ")}${result.usedContext ? ", fused with the catalogue context (typology, material, period)" : ""}; an object close on every view ranks first.`}
      </p>
      {result.status === "pending" ? (
        <p className="notice mt-3">This object’s images have not been described yet; the indexer will do it shortly.</p>
      ) : result.neighbours.length === 0 ? (
        <p className="notice mt-3">
          {mode === "near_duplicate" ? "No near-duplicate among the objects you can read." : "No similar object among the objects you can read."}
        </p>
      ) : (
        <ol className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {result.neighbours.map((neighbour) => (
            <NeighbourCard key={neighbour.recordId} neighbour={neighbour} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ConfidenceBar({ value, label }: { value: number; label: string }) {
  return (
    <div className="flex items-center gap-2 text-xs">
      <span className="w-36 truncate text-stone-700" title={label}>
        {label}
      </span>
      <span aria-hidden="true" className="h-2 flex-1 rounded bg-stone-100">
        <span className="block h-2 rounded bg-accent-700" style={{ width: `${Math.round(value * 100)}%` }} />
      </span>
      <span className="w-10 text-right tabular-nums text-stone-700">{percent(value)}</span>
    </div>
  );
}

function DecisionNote({ stored }: { stored: StoredProposal }) {
  if (stored.status === "pending")
    return <p className="mt-1 text-xs text-stone-500">Stored proposal, awaiting a curator’s decision since {formatDateTime(stored.createdAt)}.</p>;
  const verb = { accepted: "Accepted", overridden: "Overridden", rejected: "Rejected" }[stored.status];
  return (
    <p className="mt-1 text-xs text-stone-600" data-testid="decision-note">
      {verb}
      {stored.status === "overridden" && ` with ${formatProposalValue(stored.decidedValue)}`}
      {stored.decidedBy && ` by ${stored.decidedBy}`}
      {stored.decidedAt && ` on ${formatDateTime(stored.decidedAt)}`} (proposed {formatProposalValue(stored.value)}).
    </p>
  );
}

function RoleCard({
  role,
  stored,
  editable,
  recordId,
  options,
}: {
  role: RoleCharacterisation;
  stored: StoredProposal | undefined;
  editable: boolean;
  recordId: string;
  options?: string[];
}) {
  const pendingStored = stored?.status === "pending" ? stored : undefined;
  const live = proposedFieldValue(role);
  const proposed = pendingStored ? (pendingStored.proposed ? pendingStored.value : null) : live;
  const flag = pendingStored ? pendingStored.flag : role.judgement.flag;
  const stated = pendingStored ? pendingStored.stated : role.judgement.stated;
  const fromRecord = stated !== null && proposed !== null && formatProposalValue(proposed).toLowerCase() === formatProposalValue(stated.value).toLowerCase();
  const confidence = pendingStored ? pendingStored.confidence : role.judgement.confidence;
  const votes = pendingStored ? pendingStored.evidence.votes : (role.categorical?.votes ?? []);
  const support = pendingStored
    ? pendingStored.evidence.support
    : role.support.map((neighbour) => ({ recordId: neighbour.recordId, title: neighbour.title, mediaId: neighbour.images[0]?.mediaId ?? null }));
  const current = role.role === "date" ? dateOf(role.current) : role.current;
  const agrees =
    proposed !== null && current !== null && current !== "" && formatProposalValue(proposed).toLowerCase() === formatProposalValue(current).toLowerCase();
  const headingId = `proposal-${role.role}`;
  // The period chart: the stored proposal's evidence when deciding that, else the live one.
  const chartRange = pendingStored ? pendingStored.evidence.date : role.date;
  const chart = role.role === "date" && chartRange ? { range: chartRange, voters: pendingStored ? pendingStored.evidence.voters : role.voters } : null;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4" data-testid={`proposal-${role.role}`}>
      <h3 id={headingId} className="font-semibold">
        {role.fieldLabel}
      </h3>
      <p className="text-sm text-stone-600">
        {current ? (
          <>
            Catalogued: <span className="font-medium text-stone-900">{formatProposalValue(current)}</span>
          </>
        ) : (
          "Not catalogued yet"
        )}
      </p>
      {proposed === null && flag ? (
        <>
          <p className="mt-2 text-sm text-stone-600">Not proposed.</p>
          <ProposalFlagNote flag={flag} proposed={false} />
          {editable && (
            <ProposalDecisionClient
              recordId={recordId}
              role={role.role}
              fieldLabel={role.fieldLabel}
              proposed={flag.vote}
              proposedLabel={formatProposalValue(flag.vote)}
              options={options}
              acceptable={false}
            />
          )}
        </>
      ) : proposed === null && stated ? (
        <p className="mt-2 rounded bg-sky-50 px-2 py-1 text-xs text-sky-900" data-testid="stated-not-proposed">
          <span className="font-semibold">Not proposed.</span> The record states {formatProposalValue(stated.value)} (
          {stated.sources.map((source) => `${source.label} “${source.text}”`).join("; ")}
          ), which is not one of the {role.fieldLabel.toLowerCase()} values; no neighbour&rsquo;s vote outranks it.
        </p>
      ) : proposed === null ? (
        <p className="mt-2 text-sm text-stone-500">
          {votes.length > 0
            ? `No proposal: the similar objects you can read have no identified ${role.fieldLabel.toLowerCase()} (${votes.map((vote) => vote.value).join(", ")} is no evidence).`
            : `No proposal: none of the similar objects you can read has a ${role.fieldLabel.toLowerCase()}.`}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm">
            Proposed:{" "}
            <span className="font-semibold" data-testid="proposed-value">
              {formatProposalValue(proposed)}
            </span>
            {agrees && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800">agrees with the catalogue</span>}
          </p>
          {pendingStored?.evidence.mode === "agent" ? (
            <p className="mt-2 rounded bg-stone-50 px-2 py-1 text-xs text-stone-700" data-testid="agent-proposal">
              <span className="font-semibold">Proposed by an agent</span> through an API token, not drawn from similar objects
              {pendingStored.evidence.note ? <>: “{pendingStored.evidence.note}”</> : "."}
            </p>
          ) : fromRecord && stated ? (
            <p className="mt-2 rounded bg-sky-50 px-2 py-1 text-xs text-sky-900" data-testid="stated-in-record">
              <span className="font-semibold">Stated in the record:</span> {stated.sources.map((source) => `${source.label} “${source.text}”`).join("; ")}. The
              record’s own text outranks the neighbours’ votes.
            </p>
          ) : (
            <div className="mt-2">
              <ConfidenceBar value={confidence} label={role.role === "date" ? "weight containing the centre" : "confidence"} />
            </div>
          )}
          {flag && <ProposalFlagNote flag={flag} proposed />}
          {votes.length > 1 && (
            <div className="mt-2 space-y-1" aria-label="Votes of the neighbours">
              {votes.slice(0, 4).map((vote) => (
                <ConfidenceBar key={vote.value} value={vote.share} label={`${vote.value} (${vote.voters})`} />
              ))}
            </div>
          )}
          {chart && (
            <PeriodChart
              earliest={chart.range.earliest}
              latest={chart.range.latest}
              central={chart.range.central}
              neighbours={chart.voters
                .filter((voter) => voter.date)
                .map((voter) => ({ title: voter.title, from: voter.date?.from ?? 0, to: voter.date?.to ?? 0, weight: voter.weight }))}
              current={dateOf(role.current)}
            />
          )}
          {support.length > 0 && (
            <div className="mt-3">
              <h4 className="text-xs font-medium text-stone-600">Supporting neighbours</h4>
              <ul className="mt-1 flex flex-wrap gap-2">
                {support.map((item) => (
                  <li key={item.recordId}>
                    <Link href={`/records/${item.recordId}`} title={item.title} className="block">
                      {item.mediaId ? <Thumbnail mediaId={item.mediaId} alt={item.title} size={56} /> : <span className="link text-xs">{item.title}</span>}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {editable && (
            <ProposalDecisionClient
              recordId={recordId}
              role={role.role}
              fieldLabel={role.fieldLabel}
              proposed={proposed}
              proposedLabel={formatProposalValue(proposed)}
              options={options}
            />
          )}
        </>
      )}
      {stored && <DecisionNote stored={stored} />}
    </section>
  );
}

function dateOf(value: string): { from: number; to: number } | null {
  const match = /^(-?\d+)–(-?\d+)$/.exec(value);
  return match ? { from: Number(match[1]), to: Number(match[2]) } : null;
}

export async function ObjectProposals({
  principal,
  runtime,
  recordId,
  editable,
}: {
  principal: Principal;
  runtime: Runtime;
  recordId: string;
  editable: boolean;
}) {
  const { objects, subject, reads } = await sharedReads(runtime, principal, recordId);
  const [characterisation, stored] = await Promise.all([
    characteriseObject(objects, principal, { recordId, subject, reads }),
    proposalsForRecord(objects, principal, recordId),
  ]);
  const fields = characterisation.subject.fields;
  return (
    <section aria-labelledby="proposals-heading" className="mt-10" data-testid="object-proposals">
      <h2 id="proposals-heading" className="text-xl font-semibold">
        Proposals from similar objects
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        Each role is voted on by up to {proposalNeighbours} of the most similar catalogued objects you can read, weighted by similarity
        {characterisation.usedContext ? " (images, and the object’s other catalogue fields)" : " (images only)"}.{" "}
        {editable ? "Accepting writes the value into the record, as an edit would." : "Curators who edit this collection decide them."}
      </p>
      {characterisation.status === "pending" ? (
        <p className="notice mt-3">This object’s images have not been described yet; proposals appear once the indexer has run.</p>
      ) : (
        <div className="mt-3 grid grid-cols-1 gap-4 md:grid-cols-2">
          {characterisation.roles.map((role) => {
            const field = fields.find((candidate) => candidate.key === role.fieldKey);
            return (
              <RoleCard
                key={role.role}
                role={role}
                stored={stored.find((proposal) => proposal.role === role.role)}
                editable={editable}
                recordId={recordId}
                options={field?.type === "category" ? field.options : undefined}
              />
            );
          })}
        </div>
      )}
    </section>
  );
}

export function ObjectPanelsLoading({ title }: { title: string }) {
  return (
    <section aria-busy="true" className="mt-10">
      <h2 className="text-xl font-semibold">{title}</h2>
      <p className="mt-2 text-sm text-stone-500">Comparing with the collection…</p>
    </section>
  );
}
