"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { BusyButton } from "@/components/busy-button";
import { deleteGoldenSetAction, findCandidatesAction, runGoldenSetAction, saveGoldenSetAction } from "../actions";
import { ActionForm } from "@/components/action-form";
import { LabelledField } from "@/components/labelled-field";
import { ActionFeedback } from "@/components/action-feedback";

interface Question {
  question: string;
  expected: { recordId: string; title: string }[];
  /** It expects a record the viewer cannot read (which or how many is not said). */
  unreadableExpected: boolean;
}

/**
 * The set's questions: write a question, find the records that might answer it (with your own
 * access), tick the right ones; save; run against the active index in a chosen mode.
 */
export function GoldenSetEditorClient(props: { id: string; name: string; sectionSlug?: string; questions: Question[] }) {
  const router = useRouter();
  const [name, setName] = useState(props.name);
  const [questions, setQuestions] = useState<Question[]>(props.questions);
  const [draft, setDraft] = useState("");
  const [candidates, setCandidates] = useState<{ recordId: string; title: string; section: string }[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [mode, setMode] = useState("hybrid");
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const draftRef = useRef<HTMLInputElement>(null);

  // One action at a time: the buttons say so with aria-disabled but keep keyboard focus.
  const act = (work: () => Promise<void>) => {
    if (pending) return;
    startTransition(async () => {
      setMessage(null);
      await work();
    });
  };
  const fail = (result: { status: string; message?: string }) => setMessage({ kind: "error", text: result.message ?? "Something went wrong." });

  const save = (next: Question[], done: string) =>
    act(async () => {
      const result = await saveGoldenSetAction({
        id: props.id,
        set: {
          name,
          sectionSlug: props.sectionSlug,
          questions: next.map((question) => ({ question: question.question, expected: question.expected.map((item) => item.recordId) })),
        },
      });
      if (result.status === "ok") {
        setQuestions(next);
        setMessage({ kind: "ok", text: done });
        router.refresh();
      } else fail(result);
    });

  return (
    <div className="mt-6 space-y-6">
      <section aria-labelledby="questions-heading">
        <h2 id="questions-heading" className="text-xl font-semibold">
          Questions ({questions.length})
        </h2>
        <ol className="mt-2 space-y-2" data-testid="golden-questions">
          {questions.map((question, index) => (
            <li key={`${question.question}-${index}`} className="rounded border border-stone-200 bg-white p-2 text-sm">
              <div className="flex items-start justify-between gap-2">
                <span className="font-medium">{question.question}</span>
                <BusyButton
                  type="button"
                  className="btn px-2 py-0.5"
                  aria-label={`Remove the question “${question.question}”`}
                  busy={pending}
                  onClick={() =>
                    save(
                      questions.filter((_, at) => at !== index),
                      "Question removed.",
                    )
                  }
                >
                  ✕
                </BusyButton>
              </div>
              <div className="text-xs text-stone-600">
                Expected: {question.expected.map((item) => item.title).join(", ")}
                {question.unreadableExpected && `${question.expected.length ? ", and " : ""}a record you cannot read`}
              </div>
            </li>
          ))}
        </ol>

        <ActionForm
          aria-label="New question"
          className="mt-4 rounded-lg border border-stone-200 bg-white p-3"
          busy={pending}
          onSubmit={() => {
            // The previous candidates answer another question: clear them while searching.
            setCandidates(null);
            setChosen([]);
            act(async () => {
              const result = await findCandidatesAction({ query: draft, sectionSlug: props.sectionSlug });
              if (result.status === "ok") {
                setCandidates(result.data);
                setChosen([]);
              } else fail(result);
            });
          }}
        >
          <label htmlFor="golden-question" className="field-label">
            New question
          </label>
          <div className="flex gap-2">
            <input
              ref={draftRef}
              id="golden-question"
              className="field-input mt-0"
              maxLength={500}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
            />
            <BusyButton type="submit" className="btn whitespace-nowrap" busy={pending} disabled={!draft.trim()}>
              Find candidates
            </BusyButton>
          </div>
          {candidates && (
            <fieldset className="mt-3">
              <legend className="text-sm font-medium">Which of these answer it?</legend>
              {candidates.length === 0 && <p className="text-sm text-stone-600">Nothing found; rephrase the question to find the records.</p>}
              <ul className="mt-1 space-y-1">
                {candidates.map((candidate) => (
                  <li key={candidate.recordId}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={chosen.includes(candidate.recordId)}
                        onChange={(event) =>
                          setChosen(event.target.checked ? [...chosen, candidate.recordId] : chosen.filter((id) => id !== candidate.recordId))
                        }
                      />
                      {candidate.title} <span className="text-xs text-stone-500">{candidate.section}</span>
                    </label>
                  </li>
                ))}
              </ul>
              <BusyButton
                type="button"
                className="btn btn-primary mt-2"
                busy={pending}
                disabled={chosen.length === 0}
                onClick={() => {
                  const expected = candidates.filter((candidate) => chosen.includes(candidate.recordId)).map(({ recordId, title }) => ({ recordId, title }));
                  save([...questions, { question: draft.trim(), expected, unreadableExpected: false }], "Question added.");
                  setDraft("");
                  setCandidates(null);
                  // This button goes with the candidates: focus waits in the emptied field for the next question.
                  draftRef.current?.focus();
                }}
              >
                Add the question
              </BusyButton>
            </fieldset>
          )}
        </ActionForm>
      </section>

      <div className="flex flex-wrap items-end gap-3">
        <LabelledField htmlFor="golden-rename" label="Name">
          <input id="golden-rename" className="field-input" value={name} onChange={(event) => setName(event.target.value)} />
        </LabelledField>
        <BusyButton type="button" className="btn" busy={pending} onClick={() => save(questions, "Saved.")}>
          Save name
        </BusyButton>
        <LabelledField htmlFor="golden-mode" label="Search mode">
          <select id="golden-mode" className="field-input" value={mode} onChange={(event) => setMode(event.target.value)}>
            <option value="hybrid">Hybrid</option>
            <option value="semantic">Semantic</option>
            <option value="keyword">Keyword</option>
          </select>
        </LabelledField>
        <BusyButton
          type="button"
          className="btn btn-primary"
          busy={pending}
          disabled={questions.length === 0}
          onClick={() =>
            act(async () => {
              const result = await runGoldenSetAction({ id: props.id, mode });
              if (result.status === "ok") {
                setMessage({ kind: "ok", text: "Run finished." });
                router.refresh();
              } else fail(result);
            })
          }
        >
          {pending ? "Working…" : "Run the set"}
        </BusyButton>
        <BusyButton
          type="button"
          className="btn btn-danger"
          busy={pending}
          onClick={() => {
            if (!window.confirm(`Delete the golden set “${props.name}” and its runs?`)) return;
            act(async () => {
              // On success the action redirects to the list.
              const result = await deleteGoldenSetAction({ id: props.id });
              if (result?.status === "error") fail(result);
            });
          }}
        >
          Delete set
        </BusyButton>
      </div>
      <ActionFeedback message={message} spacing="" />
    </div>
  );
}
