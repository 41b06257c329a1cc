import Link from "next/link";
import type { Principal } from "@/lib/acl";
import { authorityText } from "@/lib/archive/authority-text";
import type { FieldDefinition } from "@/lib/archive/field-definitions";
import {
  type FieldChange,
  type HistoryVersion,
  type RecordHistory,
  changesBetween,
  describeThrough,
  historyPageSize,
  readRecordHistory,
} from "@/lib/archive/record-history";
import type { DiffPart } from "@/lib/archive/text-diff";
import type { Runtime } from "@/lib/runtime";
import { formatDateTime } from "@/components/format";
import { RestoreVersionClient } from "./restore-version-client";

/**
 * The record's history on its page: every saved version the reader may see, newest first, who
 * saved it, when and through what, and field by field what it changed from the one before (text
 * as a word diff, with <del>/<ins> named for screen readers). Each version's changes are a
 * <details> (keyboard: Tab to it, Enter or Space to open). An editor of the record restores a
 * version as a new save. `before` pages to older versions.
 */
export async function RecordHistorySection({
  principal,
  runtime,
  recordId,
  before,
}: {
  principal: Principal;
  runtime: Runtime;
  recordId: string;
  before?: number;
}) {
  // One more than shown, so the oldest shown can say what it changed.
  const history = await readRecordHistory(runtime.database.prisma, principal, recordId, { limit: historyPageSize + 1, before });
  const shown = history.versions.slice(0, historyPageSize);
  const older = history.versions.length > historyPageSize ? shown.at(-1)?.version : undefined;
  return (
    <section id="history" aria-labelledby="history-heading" className="mt-10" data-testid="record-history">
      <h2 id="history-heading" className="text-xl font-semibold">
        History
      </h2>
      <p className="mt-1 text-sm text-stone-600">Every save of this record is kept: who saved it, when and through what, and what changed.</p>
      {shown.length === 0 ? (
        <p className="mt-4 text-sm text-stone-700">{before ? "No older versions that you can see." : "No saved versions of this record that you can see."}</p>
      ) : (
        <ol className="mt-4 space-y-4">
          {shown.map((version, index) => (
            <VersionItem key={version.version} history={history} version={version} older={history.versions[index + 1] ?? null} open={index === 0 && !before} />
          ))}
        </ol>
      )}
      {(before !== undefined || older !== undefined) && (
        <nav aria-label="History pages" className="mt-4 flex gap-4 text-sm">
          {before !== undefined && (
            <Link href={`/records/${recordId}#history`} className="link">
              Newest versions
            </Link>
          )}
          {older !== undefined && (
            <Link href={`/records/${recordId}?history=${older}#history`} className="link">
              Older versions
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

function VersionItem({ history, version, older, open }: { history: RecordHistory; version: HistoryVersion; older: HistoryVersion | null; open: boolean }) {
  const headingId = `version-${version.version}-heading`;
  const changes = older ? changesBetween(history.record.fields, older.values, version.values) : null;
  const current = version.version === history.record.version;
  return (
    <li className="rounded-lg border border-stone-200 bg-white p-4" data-testid={`version-${version.version}`}>
      <h3 id={headingId} className="font-semibold">
        Version {version.version}
        {current && <span className="font-normal text-stone-600"> (current)</span>}
      </h3>
      <p className="mt-1 text-sm text-stone-700">
        Saved <time dateTime={version.savedAt.toISOString()}>{formatDateTime(version.savedAt)}</time> by {version.savedBy?.name ?? "the system"}{" "}
        {describeThrough(version)}.
      </p>
      {older && older.project.id !== version.project.id && (
        <p className="mt-1 text-sm text-stone-700">
          Moved from {older.project.name} to {version.project.name}.
        </p>
      )}
      {changes === null ? (
        <details className="mt-2 text-sm" open={open}>
          <summary className="cursor-pointer font-medium">The earliest version you can see: its values</summary>
          <FieldValues fields={history.record.fields} values={version.values} history={history} />
        </details>
      ) : changes.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">No field you can see changed.</p>
      ) : (
        <details className="mt-2 text-sm" open={open}>
          <summary className="cursor-pointer font-medium">
            {changes.length === 1 ? `Changed ${changes[0]!.label}` : `Changed ${changes.length} fields: ${changes.map((change) => change.label).join(", ")}`}
          </summary>
          <dl className="mt-2 space-y-3">
            {changes.map((change) => (
              <div key={change.key}>
                <dt className="font-medium text-stone-800">{change.label}</dt>
                <dd className="mt-1">
                  <ChangeView change={change} field={history.record.fields.find((field) => field.key === change.key)!} history={history} />
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {history.canRestore && !current && (
        <RestoreVersionClient recordId={history.record.id} currentVersion={history.record.version} restore={version.version} />
      )}
    </li>
  );
}

function ChangeView({ change, field, history }: { change: FieldChange; field: FieldDefinition; history: RecordHistory }) {
  if (change.text) return <TextDiff parts={change.text} />;
  return (
    <p>
      <del className="rounded bg-red-50 px-1 text-red-900">
        <span className="sr-only">Before: </span>
        {valueText(field, change.before, history)}
      </del>{" "}
      <span aria-hidden="true">→</span>{" "}
      <ins className="rounded bg-emerald-50 px-1 text-emerald-900 no-underline">
        <span className="sr-only">After: </span>
        {valueText(field, change.after, history)}
      </ins>
    </p>
  );
}

function TextDiff({ parts }: { parts: DiffPart[] }) {
  return (
    <p className="whitespace-pre-wrap">
      {parts.map((part, index) =>
        part.op === "removed" ? (
          <del key={index} className="bg-red-50 text-red-900">
            <span className="sr-only">[removed: </span>
            {part.text}
            <span className="sr-only">]</span>
          </del>
        ) : part.op === "added" ? (
          <ins key={index} className="bg-emerald-50 text-emerald-900 no-underline">
            <span className="sr-only">[added: </span>
            {part.text}
            <span className="sr-only">]</span>
          </ins>
        ) : (
          <span key={index} className={part.elided ? "text-stone-500" : undefined}>
            {part.text}
          </span>
        ),
      )}
    </p>
  );
}

function FieldValues({ fields, values, history }: { fields: FieldDefinition[]; values: Record<string, unknown>; history: RecordHistory }) {
  const set = fields.filter((field) => values[field.key] !== undefined && values[field.key] !== null);
  if (set.length === 0) return <p className="mt-2 text-stone-600">No values.</p>;
  return (
    <dl className="mt-2 space-y-2">
      {set.map((field) => (
        <div key={field.key}>
          <dt className="font-medium text-stone-800">{field.label}</dt>
          <dd className="whitespace-pre-wrap">{valueText(field, values[field.key], history)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A value as text: relations by title, files by name, ranges as from–to, authority links as "Label <URI>"; empty as "(empty)". */
function valueText(field: FieldDefinition, value: unknown, history: RecordHistory): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (field.type === "relation") {
    const ids = Array.isArray(value) ? value : [value];
    return ids.length === 0 ? "(empty)" : ids.map((id) => history.relations[String(id)] ?? "a record").join("; ");
  }
  if (field.type === "image" || field.type === "media" || field.type === "scan") {
    const file = history.media[String(value)];
    return file ? file.originalName : "a file no longer stored";
  }
  if (field.type === "authority") return authorityText(value) || "(empty)";
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    return value.map((item) => (typeof item === "object" && item && "text" in item ? String((item as { text: unknown }).text) : String(item))).join("\n");
  if (typeof value === "object") {
    const object = value as Record<string, unknown>;
    if ("text" in object && typeof object.text === "string") return object.text;
    if ("from" in object || "to" in object) return `${String(object.from ?? "")}–${String(object.to ?? "")}`;
    return JSON.stringify(value);
  }
  return String(value);
}
