"use client";

import { type ChangeEvent, useId, useState } from "react";
import { serializeSegments } from "@/lib/archive/segment-text";
import {
  decodeTranscriptBytes,
  describeFileProblems,
  formatNames,
  maxTranscriptFileCharacters,
  parseTranscriptFile,
  transcriptFileAccept,
} from "@/lib/archive/transcript-formats";
import { serializeTranscript } from "@/lib/archive/transcript-text";

type Outcome = { kind: "done"; message: string } | { kind: "problems"; fileName: string; problems: string[] } | null;

/**
 * "Import transcript file…" beside a transcript (or index) field: a WebVTT, SRT or OHMS XML file
 * is read in the browser and written into the field's text box — turns into the transcript,
 * OHMS index points into the index field — for the person to check and save. A file with
 * problems changes nothing; its problems are listed with their line numbers.
 */
export function TranscriptFileImport({ transcriptInputId, indexInputId }: { transcriptInputId?: string; indexInputId?: string }) {
  const inputId = useId();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      const decoded = file.size > maxTranscriptFileCharacters * 2 ? null : decodeTranscriptBytes(new Uint8Array(await file.arrayBuffer()));
      const parsed = !decoded
        ? { format: null, turns: [], segments: [], problems: [{ line: 1, message: "the file is too large to be a transcript." }] }
        : decoded.ok
          ? parseTranscriptFile(file.name, decoded.text)
          : { format: null, turns: [], segments: [], problems: [decoded.problem] };
      if (parsed.problems.length > 0 || !parsed.format) {
        setOutcome({ kind: "problems", fileName: file.name, problems: describeFileProblems(parsed.problems) });
        return;
      }
      const transcriptBox = transcriptInputId ? document.getElementById(transcriptInputId) : null;
      const indexBox = indexInputId ? document.getElementById(indexInputId) : null;
      const filled: string[] = [];
      const skipped: string[] = [];
      if (parsed.turns.length > 0) {
        if (transcriptBox instanceof HTMLTextAreaElement) {
          transcriptBox.value = serializeTranscript(parsed.turns);
          filled.push(`${parsed.turns.length} turn${parsed.turns.length === 1 ? "" : "s"}`);
        } else skipped.push("its transcript (this section has no transcript field)");
      }
      if (parsed.segments.length > 0) {
        if (indexBox instanceof HTMLTextAreaElement) {
          indexBox.value = serializeSegments(parsed.segments);
          filled.push(`${parsed.segments.length} index segment${parsed.segments.length === 1 ? "" : "s"}`);
        } else skipped.push(`its ${parsed.segments.length} index points (this section has no index field)`);
      }
      const read = `Read ${formatNames[parsed.format]} file ${file.name}: `;
      setOutcome({
        kind: "done",
        message: `${read}${filled.length ? `filled in ${filled.join(" and ")}. Check them and save the record to keep them.` : "nothing to fill in."}${skipped.length ? ` Not imported: ${skipped.join(", ")}.` : ""}`,
      });
    } finally {
      setBusy(false);
      // The same file can be chosen again after a fix.
      input.value = "";
    }
  };

  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor={inputId} className="font-medium text-stone-700">
          Import transcript file…
        </label>
        <input
          id={inputId}
          type="file"
          accept={transcriptFileAccept}
          onChange={importFile}
          disabled={busy}
          aria-describedby={`${inputId}-hint`}
          className="block text-sm file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-stone-100"
        />
      </div>
      <p id={`${inputId}-hint`} className="field-hint">
        WebVTT (.vtt), SRT (.srt) or OHMS XML (.xml); speaker labels are kept. The file replaces the text below only if it reads without problems.
      </p>
      <p role="status" className="text-sm text-stone-700">
        {outcome?.kind === "done" ? outcome.message : ""}
      </p>
      {outcome?.kind === "problems" && (
        <div role="alert" className="notice-error text-sm">
          <p className="font-medium">
            {outcome.fileName} was not imported; nothing was changed. Fix {outcome.problems.length === 1 ? "this problem" : "these problems"} and import it
            again:
          </p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {outcome.problems.map((problem, index) => (
              <li key={index}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
