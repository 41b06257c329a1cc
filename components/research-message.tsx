import Link from "next/link";
import type { ResearchBudgetName, ResearchCitation, ResearchStatus, ResearchStreamEvent } from "@/lib/api/research/research-schemas";
import { splitCitationMarkers } from "@/lib/llm/citation-markers";
import { citationHref, recordHref } from "./format";
import { SourceList, sourceLabel } from "./source-list";

/**
 * A research run as the Ask panel shows it: each tool call the model made, as it happens (what
 * it looked for, what came back, links to the records it named that the user may read, and how
 * many it was not allowed to send to the model), then the verified answer with its sources, or
 * why the run ended without one (a budget, a failure, the user's Stop).
 */
export type ResearchStep = Extract<ResearchStreamEvent, { type: "step" }>;

export interface ResearchRun {
  status: ResearchStatus | "streaming";
  steps: ResearchStep[];
  answer: string;
  citations: ResearchCitation[];
  /** How many citations the sources did not support (their statements were removed). */
  dropped: number;
  /** Why the run ended without an answer: the budget's message, the error, or "Stopped." */
  ending?: { budget?: ResearchBudgetName; message: string };
}

export const emptyRun = (): ResearchRun => ({ status: "streaming", steps: [], answer: "", citations: [], dropped: 0 });

const eventTypes = new Set<string>(["start", "step", "answer", "budget", "error", "done"]);

/**
 * A line of the research stream as an event: the server parsed every event with
 * `researchStreamEvent` before sending it, so the panel checks only its type (zod stays out of
 * the browser: its compiled parsers need eval, which the page policy forbids). The NDJSON framing
 * ends a stream that failed midway with its own `{type: "error", error: {message}}` line; an
 * unknown line is skipped.
 */
export function researchEventOf(line: unknown): ResearchStreamEvent | undefined {
  if (typeof line !== "object" || line === null || !eventTypes.has(String((line as { type?: unknown }).type))) return undefined;
  const framed = (line as { error?: { message?: unknown } }).error;
  if ((line as { type: string }).type === "error" && framed) return { type: "error", message: String(framed.message ?? "The research run failed.") };
  return line as ResearchStreamEvent;
}

/** Folds one event of the stream into the run. */
export function applyResearchEvent(run: ResearchRun, event: ResearchStreamEvent): ResearchRun {
  switch (event.type) {
    case "start":
      return run;
    case "step":
      return { ...run, steps: [...run.steps, event] };
    case "answer":
      return { ...run, answer: event.text, citations: event.citations, dropped: event.dropped.length };
    case "budget":
      return { ...run, ending: { budget: event.budget, message: event.message } };
    case "error":
      return { ...run, ending: { message: event.message } };
    case "done":
      return { ...run, status: event.status };
  }
}

const toolNames: Record<string, string> = {
  semantic_search: "Searched the archive",
  retrieve: "Looked for passages",
  read_record: "Read a record",
  similar_records: "Looked for similar records",
  similar_objects: "Looked for similar objects",
  list_sections: "Listed the sections",
  embed_groups: "Read the embed groups",
};

/** The arguments in a line: the query when there is one, else the first few as key: value. */
export function describeArguments(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value === "string" ? value.slice(0, 160) : "";
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined && item !== null);
  const query = entries.find(([key]) => key === "query" || key === "q" || key === "question");
  if (query && typeof query[1] === "string") return `“${query[1].slice(0, 160)}”`;
  return entries
    .slice(0, 3)
    .map(([key, item]) => `${key}: ${typeof item === "string" ? item : JSON.stringify(item)}`)
    .join(", ")
    .slice(0, 160);
}

/** Where a source opens: its passage when it is one, else the record (a whole record read). */
export function researchCitationHref(citation: ResearchCitation, question: string): string {
  if (citation.chunkId) return citationHref({ ...citation, chunkId: citation.chunkId, query: question });
  return recordHref(citation.recordId, { query: question, time: citation.timeStart });
}

