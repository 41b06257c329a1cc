"use client";

import { SubmitButton } from "@/components/busy-button";
import { type FormEvent, useActionState, useEffect, useRef, useTransition } from "react";
import { authorityHint } from "@/lib/archive/authorities";
import { authorityLineFormat, authorityLinksOf, authorityText } from "@/lib/archive/authority-text";
import { dateHint, keptDateOf, writtenDate } from "@/lib/archive/date-values";
import type { FieldDefinition, IndexSegment, TranscriptTurn } from "@/lib/archive/field-definitions";
import type { MediaSummary } from "@/lib/archive/get-record";
import type { ProjectSummary } from "@/lib/archive/list-projects";
import type { RelationTarget } from "@/lib/archive/list-relation-targets";
import { formatBytes } from "./format";
import { type RecordFormState, recordInputName } from "@/lib/archive/record-form-data";
import { segmentBlockFormat, serializeSegments } from "@/lib/archive/segment-text";
import { serializeTranscript, transcriptLineFormat } from "@/lib/archive/transcript-text";
import { ProjectOptions, TextOptions } from "./select-options";
import { LabelledField } from "./labelled-field";
import { TranscriptFileImport } from "./transcript-file-import";
import { type TranscriptionActions, TranscriptionToolsClient } from "./transcription-tools-client";
import type { TranscriptionTools } from "@/lib/archive/transcript-drafts";

export interface RecordFormProps {
  action: (previous: RecordFormState, formData: FormData) => Promise<RecordFormState>;
  section: { slug: string; name: string; fields: FieldDefinition[] };
  /** Absent when creating. */
  record?: { id: string; version: number; projectId: string; values: Record<string, unknown>; media: Record<string, MediaSummary> };
  /** Projects the principal may edit. */
  projects: ProjectSummary[];
  /** Readable records of each relation field's target section, by field key. */
  relationOptions: Record<string, RelationTarget[]>;
  maxUploadBytes: number;
  cancelHref: string;
  /** Editing a record: the recording, drafts and speech model beside each transcript field. */
  transcription?: { tools: Record<string, TranscriptionTools>; actions: TranscriptionActions };
}

const inputId = (key: string) => `field-${key}`;

/**
 * The index field an imported transcript file fills beside a transcript field: the one for the
 * same recording, or the section's only one.
 */
function companionIndexKey(fields: FieldDefinition[], field: FieldDefinition): string | undefined {
  const indexes = fields.filter((candidate) => candidate.type === "segments");
  if (field.type !== "transcript") return undefined;
  return (
    indexes.find((candidate) => candidate.mediaField !== undefined && candidate.mediaField === field.mediaField) ??
    (indexes.length === 1 ? indexes[0] : undefined)
  )?.key;
}

