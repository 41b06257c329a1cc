"use client";

import { useRouter } from "next/navigation";
import { BusyButton, SubmitButton } from "@/components/busy-button";
import { useState, useTransition } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { GroupPreview } from "@/lib/admin/embed-group-admin";
import { chunkingModes, groupLanguages } from "@/lib/rag/config/embed-group-schema";
import { formatTimecode } from "@/components/format";
import { deleteEmbedGroupAction, previewEmbedGroupAction, saveEmbedGroupAction } from "./actions";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { queryKeys } from "@/components/query-keys";
import { useDebouncedValue } from "@/components/use-debounced-value";
import { FieldErrors } from "@/components/field-errors";
import { ActionForm } from "@/components/action-form";
import { LabelledField } from "@/components/labelled-field";

/** The server's chunking modes and group languages, each with its label here. */
const chunkingLabels: Record<(typeof chunkingModes)[number], string> = {
  short: "Short: a heading section is one passage when it fits",
  long_document: "Long document: pack paragraphs, split at sentences",
  transcription: "Transcription: pack timecoded turns",
  auto: "Automatic",
};
const languageLabels: Record<(typeof groupLanguages)[number], string> = { en: "English", es: "Spanish", ca: "Catalan" };

interface GroupState {
  id?: string;
  slug: string;
  label: string;
  fields: string[];
  chunking: string;
  maxTokens: string;
  minTokens: string;
  overlap: string;
  languages: string[];
}

type ExistingGroup = {
  id: string;
  slug: string;
  label: string;
  fields: string[];
  chunking: string;
  maxTokens: number;
  minTokens: number;
  overlap: number;
  languages: string[];
  passages: number;
};

const blank: GroupState = { slug: "", label: "", fields: [], chunking: "short", maxTokens: "256", minTokens: "16", overlap: "0", languages: [] };

function toState(group: ExistingGroup): GroupState {
  return { ...group, maxTokens: String(group.maxTokens), minTokens: String(group.minTokens), overlap: String(group.overlap) };
}

function toInput(state: GroupState) {
  const number = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));
  return {
    slug: state.slug,
    label: state.label,
    fields: state.fields,
    chunking: state.chunking,
    maxTokens: number(state.maxTokens),
    minTokens: number(state.minTokens),
    overlap: number(state.overlap),
    languages: state.languages,
  };
}

/**
 * The embed-group editor: choose, order and remove fields (relation paths included), the
 * chunking mode, token bounds and languages; every change re-runs the preview on the chosen
 * record — the composed document and the passages it yields — and problems show next to the
 * control they concern. Nothing is saved until Save.
 */
