"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { BusyButton } from "@/components/busy-button";
import { DataTable } from "@/components/data-table";
import { FieldErrors } from "@/components/field-errors";
import { LabelledField } from "@/components/labelled-field";
import { queryKeys } from "@/components/query-keys";
import type { ActionResult } from "@/lib/action-result";
import type { DryRunResult, ImportMapping, ImportPlan, ImportPreview } from "@/lib/archive/import/types";
import type { FieldErrors as FieldErrorMap } from "@/lib/errors";
import { formatBytes } from "@/components/format";
import { dryRunImportAction, previewImportAction, startImportAction } from "./actions";
import { ImportJobProgressClient } from "./import-job-progress-client";

export interface ImportSection {
  slug: string;
  name: string;
  fields: { key: string; label: string; type: string }[];
}

/** A column's choice in the mapping table: a field key, ignored on purpose, or not chosen yet. */
const ignore = "__ignore__";
const unchosen = "";

/** Problems shown on the page; the download has them all. */
const shownProblems = 200;

function fieldOptions(section: ImportSection | undefined): { value: string; label: string }[] {
  if (!section) return [];
  return section.fields.flatMap((field) => {
    const own = { value: field.key, label: `${field.label} (${field.type})` };
    // An authority field's URIs may have their labels in a column of their own.
    if (field.type === "authority") return [own, { value: `${field.key}.label`, label: `${field.label}: labels of its links` }];
    if (field.type !== "daterange") return [own];
    return [own, { value: `${field.key}.from`, label: `${field.label}: from (year)` }, { value: `${field.key}.to`, label: `${field.label}: to (year)` }];
  });
}

/** The mapping table's choices from a suggested mapping: every column, suggested or not chosen. */
function choicesOf(columns: readonly string[], mapping: ImportMapping): Record<string, string> {
  return Object.fromEntries(columns.map((column) => [column, column in mapping.columns ? (mapping.columns[column] ?? ignore) : unchosen]));
}

/** The mapping the service takes: chosen columns only (an unchosen one is named by the dry run). */
function mappingOf(choices: Record<string, string>, externalIdColumn: string): ImportMapping {
  const columns: Record<string, string | null> = {};
  for (const [column, choice] of Object.entries(choices)) {
    if (choice === unchosen) continue;
    columns[column] = choice === ignore ? null : choice;
  }
  return { ...(externalIdColumn ? { externalIdColumn } : {}), columns };
}

/**
 * The import steps on one page: choose the section, project and file → preview the first rows
 * with the suggested column → field mapping → check (dry run: counts and every problem, which
 * can be downloaded as CSV) → import the valid rows and follow the job's progress. Changing the
 * file, section or project starts again from the preview; changing the mapping asks for a new
 * check. The browser keeps the file and sends it with each step.
 */