/** The record editor, for new records and edits alike. */
export function RecordFormClient({ action, section, record, projects, relationOptions, maxUploadBytes, cancelHref, transcription }: RecordFormProps) {
  const [state, formAction, pending] = useActionState(action, null);
  const [, startTransition] = useTransition();
  const summaryRef = useRef<HTMLDivElement>(null);
  const fieldErrors = state?.status === "error" ? (state.fieldErrors ?? {}) : {};

  useEffect(() => {
    if (state?.status === "error") summaryRef.current?.focus();
  }, [state]);

  const transcriptionOf = (key: string) => {
    const tools = transcription?.tools[key];
    return record && tools && transcription ? { recordId: record.id, tools, actions: transcription.actions } : undefined;
  };

  // Submitted by hand rather than through <form action>, which would reset every input after
  // an error: a conflict or a field error must keep what the person typed.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => formAction(formData));
  };

  return (
    <form onSubmit={submit} className="space-y-6">
      <input type="hidden" name="section" value={section.slug} />
      {record && <input type="hidden" name="id" value={record.id} />}
      {record && <input type="hidden" name="version" value={record.version} />}

      {state?.status === "error" && (
        <div ref={summaryRef} tabIndex={-1} role="alert" className="notice-error">
          <p className="font-medium">{state.message}</p>
          {state.code === "conflict" && record && (
            <p className="mt-1">
              Your changes are still in the form below.{" "}
              <a href={`/records/${record.id}/edit`} className="font-medium underline">
                Reload
              </a>{" "}
              to start again from the saved version.
            </p>
          )}
          {Object.keys(fieldErrors).length > 0 && (
            <ul className="mt-2 list-disc space-y-0.5 pl-5">
              {Object.entries(fieldErrors).map(([key, messages]) => (
                <li key={key}>
                  {/* Field messages already name their field; the link jumps to it. */}
                  <a href={`#${inputId(key)}`} className="underline">
                    {messages.join(" ")}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <LabelledField htmlFor={inputId("projectId")} label="Project">
        <select
          id={inputId("projectId")}
          name="projectId"
          required
          defaultValue={record?.projectId ?? (projects.length === 1 ? projects[0]?.id : "")}
          aria-invalid={fieldErrors.projectId ? true : undefined}
          aria-describedby={fieldErrors.projectId ? `${inputId("projectId")}-error` : undefined}
          className="field-input max-w-md"
        >
          {projects.length !== 1 && <option value="">Choose a project…</option>}
          <ProjectOptions projects={projects} />
        </select>
        <FieldErrorText id={`${inputId("projectId")}-error`} messages={fieldErrors.projectId} />
      </LabelledField>

      {section.fields.map((field) => (
        <FieldInput
          key={field.key}
          field={field}
          value={record?.values[field.key]}
          media={record?.media}
          options={relationOptions[field.key] ?? []}
          errors={fieldErrors[field.key]}
          maxUploadBytes={maxUploadBytes}
          indexKey={companionIndexKey(section.fields, field)}
          importsTranscripts={!section.fields.some((candidate) => candidate.type === "transcript")}
          transcription={transcriptionOf(field.key)}
        />
      ))}

      <div className="flex items-center gap-3 border-t border-stone-200 pt-6">
        <SubmitButton className="btn btn-primary" busy={pending} busyLabel="Saving…">
          {record ? "Save changes" : "Create record"}
        </SubmitButton>
        <a href={cancelHref} className="link text-sm">
          Cancel
        </a>
      </div>
    </form>
  );
}

function FieldErrorText({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="field-error">
      {messages.join(" ")}
    </p>
  );
}

interface FieldInputProps {
  field: FieldDefinition;
  value: unknown;
  media?: Record<string, MediaSummary>;
  options: RelationTarget[];
  errors?: string[];
  maxUploadBytes: number;
  /** A transcript field's index field, which an imported OHMS file fills too. */
  indexKey?: string;
  /** An index field offers the file import itself when the section has no transcript field. */
  importsTranscripts?: boolean;
  transcription?: { recordId: string; tools: TranscriptionTools; actions: TranscriptionActions };
}

function FieldInput({ field, value, media, options, errors, maxUploadBytes, indexKey, importsTranscripts, transcription }: FieldInputProps) {
  const id = inputId(field.key);
  const name = recordInputName.value(field.key);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = errors?.length ? true : undefined;
  const describedBy = (hint: boolean) => [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  const label = (
    <label htmlFor={id} className="field-label">
      {field.label}
      {field.required && <span className="text-red-700"> *</span>}
    </label>
  );
  const hint = (text: string) => (
    <p id={hintId} className="field-hint">
      {text}
    </p>
  );
  const error = <FieldErrorText id={errorId} messages={errors} />;
  const common = { id, name, "aria-invalid": invalid, className: "field-input" };

  switch (field.type) {
    case "text":
      return (
        <div>
          {label}
          <input
            type="text"
            {...common}
            defaultValue={typeof value === "string" ? value : ""}
            maxLength={field.maxLength}
            required={field.required}
            aria-describedby={describedBy(false)}
          />
          {error}
        </div>
      );
    case "longtext":
      return (
        <div>
          {label}
          <textarea
            {...common}
            rows={12}
            defaultValue={typeof value === "string" ? value : ""}
            required={field.required}
            aria-describedby={describedBy(true)}
            className="field-input font-mono text-[13px]"
          />
          {hint("Headings are lines starting with #, ## or ###. Mark a new page with [[page:N]] on its own line.")}
          {error}
        </div>
      );
    case "category":
      return (
        <div>
          {label}
          <select
            {...common}
            defaultValue={typeof value === "string" ? value : ""}
            required={field.required}
            aria-describedby={describedBy(false)}
            className="field-input max-w-md"
          >
            <option value="">{field.required ? "Choose…" : "—"}</option>
            <TextOptions values={field.options} />
          </select>
          {error}
        </div>
      );
    case "date":
      return (
        <div>
          {label}
          <input
            type="text"
            {...common}
            placeholder="1962-04-18"
            defaultValue={writtenDate(value)}
            required={field.required}
            aria-describedby={describedBy(true)}
            className="field-input max-w-xs"
          />
          <KeptDate name={recordInputName.keptDate(field.key)} value={value} />
          {hint(dateHint)}
          {error}
        </div>
      );
    case "daterange":
      return (
        <div>
          {label}
          <input
            type="text"
            {...common}
            placeholder="1920-1930"
            defaultValue={writtenDate(value)}
            required={field.required}
            aria-describedby={describedBy(true)}
            className="field-input max-w-xs"
          />
          <KeptDate name={recordInputName.keptDate(field.key)} value={value} />
          {hint(`${dateHint}. Negative years are BC (-400 for 400 BC).`)}
          {error}
        </div>
      );
    case "relation": {
      const selected = (Array.isArray(value) ? value : value ? [value] : []).filter((item): item is string => typeof item === "string");
      const selectable = new Set(options.map((option) => option.id));
      return (
        <div>
          {label}
          {field.multiple ? (
            <select
              {...common}
              multiple
              size={Math.min(8, Math.max(3, options.length))}
              defaultValue={selected.filter((item) => selectable.has(item))}
              aria-describedby={describedBy(true)}
              className="field-input max-w-xl"
            >
              {options.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.title}
                </option>
              ))}
            </select>
          ) : (
            <select
              {...common}
              defaultValue={selected.find((item) => selectable.has(item)) ?? ""}
              required={field.required}
              aria-describedby={describedBy(options.length === 0)}
              className="field-input max-w-xl"
            >
              <option value="">{field.required ? "Choose…" : "—"}</option>
              {options.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.title}
                </option>
              ))}
            </select>
          )}
          {field.multiple
            ? hint(options.length === 0 ? "There are no records you can link to yet." : "Hold Ctrl (⌘ on a Mac) to choose several.")
            : options.length === 0 && hint("There are no records you can link to yet.")}
          {error}
        </div>
      );
    }
    case "image":
    case "media":
    case "scan": {
      const current = typeof value === "string" ? media?.[value] : undefined;
      const accept = { image: "image/*", media: "audio/*,video/*", scan: "image/tiff,image/jpeg,image/png,application/pdf,.tif,.tiff,.pdf" }[field.type];
      return (
        <div>
          {label}
          {current && typeof value === "string" && (
            <div className="mt-1 flex flex-wrap items-center gap-3 rounded-md border border-stone-200 bg-white p-2 text-sm">
              <input type="hidden" name={name} value={value} />
              {current.kind === "image" && current.mime !== "image/tiff" && current.imageCheck !== "undecodable" ? (
                // eslint-disable-next-line @next/next/no-img-element -- access-checked media, not for the image optimiser
                <img src={`/api/media/${value}`} alt={`Current ${field.label.toLowerCase()}`} className="h-16 w-16 rounded object-contain" loading="lazy" />
              ) : null}
              <span className="text-stone-700">
                Current file: <span className="font-medium">{current.originalName}</span> ({formatBytes(current.size)})
                {current.imageCheck === "undecodable" && <span className="text-amber-900"> — could not be decoded; replace it with a readable copy</span>}
              </span>
              {!field.required && (
                <label className="ml-auto flex items-center gap-1.5 text-stone-700">
                  <input type="checkbox" name={recordInputName.remove(field.key)} value="1" /> Remove
                </label>
              )}
            </div>
          )}
          <input
            type="file"
            id={id}
            name={recordInputName.file(field.key)}
            accept={accept}
            aria-invalid={invalid}
            aria-describedby={describedBy(true)}
            className="mt-1 block text-sm file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-stone-100"
          />
          {hint(
            `${current ? "Choose a file to replace the current one. " : ""}${{ image: "PNG, JPEG, WebP or GIF", media: "Ogg, MP3, WAV, FLAC, MP4 or WebM", scan: "A scanned page (TIFF, JPEG or PNG) or a PDF of scanned pages, read by OCR after saving" }[field.type]}, up to ${formatBytes(maxUploadBytes)}.`,
          )}
          {error}
        </div>
      );
    }
    case "authority": {
      const accepted = authorityHint(field.authorities);
      if (field.multiple) {
        return (
          <div>
            {label}
            <textarea
              {...common}
              rows={Math.min(12, Math.max(3, authorityLinksOf(value).length + 1))}
              defaultValue={authorityText(value)}
              required={field.required}
              spellCheck={false}
              aria-describedby={describedBy(true)}
              className="field-input max-w-3xl"
            />
            {hint(
              `${authorityLineFormat.charAt(0).toUpperCase()}${authorityLineFormat.slice(1)}: ${accepted}. The label is the name shown on the record and found by the list's search.`,
            )}
            {error}
          </div>
        );
      }
      const link = authorityLinksOf(value)[0];
      const labelId = `${id}-label`;
      return (
        <div>
          {label}
          <input
            type="text"
            inputMode="url"
            {...common}
            defaultValue={link?.uri ?? ""}
            required={field.required}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={describedBy(true)}
            className="field-input max-w-3xl"
          />
          <label htmlFor={labelId} className="mt-2 block text-sm font-medium text-stone-700">
            {field.label}: label
          </label>
          <input
            type="text"
            id={labelId}
            name={recordInputName.authorityLabel(field.key)}
            defaultValue={link?.label ?? ""}
            maxLength={300}
            aria-describedby={hintId}
            className="field-input max-w-xl"
          />
          {hint(`${accepted.charAt(0).toUpperCase()}${accepted.slice(1)}. The label is the name shown on the record and found by the list's search.`)}
          {error}
        </div>
      );
    }
    case "transcript":
      return (
        <div>
          {label}
          <textarea
            {...common}
            rows={12}
            defaultValue={Array.isArray(value) ? serializeTranscript(value as TranscriptTurn[]) : ""}
            required={field.required}
            spellCheck={false}
            aria-describedby={describedBy(true)}
            className="field-input font-mono text-[13px]"
          />
          {hint(`One turn per line: ${transcriptLineFormat}, e.g. [01:05.5 - 01:12.0] Marta: Where were you born?`)}
          <TranscriptFileImport transcriptInputId={id} indexInputId={indexKey ? inputId(indexKey) : undefined} />
          {error}
          {transcription && <TranscriptionToolsClient textareaId={id} {...transcription} />}
        </div>
      );
    case "segments":
      return (
        <div>
          {label}
          <textarea
            {...common}
            rows={8}
            defaultValue={Array.isArray(value) ? serializeSegments(value as IndexSegment[]) : ""}
            required={field.required}
            spellCheck={false}
            aria-describedby={describedBy(true)}
            className="field-input font-mono text-[13px]"
          />
          {hint(`One block per segment: ${segmentBlockFormat}. Empty the box to remove the index.`)}
          {importsTranscripts && <TranscriptFileImport indexInputId={id} />}
          {!field.required && <ClearButton targetId={id} label={`Remove the ${field.label.toLowerCase()}`} />}
          {error}
        </div>
      );
  }
}

/** Empties a text box (the whole index, say) in one step; saving then removes the value. */
function ClearButton({ targetId, label }: { targetId: string; label: string }) {
  return (
    <button
      type="button"
      className="btn mt-2 text-sm"
      onClick={() => {
        const box = document.getElementById(targetId);
        if (box instanceof HTMLTextAreaElement) {
          box.value = "";
          box.focus();
        }
      }}
    >
      {label}
    </button>
  );
}

/** A stored date's EDTF and text, sent back so an unchanged box saves the value unchanged. */
function KeptDate({ name, value }: { name: string; value: unknown }) {
  const kept = keptDateOf(value);
  return kept ? <input type="hidden" name={name} value={JSON.stringify(kept)} /> : null;
}