function ResearchSteps({ steps, streaming }: { steps: readonly ResearchStep[]; streaming: boolean }) {
  return (
    <div className="mb-2">
      <p className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Research steps</p>
      {steps.length === 0 && streaming && <p className="text-stone-500">Planning the first step…</p>}
      {steps.length === 0 && !streaming && <p className="text-stone-500">No tool was called.</p>}
      <ol className="mt-1 space-y-1.5 text-xs" aria-label="Research steps" data-testid="research-steps">
        {steps.map((step) => (
          <li key={step.index} className="rounded border border-stone-200 bg-stone-50 px-2 py-1.5" data-testid="research-step" data-tool={step.tool}>
            <p>
              <span className="font-medium">
                {step.index}. {toolNames[step.tool] ?? step.tool}
              </span>
              {describeArguments(step.arguments) && <span className="text-stone-600"> {describeArguments(step.arguments)}</span>}
            </p>
            <p className={step.error ? "text-amber-900" : "text-stone-700"}>{step.summary}</p>
            {step.links.length > 0 && (
              <ul className="mt-0.5 flex flex-wrap gap-x-2">
                {step.links.slice(0, 6).map((link) => (
                  <li key={link.href}>
                    <Link href={link.href} className="link">
                      {link.title}
                    </Link>
                  </li>
                ))}
                {step.links.length > 6 && <li className="text-stone-500">and {step.links.length - 6} more</li>}
              </ul>
            )}
            {step.withheld > 0 && (
              <p className="text-amber-900" data-testid="research-withheld">
                {step.withheld === 1 ? "1 result was" : `${step.withheld} results were`} not sent to the model (local-only sections).
              </p>
            )}
          </li>
        ))}
        {streaming && steps.length > 0 && <li className="text-stone-500">Working…</li>}
      </ol>
    </div>
  );
}

function ResearchAnswerText({ run, question }: { run: ResearchRun; question: string }) {
  const byNumber = new Map(run.citations.map((citation) => [Number(citation.id), citation]));
  return (
    <p className="whitespace-pre-wrap leading-relaxed" data-testid="research-answer">
      {splitCitationMarkers(run.answer).map(({ text, numbers }, index) =>
        numbers ? (
          <span key={index}>
            {numbers.map((number) => {
              const citation = byNumber.get(number);
              return citation ? (
                <Link
                  key={number}
                  href={researchCitationHref(citation, question)}
                  className="mx-0.5 rounded bg-accent-50 px-1 text-xs font-medium text-accent-900 underline-offset-2 hover:underline"
                  aria-label={`Source ${number}: ${sourceLabel(citation)}`}
                >
                  [{number}]
                </Link>
              ) : (
                <span key={number}>[{number}]</span>
              );
            })}
          </span>
        ) : (
          <span key={index}>{text}</span>
        ),
      )}
    </p>
  );
}

const headings: Partial<Record<ResearchRun["status"], string>> = {
  budget: "Budget reached",
  failed: "Failed",
  cancelled: "Stopped",
  unavailable: "Research unavailable",
};

/** One research run in the panel: its steps, then its answer or why it ended without one. */
export function ResearchMessage({ run, question }: { run: ResearchRun; question: string }) {
  const streaming = run.status === "streaming";
  const tone =
    run.status === "failed" || run.status === "unavailable"
      ? "border-red-200 bg-red-50 text-red-900"
      : run.status === "budget" || run.status === "cancelled"
        ? "border-amber-200 bg-amber-50 text-amber-950"
        : "border-stone-200 bg-white text-stone-900";
  const heading = headings[run.status];
  return (
    <div className={`rounded-lg border p-3 text-sm ${tone}`} data-testid="research" data-status={run.status}>
      {heading && <p className="mb-1 text-xs font-semibold tracking-wide uppercase">{heading}</p>}
      <ResearchSteps steps={run.steps} streaming={streaming} />
      {run.ending && <p role={streaming ? undefined : "status"}>{run.ending.message}</p>}
      {run.answer && <ResearchAnswerText run={run} question={question} />}
      {run.status === "answered" && !run.answer && <p>The model ended without an answer the sources support.</p>}
      {run.dropped > 0 && (
        <p className="mt-1 text-xs text-stone-600" data-testid="research-dropped">
          {run.dropped === 1 ? "1 statement was" : `${run.dropped} statements were`} removed: the cited sources did not support them.
        </p>
      )}
      <SourceList sources={run.citations} number={(citation) => citation.id} href={(citation) => researchCitationHref(citation, question)} />
    </div>
  );
}
