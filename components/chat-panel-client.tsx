"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { describeError } from "@/lib/errors";
import type { AskStatus, Citation, WithheldSource } from "@/lib/rag/ask/ask";
import type { ThreadEvent, ThreadMessage, ThreadSummary } from "@/lib/rag/ask/threads";
import { splitCitationMarkers, splitLiteralMarkers } from "@/lib/llm/citation-markers";
import { splitTranslationNotes, splitUntranslatedWords } from "@/lib/llm/translation-note";
import { maxQueryLength } from "@/lib/query-length";
import { citationFiles, citationFormats, citeSelectionHref } from "@/lib/archive/citation-formats";
import type { ResearchScope } from "@/lib/api/research/research-schemas";
import type { researchAvailability } from "@/lib/llm/research-model";
import { citationHref } from "./format";
import { SourceList, sourceLabel } from "./source-list";
import { ResearchMessage, type ResearchRun, applyResearchEvent, emptyRun, researchEventOf } from "./research-message";
import { type Jsonified, fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { useNdjsonStream } from "./use-ndjson-stream";

/**
 * The ask panel: questions answered only from passages the user may read, streamed, with
 * numbered citations that open the record at the cited passage (and a recording at the cited
 * second). Threads are saved per user and can be reopened. Refusal, restriction and failure
 * each look different, so nobody mistakes one for an answer. In research mode (when a chat model
 * is configured) a model plans several tool calls over the archive, shown step by step, and ends
 * with a verified, cited answer; research runs are not saved in the thread.
 */
export interface ChatScopeOption {
  id: string;
  label: string;
  scope: {
    sectionSlugs?: string[];
    projectIds?: string[];
    recordIds?: string[];
    search?: { q: string; mode?: string; section?: string; project?: string };
  };
}

/** What the panel can answer from, read off the page the user is on. */
export function scopesForPage(pathname: string, params: URLSearchParams): ChatScopeOption[] {
  const scopes: ChatScopeOption[] = [{ id: "all", label: "Everything I can read", scope: {} }];
  const record = /^\/records\/([0-9a-f-]{36})(?:\/|$)/.exec(pathname)?.[1];
  if (record) return [{ id: "record", label: "This record", scope: { recordIds: [record] } }, ...scopes];
  if (pathname !== "/records") return scopes;
  const section = params.get("section") || undefined;
  const project = params.get("project") || undefined;
  const q = params.get("q")?.trim();
  if (q) {
    scopes.unshift({ id: `results:${q}`, label: "These search results", scope: { search: { q, mode: params.get("mode") || undefined, section, project } } });
  }
  if (section) scopes.push({ id: `section:${section}`, label: "This section", scope: { sectionSlugs: [section] } });
  if (project) scopes.push({ id: `project:${project}`, label: "This project", scope: { projectIds: [project] } });
  return scopes;
}

/**
 * What a scope narrows a research run to. Research takes sections, projects and records; "these
 * search results" is not one of them, so research mode does not offer it.
 */
export function researchScopeFor(option: ChatScopeOption): ResearchScope | undefined {
  if (option.scope.search) return undefined;
  const { sectionSlugs, projectIds, recordIds } = option.scope;
  return { ...(sectionSlugs && { sections: sectionSlugs }), ...(projectIds && { projectIds }), ...(recordIds && { recordIds }) };
}

/** Whether research mode can run here, and if not why (read from the configuration by the layout). */
type ResearchAvailability = ReturnType<typeof researchAvailability>;

type Mode = "answer" | "research";

/** A saved answer can also be withdrawn; a question is complete; an answer arriving is streaming. */
type Status = AskStatus | "withdrawn" | "streaming" | "complete";

/** A message of the thread as the panel shows it: the server's, or one being asked. */
interface Message extends Pick<ThreadMessage, "id" | "role" | "content"> {
  status: Status;
  citations: Citation[];
  withheld: WithheldSource[];
  /** A research run's steps and answer, for an assistant message of research mode. */
  research?: ResearchRun;
}

/** A line of the ask stream: the thread's events, or the error the NDJSON framing ends a stream with. */
type StreamEvent = ThreadEvent | { type: "error"; error: ReturnType<typeof describeError> };

const readThreads = () => fetchJson<{ threads: Jsonified<ThreadSummary>[] }>("/api/ask/threads").then((body) => body.threads);
const readThread = (threadId: string) =>
  fetchJson<{ thread: Jsonified<ThreadSummary> & { messages: Jsonified<ThreadMessage>[] } }>(`/api/ask/threads/${encodeURIComponent(threadId)}`).then(
    (body) => body.thread,
  );

function plainAnswer(message: Message): string {
  const references = message.citations.map((citation) => `[${citation.number}] ${sourceLabel(citation)} — ${location.origin}${citationHref(citation)}`);
  return references.length > 0 ? `${message.content}\n\n${references.join("\n")}` : message.content;
}

/** The question an answer replies to: the user's message before it in the thread. */
function questionBefore(messages: readonly Message[], index: number): string {
  for (let at = index - 1; at >= 0; at--) if (messages[at]?.role === "user") return messages[at]?.content ?? "";
  return "";
}

/** A run of quoted text; a source's own bracketed number ("［3］") is text, never a link. */
function QuotedRun({ text }: { text: string }) {
  return splitLiteralMarkers(text).map((run, index) =>
    run.literal ? (
      <span key={index} title="A bracketed number in the source's own text, not a citation of this answer">
        {run.text}
      </span>
    ) : (
      run.text
    ),
  );
}

/** A quotation's machine translation, set apart; a word the translator left as written ("⟨despenjar-se⟩") is shown as such. */
function TranslationNote({ text }: { text: string }) {
  return (
    <span className="text-stone-500 italic">
      {splitUntranslatedWords(text).map((run, index) =>
        run.untranslated ? (
          <span
            key={index}
            className="not-italic text-stone-700 underline decoration-dotted underline-offset-2"
            title="Not in the translator's dictionary: left as written"
          >
            <QuotedRun text={run.text} />
            <span className="sr-only"> (not translated: left as written)</span>
          </span>
        ) : (
          <QuotedRun key={index} text={run.text} />
        ),
      )}
    </span>
  );
}

/** The answer's text with [n] markers turned into links to their passages, which mark the question's words. */
function AnswerText({ message, question }: { message: Message; question: string }) {
  const byNumber = new Map(message.citations.map((citation) => [citation.number, citation]));
  // The server's marker grammar, the one the answer was verified and numbered with.
  return (
    <p className="whitespace-pre-wrap leading-relaxed">
      {splitCitationMarkers(message.content).map(({ text: part, numbers }, index) => {
        if (!numbers) {
          // A quotation's machine translation reads apart from the quoted words.
          return splitTranslationNotes(part).map((run, runIndex) =>
            run.note ? (
              <TranslationNote key={`${index}-${runIndex}`} text={run.text} />
            ) : (
              <span key={`${index}-${runIndex}`}>
                <QuotedRun text={run.text} />
              </span>
            ),
          );
        }
        return (
          <span key={index}>
            {numbers.map((number) => {
              const citation = byNumber.get(number);
              return citation ? (
                <Link
                  key={number}
                  href={citationHref({ ...citation, query: question })}
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
        );
      })}
    </p>
  );
}

function AssistantMessage({ message, question }: { message: Message; question: string }) {
  const [copied, setCopied] = useState(false);
  const tone =
    message.status === "failed"
      ? "border-red-200 bg-red-50 text-red-900"
      : message.status === "restricted"
        ? "border-amber-200 bg-amber-50 text-amber-950"
        : message.status === "refused" || message.status === "withdrawn"
          ? "border-stone-300 bg-stone-100 text-stone-700"
          : "border-stone-200 bg-white text-stone-900";
  return (
    <div className={`rounded-lg border p-3 text-sm ${tone}`} data-testid="answer" data-status={message.status}>
      {message.status === "refused" && <p className="mb-1 text-xs font-semibold uppercase tracking-wide">No answer in the records</p>}
      {message.status === "restricted" && <p className="mb-1 text-xs font-semibold uppercase tracking-wide">Restricted sources</p>}
      {message.status === "failed" && <p className="mb-1 text-xs font-semibold uppercase tracking-wide">Failed</p>}
      {message.status === "streaming" && message.content === "" ? (
        <p className="text-stone-500">Reading the sources…</p>
      ) : (
        <AnswerText message={message} question={question} />
      )}
      {message.withheld.length > 0 && (
        <div className="mt-2">
          {message.status !== "restricted" && <p className="text-xs">Not sent to the answer model (local-only sections):</p>}
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {message.withheld.map((item) => (
              <li key={item.chunkId}>
                <Link href={citationHref({ ...item, query: question })} className="link">
                  {item.recordTitle}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      <SourceList sources={message.citations} number={(citation) => citation.number} href={(citation) => citationHref({ ...citation, query: question })} />
      {message.status === "answered" && message.citations.length > 0 && (
        <p className="mt-2 text-xs text-stone-600" data-testid="answer-references">
          Export the sources:{" "}
          {citationFormats.map((format, index) => (
            <span key={format}>
              {index > 0 && <span aria-hidden="true"> · </span>}
              <a
                href={citeSelectionHref(
                  format,
                  message.citations.map((citation) => ({ recordId: citation.recordId, seconds: citation.timeStart })),
                )}
                download
                className="link"
                aria-label={`Download the answer's sources as ${citationFiles[format].label}`}
              >
                {citationFiles[format].label}
              </a>
            </span>
          ))}
        </p>
      )}
      {message.status === "answered" && (
        <button
          type="button"
          className="mt-2 text-xs text-stone-600 underline underline-offset-2 hover:text-stone-900"
          onClick={() => {
            void navigator.clipboard?.writeText(plainAnswer(message)).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied with references" : "Copy answer with references"}
        </button>
      )}
    </div>
  );
}

/** Where the panel docks beside the page instead of covering it (globals.css uses the same width). */
const dockedPanelQuery = "(min-width: 1024px)";

export function ChatPanelClient({ research }: { research: ResearchAvailability }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [mode, setMode] = useState<Mode>("answer");
  const pageScopes = scopesForPage(pathname, new URLSearchParams(searchParams.toString()));
  const scopes = mode === "research" ? pageScopes.filter((scope) => researchScopeFor(scope) !== undefined) : pageScopes;
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  // The user's threads, read when the panel first opens and again after each question.
  const { data: threads } = useQuery({ queryKey: queryKeys.askThreads.list(), queryFn: readThreads, enabled: open });
  const [threadId, setThreadId] = useState<string | undefined>();
  const [messages, setMessages] = useState<Message[]>([]);
  const [question, setQuestion] = useState("");
  const [chosenScope, setScopeId] = useState<string | undefined>();
  // The page's own scope (this record, these results) unless the user chose another that still applies.
  const scopeId = scopes.some((scope) => scope.id === chosenScope) ? chosenScope! : scopes[0]!.id;
  const { busy, stream, stop } = useNdjsonStream();
  const [problem, setProblem] = useState<string | undefined>();
  const pendingCount = useRef(0);
  const openerRef = useRef<HTMLButtonElement>(null);
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const hasOpened = useRef(false);

  // Esc closes the open panel (unless an answer is streaming), wherever focus is.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape" && !busy) setOpen(false);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [open, busy]);

  // Open, the panel docks beside the content on wide screens (globals.css reflows the page by
  // its width), so it never covers the passage a citation opens.
  useEffect(() => {
    document.body.toggleAttribute("data-ask-open", open);
    return () => document.body.removeAttribute("data-ask-open");
  }, [open]);

  // Closing the panel gives focus back to the button that opened it.
  useEffect(() => {
    if (open) hasOpened.current = true;
    else if (hasOpened.current) openerRef.current?.focus();
  }, [open]);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [messages]);

  async function openThread(id: string) {
    setProblem(undefined);
    if (!id) {
      setThreadId(undefined);
      setMessages([]);
      return;
    }
    let thread: Awaited<ReturnType<typeof readThread>>;
    try {
      // Always read afresh: reopening re-checks each answer's sources as the records are now.
      thread = await queryClient.fetchQuery({ queryKey: queryKeys.askThreads.detail(id), queryFn: () => readThread(id), staleTime: 0 });
    } catch {
      setProblem("That conversation could not be opened.");
      return;
    }
    setThreadId(thread.id);
    setMessages(thread.messages.map((message) => ({ ...message, status: message.status as Status })));
  }

  async function send(event?: FormEvent) {
    event?.preventDefault();
    const text = question.trim();
    if (busy || text.length === 0) return;
    setProblem(undefined);
    const pendingId = `pending-${++pendingCount.current}`;
    setMessages((current) => [
      ...current,
      { id: `${pendingId}-q`, role: "user", content: text, status: "complete", citations: [], withheld: [] },
      { id: pendingId, role: "assistant", content: "", status: "streaming", citations: [], withheld: [] },
    ]);
    setQuestion("");
    const update = (change: Partial<Message>) =>
      setMessages((current) => current.map((message) => (message.id === pendingId ? { ...message, ...change } : message)));
    if (mode === "research") {
      await runResearch(text, pendingId);
      return;
    }
    let streamed = "";
    // Sources arrive just before the text that first cites them, numbered as its markers.
    let streamedCitations: Citation[] = [];
    const end = await stream("/api/ask", { question: text, threadId, scope: scopes.find((item) => item.id === scopeId)?.scope ?? {} }, (line) => {
      const event = line as StreamEvent;
      if (event.type === "thread") setThreadId(event.threadId);
      else if (event.type === "sources") update({ citations: (streamedCitations = [...streamedCitations, ...event.sources]) });
      else if (event.type === "delta") update({ content: (streamed += event.text) });
      else if (event.type === "final")
        update({ content: event.outcome.text, status: event.outcome.status, citations: event.outcome.citations, withheld: event.outcome.withheld });
      else if (event.type === "error") update({ content: event.error.message, status: "failed" });
    });
    if (end.ended === "stopped") update({ content: "Stopped.", status: "failed" });
    else if (end.ended === "failed") update({ content: end.message, status: "failed" });
    // The question was saved before the answer, also when the stream ended early.
    void queryClient.invalidateQueries({ queryKey: queryKeys.askThreads.all() });
    // Ready for the next question without reaching for the mouse.
    questionRef.current?.focus();
  }

  /** A research run: its steps as they stream, then its answer, budget message or failure. */
  async function runResearch(text: string, pendingId: string) {
    let run: ResearchRun = emptyRun();
    const show = (next: ResearchRun) => {
      run = next;
      setMessages((current) => current.map((message) => (message.id === pendingId ? { ...message, research: next } : message)));
    };
    show(run);
    const option = scopes.find((item) => item.id === scopeId);
    const scope = option ? researchScopeFor(option) : undefined;
    const end = await stream("/api/research", { question: text, ...(scope && Object.keys(scope).length > 0 && { scope }) }, (line) => {
      const event = researchEventOf(line);
      if (event) show(applyResearchEvent(run, event));
    });
    if (end.ended === "stopped") show({ ...run, status: "cancelled", ending: { message: "Stopped. The steps so far stand; there is no answer." } });
    else if (end.ended === "failed") show({ ...run, status: "failed", ending: { message: end.message } });
    else if (run.status === "streaming") show({ ...run, status: "failed", ending: run.ending ?? { message: "The research run ended without a result." } });
    questionRef.current?.focus();
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  if (!open) {
    return (
      <button
        ref={openerRef}
        type="button"
        className="btn btn-primary fixed right-4 bottom-4 z-30 shadow-lg"
        onClick={() => setOpen(true)}
        aria-expanded="false"
        aria-controls="ask-panel"
      >
        Ask the archive
      </button>
    );
  }

  return (
    <aside
      id="ask-panel"
      aria-label="Ask the archive"
      onClick={(event) => {
        // On a screen too narrow to dock the panel, following a citation (or any record link)
        // closes it, so the cited passage is not under it.
        const link = (event.target as HTMLElement).closest("a[href^='/records/']");
        if (link && !window.matchMedia(dockedPanelQuery).matches) setOpen(false);
      }}
      className="fixed inset-y-0 right-0 z-30 flex w-full max-w-md flex-col border-l border-stone-200 bg-stone-50 shadow-2xl"
    >
      <div className="flex items-center justify-between gap-2 border-b border-stone-200 bg-white px-4 py-3">
        <h2 className="text-lg font-semibold">Ask the archive</h2>
        <button type="button" className="btn" onClick={() => setOpen(false)} aria-expanded="true" aria-controls="ask-panel">
          Close
        </button>
      </div>
      <div className="grid grid-cols-2 gap-2 border-b border-stone-200 bg-white px-4 py-2">
        <div>
          <label htmlFor="ask-thread" className="field-label text-xs">
            Conversation
          </label>
          <select id="ask-thread" className="field-input" value={threadId ?? ""} onChange={(event) => void openThread(event.target.value)} disabled={busy}>
            <option value="">New conversation</option>
            {threads?.map((thread) => (
              <option key={thread.id} value={thread.id}>
                {thread.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="ask-scope" className="field-label text-xs">
            {mode === "research" ? "Research in" : "Answer from"}
          </label>
          <select id="ask-scope" className="field-input" value={scopeId} onChange={(event) => setScopeId(event.target.value)} disabled={busy}>
            {scopes.map((scope) => (
              <option key={scope.id} value={scope.id}>
                {scope.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="border-b border-stone-200 bg-white px-4 py-2 text-sm" disabled={busy}>
        <legend className="sr-only">Mode</legend>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
          <label className="inline-flex items-center gap-1.5">
            <input type="radio" name="ask-mode" value="answer" checked={mode === "answer"} onChange={() => setMode("answer")} />
            Answer
          </label>
          <label className={`inline-flex items-center gap-1.5 ${research.available ? "" : "text-stone-400"}`}>
            <input
              type="radio"
              name="ask-mode"
              value="research"
              checked={mode === "research"}
              disabled={!research.available}
              onChange={() => setMode("research")}
              aria-describedby="ask-mode-hint"
            />
            Research
          </label>
        </div>
        {research.available ? (
          <p id="ask-mode-hint" className="mt-1 text-xs text-stone-500">
            {mode === "research"
              ? "A model searches and reads records you may read, step by step, then answers with verified citations. Research runs are not saved."
              : "Research: a model plans several searches and reads before it answers."}
          </p>
        ) : (
          <p id="ask-mode-hint" className="mt-1 text-xs text-stone-500" data-testid="research-unavailable">
            {research.reason}
          </p>
        )}
      </fieldset>
      <div className="flex-1 space-y-3 overflow-y-auto px-4 py-3" aria-live="polite" aria-busy={busy}>
        {messages.length === 0 && (
          <p className="text-sm text-stone-600">
            Ask a question in English, Spanish or Catalan. Answers quote only records you may read, and every statement links to its source.
          </p>
        )}
        {messages.map((message, index) =>
          message.role === "user" ? (
            <p key={message.id} className="ml-8 rounded-lg bg-accent-800 px-3 py-2 text-sm text-white">
              {message.content}
            </p>
          ) : message.research ? (
            <ResearchMessage key={message.id} run={message.research} question={questionBefore(messages, index)} />
          ) : (
            <AssistantMessage key={message.id} message={message} question={questionBefore(messages, index)} />
          ),
        )}
        {problem && (
          <p role="alert" className="notice-error">
            {problem}
          </p>
        )}
        <div ref={endRef} />
      </div>
      <form onSubmit={(event) => void send(event)} className="border-t border-stone-200 bg-white px-4 py-3">
        <label htmlFor="ask-question" className="sr-only">
          Your question
        </label>
        <textarea
          id="ask-question"
          ref={questionRef}
          // Opening the panel is asking to type a question.
          autoFocus
          rows={3}
          value={question}
          maxLength={maxQueryLength}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="e.g. How were the bells taken to the new village?"
          className="field-input resize-none"
          aria-describedby="ask-question-hint"
        />
        <div className="mt-2 flex items-center justify-between gap-2">
          <p id="ask-question-hint" className="text-xs text-stone-500">
            Enter to send, Shift+Enter for a new line, Esc to close{question.length > maxQueryLength - 100 ? ` · ${maxQueryLength - question.length} left` : ""}
          </p>
          {busy ? (
            <button type="button" className="btn" onClick={stop}>
              Stop
            </button>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={question.trim().length < 3}>
              {mode === "research" ? "Research" : "Ask"}
            </button>
          )}
        </div>
      </form>
    </aside>
  );
}
