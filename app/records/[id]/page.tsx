import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense, cache } from "react";
import { type Principal, canEdit, isAdmin, isAnonymous } from "@/lib/acl";
import { getRecord, type RecordDetail } from "@/lib/archive/get-record";
import { jsonLdScriptText } from "@/lib/archive/linked-data/json-ld";
import { schemaOrgRecord } from "@/lib/archive/linked-data/schema-org";
import { requestOrigin } from "@/lib/api/handle-api-request";
import { authorizedPage } from "@/lib/http/authorized";
import { recordCaptions } from "@/lib/http/captions-response";
import { processCaptionTranslator } from "@/lib/rag/embed/caption-translation";
import { recordTextTranslations } from "@/lib/http/english-text-response";
import { processTextTranslator } from "@/lib/rag/embed/text-translation";
import { pageQueryTerms } from "@/lib/rag/search/highlight";
import { markedScanWords } from "@/lib/rag/search/scan-hit-words";
import type { Runtime } from "@/lib/runtime";
import { isAppError } from "@/lib/errors";
import { getCitedPassage } from "@/lib/rag/ask/cited-passage";
import { formatDateTime, formatTimecode } from "@/components/format";
import { LockIcon } from "@/components/lock-icon";
import { RecordFields } from "@/components/record-fields";
import { ScanPageFigure, scanPageId } from "@/components/scan-pages";
import { getScanPages } from "@/lib/archive/scan-pages";
import { RecordActionsClient } from "./record-actions-client";
import { isObjectRecord } from "@/lib/rag/objects/object-neighbours";
import { similarObjectModes, type SimilarObjectMode } from "@/lib/rag/objects/similar-objects";
import { ObjectPanelsLoading, ObjectProposals, SimilarObjects } from "./object-panels";
import { SimilarRecords, SimilarRecordsLoading } from "./similar-records";
import { CiteLinks } from "./cite-links";
import { IiifLink } from "./iiif-link";
import { RecordHistorySection } from "./record-history";

type PageProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Query>;
};

type Query = Record<string, string | string[] | undefined>;

/**
 * The principal and the record, once per request (metadata and page share it); a missing and an
 * unreadable record both end in the same not-found page.
 */
