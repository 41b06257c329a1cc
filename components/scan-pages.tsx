import type { ScanPage } from "@/lib/archive/scan-pages";
import { markedScanWords } from "@/lib/rag/search/scan-hit-words";
import { MarkedText as QueryMarkedText } from "./marked-text";

/**
 * A scan's pages: each page image beside the text OCR read from it. The page a citation or a
 * search hit points at carries marks over the image (word boxes scaled to the image as shown) on
 * the passage's words the query matched, or on the whole passage when none does (markedScanWords),
 * and its text part marked too. Page images come from /api/media/<id>?page=N, under
 * the record's access rule. Opened from a search or a question (`terms`), the text of every
 * page marks its words, as the record's other texts do.
 */
export function ScanPages({
  mediaId,
  fieldKey,
  label,
  pages,
  cited,
  terms = [],
}: {
  mediaId: string;
  fieldKey: string;
  label: string;
  pages: ScanPage[] | undefined;
  cited?: { page: number; text: string };
  terms?: readonly string[];
}) {
  if (!pages || pages.length === 0) {
    return (
      <p className="text-sm text-stone-600">
        These pages have not been read yet: the index worker reads scanned pages in the background, and their text becomes searchable then.
      </p>
    );
  }
  return (
    <ol className="space-y-6">
      {pages.map((page) => {
        const marked = cited && cited.page === page.page ? new Set(markedScanWords(page.words, cited.text, terms)) : new Set<number>();
        return (
          <li
            key={page.page}
            id={scanPageId(fieldKey, page.page)}
            className="scroll-mt-4 rounded-lg border border-stone-200 bg-white p-3"
            data-testid="scan-page"
          >
            <h3 className="mb-2 text-sm font-medium text-stone-600">
              Page {page.page}
              {page.meanConfidence !== null && <span className="font-normal text-stone-500"> · read with {Math.round(page.meanConfidence)}% confidence</span>}
              {marked.size > 0 && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-950">cited passage</span>}
            </h3>
            {page.status === "failed" ? (
              <p className="text-sm text-amber-900">This page could not be read: {page.error ?? "unknown error"}.</p>
            ) : (
              <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
                <ScanPageFigure mediaId={mediaId} label={label} page={page} marked={marked} />
                <div className="text-sm whitespace-pre-line text-stone-900" lang={page.language && page.language !== "und" ? page.language : undefined}>
                  {marked.size > 0 ? (
                    <MarkedText words={page.words.map((word) => word.t)} marked={marked} />
                  ) : page.text ? (
                    <QueryMarkedText text={page.text} terms={terms} />
                  ) : (
                    <span className="text-stone-500">No text was found on this page.</span>
                  )}
                </div>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** A page image with the given words marked over it: boxes in percentages of the page, so they scale with the image. */
export function ScanPageFigure({
  mediaId,
  label,
  page,
  marked,
  className = "",
}: {
  mediaId: string;
  label: string;
  page: ScanPage;
  marked: ReadonlySet<number>;
  className?: string;
}) {
  return (
    <figure className={`relative self-start ${className}`}>
      {/* Authenticated, access-checked media: not for the public image optimiser. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        src={`/api/media/${mediaId}?page=${page.page}`}
        alt={`${label}, page ${page.page}`}
        loading="lazy"
        width={page.width || undefined}
        height={page.height || undefined}
        className="block h-auto w-full rounded border border-stone-100"
      />
      {page.width > 0 &&
        [...marked].map((index) => {
          const word = page.words[index];
          if (!word) return null;
          return (
            <span
              key={index}
              aria-hidden="true"
              data-testid="scan-word-mark"
              data-word={word.t}
              className="pointer-events-none absolute rounded-sm bg-amber-300/40 ring-1 ring-amber-500/60"
              style={{
                left: `${(word.x / page.width) * 100}%`,
                top: `${(word.y / page.height) * 100}%`,
                width: `${(word.w / page.width) * 100}%`,
                height: `${(word.h / page.height) * 100}%`,
              }}
            />
          );
        })}
    </figure>
  );
}

/** The anchor of a scan's page on the record page (a citation's "show on the page" link). */
export function scanPageId(fieldKey: string, page: number): string {
  return `scan-${fieldKey}-page-${page}`;
}

function MarkedText({ words, marked }: { words: string[]; marked: ReadonlySet<number> }) {
  return (
    <p>
      {words.map((word, index) => (
        <span key={index}>
          {index > 0 && " "}
          {marked.has(index) ? <mark className="bg-amber-100">{word}</mark> : word}
        </span>
      ))}
    </p>
  );
}