export function EmbedGroupEditorClient(props: {
  sectionSlug: string;
  groups: ExistingGroup[];
  paths: { path: string; label: string }[];
  records: { id: string; title: string }[];
}) {
  const router = useRouter();
  const [selected, setSelected] = useState<string | null>(props.groups[0]?.id ?? null);
  const [state, setState] = useState<GroupState>(props.groups[0] ? toState(props.groups[0]) : blank);
  const [recordId, setRecordId] = useState(props.records[0]?.id ?? "");
  const [addPath, setAddPath] = useState("");
  // The preview follows the form 400 ms after the last change; until the answer for the
  // current form arrives it is stale (being composed), and the last answer's problems stay shown.
  const currentKey = JSON.stringify([state, recordId]);
  const settledKey = useDebouncedValue(currentKey, 400);
  const [settledState, settledRecordId] = JSON.parse(settledKey) as [GroupState, string];
  const previewQuery = useQuery({
    queryKey: queryKeys.embedGroupPreviews.preview(props.sectionSlug, settledState, settledRecordId),
    queryFn: async (): Promise<{ preview: GroupPreview | null; errors: Record<string, string[]> }> => {
      if (settledState.fields.length === 0) return { preview: null, errors: { fields: ["Choose at least one field."] } };
      const group = toInput({ ...settledState, slug: settledState.slug || "preview", label: settledState.label || "Preview" });
      const result = await previewEmbedGroupAction({ sectionSlug: props.sectionSlug, group, recordId: settledRecordId || undefined });
      return result.status === "ok" ? { preview: result.data, errors: {} } : { preview: null, errors: result.fieldErrors ?? { _form: [result.message] } };
    },
    placeholderData: keepPreviousData,
  });
  const previewing = settledKey !== currentKey || previewQuery.isFetching;
  const preview = previewQuery.data?.preview ?? null;
  // A failed save's problems show until the next preview answer.
  const [saveErrors, setSaveErrors] = useState<{ answer: number; errors: Record<string, string[]> } | null>(null);
  const previewErrors = previewQuery.isError ? { _form: [previewQuery.error.message] } : (previewQuery.data?.errors ?? {});
  const errors = saveErrors && saveErrors.answer === previewQuery.dataUpdatedAt ? saveErrors.errors : previewErrors;
  const [message, setMessage] = useState<ActionMessage>(null);
  const [pending, startTransition] = useTransition();

  const choose = (group: ExistingGroup | null) => {
    setSelected(group?.id ?? null);
    setState(group ? toState(group) : blank);
    setMessage(null);
  };

  const update = (changes: Partial<GroupState>) => setState((current) => ({ ...current, ...changes }));
  const move = (index: number, by: number) => {
    const fields = [...state.fields];
    const [item] = fields.splice(index, 1);
    if (item === undefined) return;
    fields.splice(Math.max(0, Math.min(fields.length, index + by)), 0, item);
    update({ fields });
  };
  const errorText = (key: string) => <FieldErrors messages={errors[key]} />;
  const labelOf = (path: string) => props.paths.find((option) => option.path === path)?.label ?? path;

  const save = () => {
    if (pending) return;
    startTransition(async () => {
      setMessage(null);
      const result = await saveEmbedGroupAction({ sectionSlug: props.sectionSlug, group: toInput(state) });
      if (result.status === "ok") {
        setMessage({ kind: "ok", text: `Saved; ${result.data.queued} records queued for indexing.` });
        setSelected(result.data.id);
        router.refresh();
      } else {
        setSaveErrors({ answer: previewQuery.dataUpdatedAt, errors: result.fieldErrors ?? {} });
        setMessage({ kind: "error", text: result.message });
      }
    });
  };
  const remove = () => {
    if (pending || !selected || !window.confirm(`Delete the group “${state.label}” and its passages? Search loses them at once.`)) return;
    startTransition(async () => {
      const result = await deleteEmbedGroupAction({ sectionSlug: props.sectionSlug, groupId: selected });
      if (result.status === "ok") {
        setMessage({ kind: "ok", text: "Group deleted." });
        choose(null);
        router.refresh();
      } else setMessage({ kind: "error", text: result.message });
    });
  };

  return (
    <div className="mt-3">
      <div role="group" aria-label="Embed groups" className="flex flex-wrap gap-2">
        {props.groups.map((group) => (
          <button
            key={group.id}
            type="button"
            className={`btn ${selected === group.id ? "btn-primary" : ""}`}
            aria-pressed={selected === group.id}
            onClick={() => choose(group)}
          >
            {group.label} <span className="text-xs opacity-80">({group.passages} passages)</span>
          </button>
        ))}
        <button type="button" className={`btn ${selected === null ? "btn-primary" : ""}`} aria-pressed={selected === null} onClick={() => choose(null)}>
          New group
        </button>
      </div>

      <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <ActionForm aria-label="Embed group" className="space-y-4" onSubmit={() => save()}>
          <div className="grid grid-cols-2 gap-3">
            <LabelledField htmlFor="group-slug" label="Slug">
              <input
                id="group-slug"
                className="field-input"
                value={state.slug}
                disabled={selected !== null}
                onChange={(event) => update({ slug: event.target.value })}
              />
              {errorText("slug")}
            </LabelledField>
            <LabelledField htmlFor="group-label" label="Label">
              <input id="group-label" className="field-input" value={state.label} onChange={(event) => update({ label: event.target.value })} />
              {errorText("label")}
            </LabelledField>
          </div>

          <fieldset>
            <legend className="field-label">Fields, in order</legend>
            <ol className="mt-1 space-y-1" data-testid="group-fields">
              {state.fields.map((path, index) => (
                <li key={path} className="flex items-center gap-2 rounded border border-stone-200 bg-white px-2 py-1 text-sm">
                  <span className="flex-1">
                    {labelOf(path)} <code className="text-xs text-stone-500">{path}</code>
                  </span>
                  <button
                    type="button"
                    className="btn px-2 py-0.5"
                    aria-label={`Move ${labelOf(path)} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn px-2 py-0.5"
                    aria-label={`Move ${labelOf(path)} down`}
                    disabled={index === state.fields.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="btn px-2 py-0.5"
                    aria-label={`Remove ${labelOf(path)}`}
                    onClick={() => update({ fields: state.fields.filter((candidate) => candidate !== path) })}
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ol>
            <div className="mt-2 flex gap-2">
              <label htmlFor="add-field" className="sr-only">
                Field to add
              </label>
              <input
                id="add-field"
                list="field-paths"
                className="field-input mt-0"
                placeholder="Add a field or relation path, e.g. narrator.occupation"
                value={addPath}
                onChange={(event) => setAddPath(event.target.value)}
              />
              <datalist id="field-paths">
                {props.paths.map((option) => (
                  <option key={option.path} value={option.path}>
                    {option.label}
                  </option>
                ))}
              </datalist>
              <button
                type="button"
                className="btn whitespace-nowrap"
                disabled={!addPath.trim() || state.fields.includes(addPath.trim())}
                onClick={() => {
                  update({ fields: [...state.fields, addPath.trim()] });
                  setAddPath("");
                }}
              >
                Add field
              </button>
            </div>
            {errorText("fields")}
          </fieldset>

          <LabelledField htmlFor="group-chunking" label="Chunking">
            <select id="group-chunking" className="field-input" value={state.chunking} onChange={(event) => update({ chunking: event.target.value })}>
              {chunkingModes.map((value) => (
                <option key={value} value={value}>
                  {chunkingLabels[value]}
                </option>
              ))}
            </select>
            {errorText("chunking")}
          </LabelledField>
          <div className="grid grid-cols-3 gap-3">
            {(
              [
                ["maxTokens", "Max tokens"],
                ["minTokens", "Min tokens"],
                ["overlap", "Overlap"],
              ] as const
            ).map(([key, label]) => (
              <LabelledField key={key} htmlFor={`group-${key}`} label={label}>
                <input
                  id={`group-${key}`}
                  className="field-input"
                  inputMode="numeric"
                  value={state[key]}
                  aria-invalid={errors[key] ? true : undefined}
                  onChange={(event) => update({ [key]: event.target.value })}
                />
                {errorText(key)}
              </LabelledField>
            ))}
          </div>
          <fieldset>
            <legend className="field-label">Languages (none: every language)</legend>
            <div className="mt-1 flex gap-4">
              {groupLanguages.map((code) => (
                <label key={code} className="flex items-center gap-1 text-sm">
                  <input
                    type="checkbox"
                    checked={state.languages.includes(code)}
                    onChange={(event) =>
                      update({ languages: event.target.checked ? [...state.languages, code] : state.languages.filter((candidate) => candidate !== code) })
                    }
                  />
                  {languageLabels[code]}
                </label>
              ))}
            </div>
            {errorText("languages")}
          </fieldset>
          {errorText("_form")}
          <div className="flex flex-wrap items-center gap-2">
            <SubmitButton className="btn btn-primary" busy={pending} busyLabel="Saving…">
              Save group
            </SubmitButton>
            {selected && (
              <BusyButton type="button" className="btn btn-danger" busy={pending} onClick={remove}>
                Delete group
              </BusyButton>
            )}
          </div>
          <ActionFeedback message={message} />
        </ActionForm>

        <section aria-labelledby="preview-heading" aria-busy={previewing}>
          <div className="flex flex-wrap items-end justify-between gap-2">
            <h3 id="preview-heading" className="text-lg font-semibold">
              Preview
            </h3>
            <label className="text-sm">
              <span className="field-label">Record</span>
              <select className="field-input" value={recordId} onChange={(event) => setRecordId(event.target.value)}>
                {props.records.map((record) => (
                  <option key={record.id} value={record.id}>
                    {record.title}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {props.records.length === 0 ? (
            <p className="notice mt-2">This section has no records to preview yet.</p>
          ) : previewing ? (
            <p className="mt-2 text-sm text-stone-500" role="status">
              Composing…
            </p>
          ) : preview === null ? (
            <p className="mt-2 text-sm text-stone-500">Fix the problems on the left to see the preview.</p>
          ) : preview.skipped ? (
            <p className="notice mt-2">{preview.skipped}</p>
          ) : (
            <div data-testid="group-preview">
              <p className="mt-2 text-sm text-stone-600">
                {preview.chunks.length} passage{preview.chunks.length === 1 ? "" : "s"}, {preview.chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0)}{" "}
                tokens; text from {preview.contributingSections.join(", ")}.
              </p>
              <ol className="mt-2 space-y-2">
                {preview.chunks.map((chunk) => (
                  <li key={chunk.ordinal} className="rounded border border-stone-200 bg-white p-2 text-sm" data-testid="preview-chunk">
                    <div className="text-xs text-stone-500">
                      #{chunk.ordinal + 1} · {chunk.tokenCount} tokens · offsets {chunk.startOffset}–{chunk.endOffset}
                      {chunk.headingPath.length > 0 && ` · ${chunk.headingPath.join(" › ")}`}
                      {chunk.page !== null && ` · p. ${chunk.page}${chunk.pageEnd !== null && chunk.pageEnd !== chunk.page ? `–${chunk.pageEnd}` : ""}`}
                      {chunk.timeStart !== null && ` · ${formatTimecode(chunk.timeStart)}–${formatTimecode(chunk.timeEnd ?? chunk.timeStart)}`}
                    </div>
                    <p className="mt-1 whitespace-pre-line">{chunk.text}</p>
                  </li>
                ))}
              </ol>
              <details className="mt-3 text-sm">
                <summary className="cursor-pointer text-stone-700">Composed document</summary>
                <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap rounded bg-stone-100 p-2 text-xs">{preview.document}</pre>
              </details>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
