"use client";

import { useState } from "react";
import type { LongTextBlock } from "@/lib/archive/long-text-blocks";
import { fetchJson } from "./fetch-json";
import { MarkedText } from "./marked-text";

export type LongTextBlockView = Exclude<LongTextBlock, { kind: "page" }> | { kind: "page"; page: number; anchor?: string };

type English = { status: "idle" | "loading" | "error" } | { status: "ready"; texts: (string | null)[]; from: string; total: number };

const headingClasses = {
  1: "mt-6 text-xl font-semibold",
  2: "mt-5 text-lg font-semibold",
  3: "mt-4 text-base font-semibold",
} as const;

const languageNames: Record<string, string> = { es: "Spanish", ca: "Catalan" };

interface EnglishBody {
  from: string[];
  total: number;
  paragraphs: { language: string; english: string | null }[];
}

/**
 * A long text's blocks, and for a Spanish or Catalan text a "Show English" toggle: the English
 * of each paragraph (fetched on first use from the record's english route) beside it on wide
 * screens, under it on narrow ones, labelled machine translation. A failed fetch says so and
 * offers a retry; the words of the search the page was opened from are marked in both.
 */
export function LongTextClient({
  blocks,
  english,
  terms,
}: {
  blocks: LongTextBlockView[];
  english?: { src: string; label: string };
  terms: readonly string[];
}) {
  const [shown, setShown] = useState(false);
  const [state, setState] = useState<English>({ status: "idle" });

  const load = () => {
    if (!english) return;
    setState({ status: "loading" });
    fetchJson<EnglishBody>(english.src)
      .then((body) =>
        setState({
          status: "ready",
          texts: body.paragraphs.map((paragraph) => paragraph.english),
          from: body.from.map((code) => languageNames[code] ?? code).join(" and ") || "Spanish or Catalan",
          total: body.total,
        }),
      )
      .catch(() => setState({ status: "error" }));
  };

  const toggle = () => {
    const next = !shown;
    setShown(next);
    if (next && (state.status === "idle" || state.status === "error")) load();
  };

  const ready = shown && state.status === "ready" ? state : null;
  let paragraphIndex = -1;
  return (
    <div className={ready ? "leading-relaxed text-stone-800" : "max-w-prose leading-relaxed text-stone-800"}>
      {english && (
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600">
          <button
            type="button"
            className="btn"
            aria-pressed={shown}
            onClick={toggle}
            data-testid="text-english-toggle"
            aria-label={`Show English: ${english.label}`}
          >
            Show English
          </button>
          <span aria-live="polite" data-testid="text-english-status">
            {shown && state.status === "loading" && "Translating…"}
            {ready && (
              <>
                Machine translation from {ready.from} (Apertium); names are kept as written.
                {ready.texts.length < ready.total && ` The first ${ready.texts.length} of ${ready.total} paragraphs are translated.`}
              </>
            )}
            {shown && state.status === "error" && (
              <span className="text-red-700">
                The English could not be made just now.{" "}
                <button type="button" className="link" onClick={load} data-testid="text-english-retry">
                  Retry
                </button>
              </span>
            )}
          </span>
        </div>
      )}
      {blocks.map((block, index) => {
        if (block.kind === "heading") {
          const Heading = (["h3", "h4", "h5"] as const)[block.level - 1]!;
          return (
            <Heading key={index} className={headingClasses[block.level]}>
              {block.text}
            </Heading>
          );
        }
        if (block.kind === "page") {
          return (
            <div key={index} id={block.anchor} className="my-3 flex items-center gap-2 text-xs text-stone-500">
              <span className="h-px flex-1 bg-stone-200" aria-hidden="true" />
              <span className="font-mono">p. {block.page}</span>
            </div>
          );
        }
        paragraphIndex++;
        const translated = ready?.texts[paragraphIndex] ?? null;
        if (!ready) {
          return (
            <p key={index} className="mt-3 whitespace-pre-line">
              <MarkedText text={block.text} terms={terms} />
            </p>
          );
        }
        return (
          <div key={index} className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 md:grid-cols-2" data-testid="paragraph-pair">
            <p className="whitespace-pre-line">
              <MarkedText text={block.text} terms={terms} />
            </p>
            {translated !== null ? (
              <p lang="en" className="border-l-2 border-stone-200 pl-3 whitespace-pre-line text-stone-600 italic" data-testid="paragraph-english">
                <span className="sr-only">English (machine translation): </span>
                <MarkedText text={translated} terms={terms} />
              </p>
            ) : (
              <span aria-hidden="true" />
            )}
          </div>
        );
      })}
    </div>
  );
}