const loadRecord = cache(async (id: string, returnTo: string): Promise<{ principal: Principal; runtime: Runtime; record: RecordDetail }> => {
  const { principal, runtime } = await authorizedPage(returnTo);
  try {
    return { principal, runtime, record: await getRecord(runtime.database.prisma, principal, id) };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
});

function returnPath(id: string, query: Query): string {
  const path = `/records/${encodeURIComponent(id)}`;
  const kept = new URLSearchParams();
  for (const name of ["t", "q"]) {
    const value = query[name];
    if (typeof value === "string") kept.set(name, value);
  }
  return kept.size ? `${path}?${kept.toString()}` : path;
}

export async function generateMetadata({ params, searchParams }: PageProps): Promise<Metadata> {
  const { id } = await params;
  const { record } = await loadRecord(id, returnPath(id, await searchParams));
  return { title: record.title };
}

/** Where the JSON-LD's links point: AUTH_URL's origin when configured, else the called host. */
async function pageOrigin(runtime: Runtime): Promise<string> {
  const requestHeaders = await headers();
  return requestOrigin(
    new Request("http://localhost/", {
      headers: { host: requestHeaders.get("host") ?? "localhost:3000", "x-forwarded-proto": requestHeaders.get("x-forwarded-proto") ?? "http" },
    }),
    runtime.config.AUTH_URL ? new URL(runtime.config.AUTH_URL).origin : undefined,
  );
}

/** ?history=<version> pages the history to the versions older than that one. */
function historyBefore(value: string | string[] | undefined): number | undefined {
  const version = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  return version >= 2 && version <= 2_147_483_647 ? version : undefined;
}

/** ?t=<seconds> opens the main player at that moment (citations link here). */
function startSeconds(value: string | string[] | undefined): number | undefined {
  const seconds = typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 && seconds < 10 * 24 * 3600 ? seconds : undefined;
}

export default async function RecordPage({ params, searchParams }: PageProps) {
  const { id } = await params;
  const query = await searchParams;
  const { principal, runtime, record } = await loadRecord(id, returnPath(id, query));
  const editable = canEdit(principal, { projectId: record.project.id });
  const { sql } = runtime.database;
  const cited = typeof query.passage === "string" ? await getCitedPassage(sql, principal, record.id, query.passage) : undefined;
  const isObject = await isObjectRecord(sql, record.id);
  const scanFields = record.section.fields.filter((field) => field.type === "scan" && typeof record.values[field.key] === "string");
  const scans = scanFields.length ? await getScanPages(runtime.database.prisma, principal, record.id) : {};
  const captions = await recordCaptions(runtime.database.prisma, principal, record, processCaptionTranslator);
  const textEnglish = await recordTextTranslations(record, processTextTranslator);
  // Opened from a search (`?q=`, the list's links) or a question (citations): its words are marked.
  const terms = pageQueryTerms(query.q);
  // The scan field whose pages hold the cited page: its page image opens with the words marked.
  const citedScan =
    cited?.page != null
      ? scanFields.find((field) => scans[String(record.values[field.key])]?.some((page) => page.page === cited.page && page.status === "read"))
      : undefined;
  const citedMediaId = citedScan ? String(record.values[citedScan.key]) : undefined;
  const citedPage = citedMediaId ? scans[citedMediaId]?.find((page) => page.page === cited?.page) : undefined;
  const objectMode: SimilarObjectMode = similarObjectModes.find((mode) => mode === query.objects) ?? "hybrid";
  // schema.org for discovery; `<` is escaped in it, so no value can end the script element.
  const jsonLd = jsonLdScriptText(schemaOrgRecord(record, { origin: await pageOrigin(runtime), object: isObject }));

  return (
    <article>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd }} />
      <nav aria-label="Breadcrumb" className="text-sm text-stone-500">
        <Link href="/records" className="link">
          Records
        </Link>
        <span aria-hidden="true"> / </span>
        <Link href={`/records?section=${encodeURIComponent(record.section.slug)}`} className="link">
          {record.section.name}
        </Link>
      </nav>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-4">
        <h1 className="text-3xl font-semibold">{record.title}</h1>
        {editable && <RecordActionsClient id={record.id} title={record.title} version={record.version} />}
      </div>
      <CiteLinks record={record} startAt={startSeconds(query.t)} />
      <IiifLink record={record} />

      {cited && (
        <section
          id="cited-passage"
          aria-labelledby="cited-passage-heading"
          className="mt-6 rounded-lg border-l-4 border-amber-400 bg-amber-50 px-4 py-3"
          data-testid="cited-passage"
        >
          <h2 id="cited-passage-heading" className="text-sm font-semibold text-amber-950">
            Cited passage
            <span className="font-normal text-amber-900">
              {" "}
              · {cited.location}
              {cited.page !== null && ` · p. ${cited.page}${cited.pageEnd && cited.pageEnd !== cited.page ? `–${cited.pageEnd}` : ""}`}
              {cited.timeStart !== null && ` · ${formatTimecode(cited.timeStart)}${cited.timeEnd !== null ? `–${formatTimecode(cited.timeEnd)}` : ""}`}
            </span>
          </h2>
          <p className="mt-1 text-sm whitespace-pre-line text-stone-900">
            <mark className="bg-amber-100">{cited.text}</mark>
          </p>
          {citedScan && citedMediaId && citedPage && (
            <div className="mt-3">
              {/* The page the citation points at, with the searched words of the passage marked on it (the whole passage when none matches). */}
              <ScanPageFigure
                mediaId={citedMediaId}
                label={`${record.title} — ${citedScan.label}`}
                page={citedPage}
                marked={new Set(markedScanWords(citedPage.words, cited.text, terms))}
                className="max-w-md"
              />
              <p className="mt-2 text-sm">
                <a href={`#${scanPageId(citedScan.key, citedPage.page)}`} className="link">
                  Page {citedPage.page} with the text read from it
                </a>
              </p>
            </div>
          )}
        </section>
      )}

      <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[1fr_16rem]">
        <RecordFields
          record={record}
          startAt={startSeconds(query.t)}
          scans={scans}
          captions={captions}
          textEnglish={textEnglish}
          terms={terms}
          cited={citedScan && cited?.page != null ? { page: cited.page, text: cited.text } : undefined}
        />

        <aside className="space-y-6 text-sm">
          <dl className="space-y-3 rounded-lg border border-stone-200 bg-white p-4">
            <div>
              <dt className="text-stone-500">Project</dt>
              <dd className="flex items-center gap-1 font-medium">
                {record.project.name}
                {record.project.restricted && <LockIcon label="Restricted project" />}
              </dd>
            </div>
            <div>
              <dt className="text-stone-500">Section</dt>
              <dd className="font-medium">{record.section.name}</dd>
            </div>
            <div>
              <dt className="text-stone-500">Version</dt>
              <dd className="font-medium">{record.version}</dd>
            </div>
            <div>
              <dt className="text-stone-500">Last updated</dt>
              <dd className="font-medium">
                <time dateTime={record.updatedAt.toISOString()}>{formatDateTime(record.updatedAt)}</time>
              </dd>
            </div>
          </dl>

          {record.backlinks.length > 0 && (
            <section aria-labelledby="backlinks-heading">
              <h2 id="backlinks-heading" className="text-base font-semibold">
                Linked from
              </h2>
              <ul className="mt-2 space-y-2">
                {record.backlinks.map((link) => (
                  <li key={`${link.id}-${link.fieldLabel}`}>
                    <Link href={`/records/${link.id}`} className="link">
                      {link.title}
                    </Link>
                    <div className="text-xs text-stone-500">
                      {link.sectionName} · {link.fieldLabel}
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          )}

          <Suspense fallback={<SimilarRecordsLoading />}>
            <SimilarRecords
              principal={principal}
              runtime={runtime}
              recordId={record.id}
              groupId={typeof query.similar === "string" ? query.similar : undefined}
            />
          </Suspense>
        </aside>
      </div>

      {isObject && (
        <>
          <Suspense fallback={<ObjectPanelsLoading title="Similar objects" />}>
            <SimilarObjects principal={principal} runtime={runtime} recordId={record.id} mode={objectMode} />
          </Suspense>
          <Suspense fallback={<ObjectPanelsLoading title="Proposals from similar objects" />}>
            <ObjectProposals principal={principal} runtime={runtime} recordId={record.id} editable={editable} />
          </Suspense>
          {isAdmin(principal) && (
            <p className="mt-4 text-sm">
              <Link href={`/admin/sections/${encodeURIComponent(record.section.slug)}/objects`} className="link">
                Configure the object context of {record.section.name}
              </Link>
            </p>
          )}
        </>
      )}

      {/* History names who saved: for signed-in readers, not the anonymous public reader. */}
      {!isAnonymous(principal) && (
        <Suspense fallback={<p className="mt-10 text-sm text-stone-500">Loading the history…</p>}>
          <RecordHistorySection principal={principal} runtime={runtime} recordId={record.id} before={historyBefore(query.history)} />
        </Suspense>
      )}
    </article>
  );
}