export function ImportClient({
  sections,
  projects,
  maxBytes,
  zipMaxBytes,
  formMaxBytes,
}: {
  sections: ImportSection[];
  projects: { id: string; name: string }[];
  maxBytes: number;
  zipMaxBytes: number;
  /** The most one step's form may carry: the file and the media zip together. */
  formMaxBytes: number;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [sectionSlug, setSectionSlug] = useState(sections[0]?.slug ?? "");
  const [projectId, setProjectId] = useState(projects[0]?.id ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [mediaZip, setMediaZip] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [externalIdColumn, setExternalIdColumn] = useState("");
  const [dryRun, setDryRun] = useState<DryRunResult | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [message, setMessage] = useState<ActionMessage>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrorMap>({});
  const [pending, startTransition] = useTransition();
  const [step, setStep] = useState<"preview" | "check" | "start" | "download" | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const zipInput = useRef<HTMLInputElement>(null);
  const mappingHeading = useRef<HTMLHeadingElement>(null);
  const checkHeading = useRef<HTMLHeadingElement>(null);

  const section = sections.find((item) => item.slug === sectionSlug);
  const options = fieldOptions(section);
  const unchosenColumns = preview ? preview.columns.filter((column) => choices[column] === unchosen && column !== externalIdColumn) : [];

  useEffect(() => {
    if (preview) mappingHeading.current?.focus();
  }, [preview]);
  useEffect(() => {
    if (dryRun) checkHeading.current?.focus();
  }, [dryRun]);

  /** Back to the first step: the file, section or project changed. */
  const restart = () => {
    setPreview(null);
    setDryRun(null);
    setJobId(null);
    setMessage(null);
    setFieldErrors({});
  };

  const plan = (): ImportPlan => ({ sectionSlug, projectId, mapping: mappingOf(choices, externalIdColumn) });

  /** The step's form: the file, and with a plan (check, import, problems) the media zip too. */
  const form = (entries: Record<string, string>): FormData => {
    const data = new FormData();
    if (file) data.set("file", file);
    if (mediaZip && "plan" in entries) data.set("mediaZip", mediaZip);
    for (const [key, value] of Object.entries(entries)) data.set(key, value);
    return data;
  };

  /** A file the server would refuse anyway is refused here, before it is sent. */
  const fileProblem = (): string | null => {
    if (!file) return "Choose a CSV, JSON, JSON Lines or XML file.";
    if (file.size === 0) return "The file is empty.";
    if (file.size > maxBytes) return `The file is ${formatBytes(file.size)}; imports are limited to ${formatBytes(maxBytes)}. Split it into smaller files.`;
    return null;
  };

  const zipProblem = (): string | null => {
    if (!mediaZip || !file) return null;
    if (mediaZip.size === 0) return "The media zip is empty.";
    if (mediaZip.size > zipMaxBytes)
      return `The media zip is ${formatBytes(mediaZip.size)}; a zip is limited to ${formatBytes(zipMaxBytes)}. Split the import, or ask an admin to use a server folder.`;
    if (file.size + mediaZip.size > formMaxBytes - 256 * 1024) {
      return `The file and the media zip together are ${formatBytes(file.size + mediaZip.size)}; the page sends at most ${formatBytes(formMaxBytes)} at once. Split the import, or use the command line (npm run import -- --media-zip).`;
    }
    return null;
  };

  const run = <T,>(which: NonNullable<typeof step>, action: () => Promise<ActionResult<T>>, onOk: (data: T) => void) => {
    if (pending) return;
    const problem = fileProblem();
    if (problem) {
      setFieldErrors({ file: [problem] });
      setMessage({ kind: "error", text: problem });
      fileInput.current?.focus();
      return;
    }
    const zipped = which === "preview" ? null : zipProblem();
    if (zipped) {
      setFieldErrors({ mediaZip: [zipped] });
      setMessage({ kind: "error", text: zipped });
      zipInput.current?.focus();
      return;
    }
    setStep(which);
    startTransition(async () => {
      setMessage(null);
      setFieldErrors({});
      try {
        const result = await action();
        if (result.status === "ok") onOk(result.data);
        else {
          setFieldErrors(result.fieldErrors ?? {});
          setMessage({ kind: "error", text: result.message });
        }
      } catch {
        // The action never answered: the connection dropped, or the body was refused before it ran.
        setMessage({ kind: "error", text: "The file could not be sent to the server. Check your connection and the file's size, and try again." });
      }
    });
  };

  const readFile = () =>
    run(
      "preview",
      () => previewImportAction(form({ sectionSlug })),
      (data) => {
        setPreview(data);
        setChoices(choicesOf(data.columns, data.suggestedMapping));
        setExternalIdColumn(data.suggestedMapping.externalIdColumn ?? "");
        setDryRun(null);
        setJobId(null);
      },
    );

  const check = () =>
    run(
      "check",
      () => dryRunImportAction(form({ plan: JSON.stringify(plan()) })),
      (data) => {
        setDryRun(data);
        setMessage({
          kind: "ok",
          text: `Checked ${data.rows} rows: ${data.valid} can be imported, ${data.problems.length} problem${data.problems.length === 1 ? "" : "s"}. Nothing was written.`,
        });
      },
    );

  const start = () =>
    run(
      "start",
      () => startImportAction(form({ plan: JSON.stringify(plan()) })),
      (data) => {
        setJobId(data.jobId);
        setMessage({ kind: "ok", text: `Import started: ${data.dryRun.valid} rows will be imported.` });
        void queryClient.invalidateQueries({ queryKey: queryKeys.importJobs.all() });
        router.refresh();
      },
    );

  const downloadProblems = () => {
    if (pending) return;
    setStep("download");
    startTransition(async () => {
      setMessage(null);
      try {
        const response = await fetch("/api/import-problems", { method: "POST", body: form({ plan: JSON.stringify(plan()) }) });
        if (!response.ok) {
          const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
          setMessage({ kind: "error", text: body?.error?.message ?? `The problems could not be made into a file (the server answered ${response.status}).` });
          return;
        }
        const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "import-problems.csv";
        const url = URL.createObjectURL(await response.blob());
        const link = document.createElement("a");
        link.href = url;
        link.download = name;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } catch {
        setMessage({ kind: "error", text: "The problems could not be downloaded. Check your connection and try again." });
      }
    });
  };

  const changeChoice = (column: string, choice: string) => {
    setChoices((current) => ({ ...current, [column]: choice }));
    setDryRun(null);
  };

  return (
    <div className="space-y-6">
      <form
        aria-label="Import file"
        className="rounded-lg border border-stone-200 bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          readFile();
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <LabelledField htmlFor="import-section" label="Section">
            <select
              id="import-section"
              className="field-input"
              value={sectionSlug}
              onChange={(event) => {
                setSectionSlug(event.target.value);
                restart();
              }}
            >
              {sections.map((item) => (
                <option key={item.slug} value={item.slug}>
                  {item.name}
                </option>
              ))}
            </select>
          </LabelledField>
          <LabelledField htmlFor="import-project" label="Project">
            <select
              id="import-project"
              className="field-input"
              value={projectId}
              aria-invalid={fieldErrors.projectId ? true : undefined}
              onChange={(event) => {
                setProjectId(event.target.value);
                setDryRun(null);
                setJobId(null);
              }}
            >
              {projects.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.name}
                </option>
              ))}
            </select>
            <FieldErrors messages={fieldErrors.projectId} />
          </LabelledField>
          <LabelledField className="min-w-64 flex-1" htmlFor="import-file" label="File (CSV, JSON, JSON Lines or EAD3/EAC-CPF XML, UTF-8)">
            <input
              ref={fileInput}
              id="import-file"
              type="file"
              className="field-input"
              accept=".csv,.json,.jsonl,.ndjson,.tsv,.xml,text/csv,application/json,application/xml,text/xml"
              aria-invalid={fieldErrors.file ? true : undefined}
              aria-describedby="import-file-help"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                restart();
              }}
            />
            <span id="import-file-help" className="mt-1 block text-xs text-stone-500">
              At most {formatBytes(maxBytes)}. A CSV has a header row; JSON is an array of objects; JSON Lines one object a line; an EAD3 finding aid gives a
              row per unit, an EAC-CPF record one row.
            </span>
            <FieldErrors messages={fieldErrors.file} />
          </LabelledField>
          <LabelledField className="min-w-64 flex-1" htmlFor="import-media-zip" label="Media zip (optional)">
            <input
              ref={zipInput}
              id="import-media-zip"
              type="file"
              className="field-input"
              accept=".zip,application/zip"
              aria-invalid={fieldErrors.mediaZip ? true : undefined}
              aria-describedby="import-media-zip-help"
              onChange={(event) => {
                setMediaZip(event.target.files?.[0] ?? null);
                setDryRun(null);
                setJobId(null);
              }}
            />
            <span id="import-media-zip-help" className="mt-1 block text-xs text-stone-500">
              The images and recordings that image and media columns name, by their path in the zip or their file name. At most {formatBytes(zipMaxBytes)}.
            </span>
            <FieldErrors messages={fieldErrors.mediaZip} />
          </LabelledField>
          <BusyButton type="submit" className="btn btn-primary" busy={pending} disabled={!file}>
            {pending && step === "preview" ? "Reading the file…" : "Preview"}
          </BusyButton>
        </div>
      </form>

      <ActionFeedback message={message} spacing="" />

      {preview && (
        <section aria-labelledby="import-mapping" className="rounded-lg border border-stone-200 bg-white p-4">
          <h2 id="import-mapping" ref={mappingHeading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
            Preview and mapping
          </h2>
          <p className="mt-1 text-sm text-stone-600">
            {preview.format.toUpperCase()} with {preview.rowCount} data row{preview.rowCount === 1 ? "" : "s"} and {preview.columns.length} column
            {preview.columns.length === 1 ? "" : "s"}. The first {preview.rows.length} rows:
          </p>
          <div className="mt-2 overflow-x-auto">
            <DataTable columns={["Row", ...preview.columns]} className="mt-0" testId="import-preview">
              {preview.rows.map((row, index) => (
                <tr key={index} className="border-b border-stone-100 align-top">
                  <th scope="row" className="py-1 pr-3 font-normal tabular-nums text-stone-500">
                    {index + 1}
                  </th>
                  {preview.columns.map((column, cell) => (
                    <td key={column} className="max-w-48 truncate py-1 pr-3" title={row[cell] ?? ""}>
                      {row[cell] ?? ""}
                    </td>
                  ))}
                </tr>
              ))}
            </DataTable>
          </div>

          <h3 className="mt-6 font-medium">Which column fills which field</h3>
          <p className="text-sm text-stone-600">
            Matched by name where the names agree; a column that matches no field is ignored unless you choose a field for it.
          </p>
          {preview.ignoredColumns.length > 0 && (
            <p className="mt-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="import-ignored-columns">
              {preview.ignoredColumns.length === 1 ? "This column matches" : "These columns match"} no field of {section?.name ?? "the section"} and{" "}
              {preview.ignoredColumns.length === 1 ? "is" : "are"} ignored: {preview.ignoredColumns.map((column) => `“${column}”`).join(", ")}. Choose a field
              below to import {preview.ignoredColumns.length === 1 ? "it" : "them"}.
            </p>
          )}
          <DataTable columns={["Column", "First value", `Field of ${section?.name ?? "the section"}`]} testId="import-mapping-table">
            {preview.columns.map((column, index) => (
              <tr key={column} className="border-b border-stone-100 align-top">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {column}
                </th>
                <td className="max-w-48 truncate py-2 pr-3 text-stone-600">{preview.rows[0]?.[index] ?? ""}</td>
                <td className="py-2">
                  <select
                    className="field-input"
                    aria-label={`Field for column ${column}`}
                    value={choices[column] ?? unchosen}
                    aria-invalid={choices[column] === unchosen && column !== externalIdColumn ? true : undefined}
                    onChange={(event) => changeChoice(column, event.target.value)}
                  >
                    <option value={unchosen}>{column === externalIdColumn ? "— only the external id —" : "Choose a field…"}</option>
                    <option value={ignore}>Ignore this column</option>
                    {options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </DataTable>
          <LabelledField className="mt-4 max-w-md" htmlFor="import-external-id" label="External id column">
            <select
              id="import-external-id"
              className="field-input"
              value={externalIdColumn}
              aria-describedby="import-external-id-help"
              onChange={(event) => {
                setExternalIdColumn(event.target.value);
                setDryRun(null);
              }}
            >
              <option value="">None: every row is a new record</option>
              {preview.columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
            <span id="import-external-id-help" className="mt-1 block text-xs text-stone-500">
              A column holding each row&apos;s stable id (a catalogue number): importing the file again updates those records instead of adding them twice.
            </span>
          </LabelledField>
          {unchosenColumns.length > 0 && (
            <p className="notice mt-4" data-testid="import-unchosen">
              Still to choose: {unchosenColumns.join(", ")}.
            </p>
          )}
          <div className="mt-4 flex flex-wrap gap-2">
            <BusyButton type="button" className="btn btn-primary" busy={pending} onClick={check}>
              {pending && step === "check" ? "Checking every row…" : "Check (dry run)"}
            </BusyButton>
          </div>
        </section>
      )}

      {preview && dryRun && (
        <section aria-labelledby="import-check" className="rounded-lg border border-stone-200 bg-white p-4" data-testid="import-dry-run">
          <h2 id="import-check" ref={checkHeading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
            Check result
          </h2>
          <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-6" data-testid="import-counts">
            {(
              [
                ["Rows", dryRun.rows],
                ["Valid", dryRun.valid],
                ["New", dryRun.creates],
                ["Updated", dryRun.updates],
                ["Unchanged", dryRun.unchanged],
                ["Problems", dryRun.problems.length],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className="text-stone-500">{label}</dt>
                <dd className="font-medium tabular-nums" data-testid={`import-count-${label.toLowerCase()}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {dryRun.problems.length === 0 ? (
            <p className="mt-3 text-sm text-emerald-800">No problems: every row can be imported.</p>
          ) : (
            <>
              <DataTable columns={[{ label: "Row", numeric: true }, "Column", "Field", "Problem"]} testId="import-problems">
                {dryRun.problems.slice(0, shownProblems).map((problem, index) => (
                  <tr key={index} className="border-b border-stone-100 align-top">
                    <td className="py-1 pr-3 text-right tabular-nums">{problem.row === 0 ? "file" : problem.row}</td>
                    <td className="py-1 pr-3">{problem.column ?? ""}</td>
                    <td className="py-1 pr-3">{problem.field ?? ""}</td>
                    <td className="py-1">{problem.message}</td>
                  </tr>
                ))}
              </DataTable>
              {dryRun.problems.length > shownProblems && (
                <p className="mt-2 text-sm text-stone-600">
                  The first {shownProblems} of {dryRun.problems.length} problems; the download has them all.
                </p>
              )}
            </>
          )}
          <div className="mt-4 flex flex-wrap gap-2">
            {dryRun.problems.length > 0 && (
              <BusyButton type="button" className="btn" busy={pending} onClick={downloadProblems}>
                {pending && step === "download" ? "Preparing the file…" : "Download problems as CSV"}
              </BusyButton>
            )}
            {jobId === null && (
              <BusyButton type="button" className="btn btn-primary" busy={pending} disabled={dryRun.valid === 0} onClick={start}>
                {pending && step === "start" ? "Starting…" : `Import ${dryRun.valid} valid row${dryRun.valid === 1 ? "" : "s"}`}
              </BusyButton>
            )}
          </div>
          {dryRun.valid === 0 && (
            <p className="mt-2 text-sm text-stone-600">No row can be imported as the file stands: fix the problems or the mapping and check again.</p>
          )}
        </section>
      )}

      {jobId && (
        <section aria-label="Import progress" className="rounded-lg border border-stone-200 bg-white p-4">
          <ImportJobProgressClient jobId={jobId} />
        </section>
      )}
    </div>
  );
}
