"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import type { TranscriptionTools } from "@/lib/archive/transcript-drafts";
import { formatTranscriptTimecode } from "@/lib/archive/transcript-text";
import type { ActionResult } from "@/lib/action-result";
import { type ActionMessage, ActionFeedback } from "./action-feedback";
import { BusyButton } from "./busy-button";
import { Waveform } from "./waveform";
import { useServerAction } from "./use-server-action";

/**
 * Beside a transcript field of the record editor: the recording with its waveform, typing keys in
 * the oTranscribe/OHMS habit (play, pause and skip without leaving the text), and the drafts the
 * index worker made — from silence detection, or from a speech model — to fill the field with.
 */

export interface TranscriptionActions {
  apply: (input: { draftId: string }) => Promise<ActionResult<{ fieldKey: string; text: string; turns: number; empty: number }>>;
  dismiss: (input: { draftId: string }) => Promise<ActionResult<null>>;
  transcribe: (input: { recordId: string; fieldKey: string }) => Promise<ActionResult<{ draftId: string }>>;
}

const skipSeconds = 5;

/** The keys, as the list beside the field names them. Chosen not to clash with the browser's own. */
export const transcriptionKeys: { keys: string; does: string }[] = [
  { keys: "Esc or Ctrl+Space", does: "play / pause" },
  { keys: "Ctrl+,", does: `back ${skipSeconds} s` },
  { keys: "Ctrl+.", does: `forward ${skipSeconds} s` },
  { keys: "Ctrl+J", does: "insert the time: [mm:ss.s - to open a turn, again to close it" },
];

/** What Ctrl+J inserts at the caret: an opening `[start - `, or the end of a turn opened on this line. */
export function timecodeInsertion(lineBeforeCaret: string, seconds: number): string {
  const time = formatTranscriptTimecode(seconds);
  return /\[\s*[\d:.]+\s*[-–]\s*$/.test(lineBeforeCaret) ? `${time}] ` : `[${time} - `;
}

export function TranscriptionToolsClient({
  textareaId,
  recordId,
  tools,
  actions,
}: {
  textareaId: string;
  recordId: string;
  tools: TranscriptionTools;
  actions: TranscriptionActions;
}) {
  const playerRef = useRef<HTMLAudioElement & HTMLVideoElement>(null);
  const [time, setTime] = useState(0);
  const [gone, setGone] = useState<string[]>([]);
  const [message, setMessage] = useState<ActionMessage>(null);
  const [pending, startTransition] = useTransition();
  const transcribe = useServerAction();
  const recording = tools.recording;

  // The keys work while the caret is in the transcript, so typing never stops for the mouse.
  useEffect(() => {
    const textarea = document.getElementById(textareaId) as HTMLTextAreaElement | null;
    if (!textarea || !recording) return;
    const onKey = (event: KeyboardEvent) => {
      const player = playerRef.current;
      if (!player) return;
      const ctrl = event.ctrlKey || event.metaKey;
      if ((event.key === "Escape" && !ctrl) || (ctrl && (event.key === " " || event.code === "Space"))) {
        event.preventDefault();
        if (player.paused) player.play().catch(() => undefined);
        else player.pause();
      } else if (ctrl && (event.key === "," || event.key === ".")) {
        event.preventDefault();
        const target = player.currentTime + (event.key === "," ? -skipSeconds : skipSeconds);
        player.currentTime = Math.max(0, Number.isFinite(player.duration) ? Math.min(player.duration, target) : target);
      } else if (ctrl && event.key.toLowerCase() === "j") {
        event.preventDefault();
        const start = textarea.selectionStart;
        const lineBefore = textarea.value.slice(textarea.value.lastIndexOf("\n", start - 1) + 1, start);
        textarea.setRangeText(timecodeInsertion(lineBefore, player.currentTime), start, textarea.selectionEnd, "end");
        textarea.dispatchEvent(new Event("input", { bubbles: true }));
      }
    };
    textarea.addEventListener("keydown", onKey);
    return () => textarea.removeEventListener("keydown", onKey);
  }, [textareaId, recording]);

  const runDraft = (draftId: string, kind: "apply" | "dismiss") => {
    if (pending) return;
    const textarea = document.getElementById(textareaId) as HTMLTextAreaElement | null;
    if (
      kind === "apply" &&
      textarea?.value.trim() &&
      !window.confirm("Replace the transcript in the form with this draft? What is in the field now is not saved.")
    )
      return;
    startTransition(async () => {
      setMessage(null);
      if (kind === "dismiss") {
        const result = await actions.dismiss({ draftId });
        if (result.status === "error") return setMessage({ kind: "error", text: result.message });
        setGone((ids) => [...ids, draftId]);
        return setMessage({ kind: "ok", text: "Draft dismissed." });
      }
      const result = await actions.apply({ draftId });
      if (result.status === "error") return setMessage({ kind: "error", text: result.message });
      setGone((ids) => [...ids, draftId]);
      if (textarea) {
        textarea.value = result.data.text;
        textarea.focus();
        // The caret goes after the first empty turn's timecode, ready to type.
        const firstEmpty = result.data.text.split("\n").findIndex((line) => /\]\s*$/.test(line));
        const offset =
          firstEmpty < 0
            ? 0
            : result.data.text
                .split("\n")
                .slice(0, firstEmpty + 1)
                .join("\n").length;
        textarea.setSelectionRange(offset, offset);
      }
      const { turns, empty } = result.data;
      setMessage({
        kind: "ok",
        text: empty
          ? `Filled ${turns} turns into the transcript, ${empty} of them empty: type “Speaker: text” after each timecode. Saving refuses an empty turn and names its line. Not saved yet.`
          : `Filled ${turns} turns into the transcript; review them and save. Not saved yet.`,
      });
    });
  };

  const drafts = tools.drafts.filter((draft) => !gone.includes(draft.id));
  const duration = recording?.durationSeconds ?? 0;
  const seek = (seconds: number) => {
    const player = playerRef.current;
    if (player) player.currentTime = seconds;
  };

  return (
    <div className="mt-2 space-y-2 rounded-md border border-stone-200 bg-stone-50 p-3 text-sm">
      {!recording ? (
        <p className="text-stone-600">Upload a recording and save the record to transcribe it here with a waveform and a draft from silence detection.</p>
      ) : (
        <>
          <audio
            ref={playerRef}
            controls
            preload="metadata"
            src={`/api/media/${recording.mediaId}?variant=stream`}
            aria-label="Recording, for transcribing"
            onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
            className="w-full"
          />
          {recording.peaks && recording.peaks.length > 0 && duration > 0 && <Waveform peaks={recording.peaks} duration={duration} time={time} onSeek={seek} />}
          {recording.intake === "pending" && (
            <p className="text-stone-600">
              The recording is waiting for the index worker, which reads its length and waveform and drafts turns from its pauses. Reload the page in a moment.
            </p>
          )}
          {recording.intake === "failed" && (
            <p className="text-amber-900">ffmpeg could not read this recording, so it has no waveform or draft. Replace it with a readable copy.</p>
          )}
          <div>
            <p className="font-medium text-stone-800">Keys while typing in the transcript</p>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-stone-700">
              {transcriptionKeys.map((item) => (
                <div key={item.keys} className="contents">
                  <dt>
                    <kbd className="rounded border border-stone-300 bg-white px-1 font-mono text-xs">{item.keys}</kbd>
                  </dt>
                  <dd>{item.does}</dd>
                </div>
              ))}
            </dl>
          </div>
        </>
      )}

      {drafts.length > 0 && (
        <ul className="space-y-2" aria-label="Transcript drafts">
          {drafts.map((draft) => {
            const from = draft.source === "segmentation" ? "from silence detection" : `from ${draft.model ?? "the speech model"}`;
            return (
              <li key={draft.id} className="flex flex-wrap items-center gap-2 rounded-md border border-stone-200 bg-white p-2">
                <span className="mr-auto text-stone-800">
                  {draft.status === "ready" && `Draft: ${draft.turnCount} ${draft.source === "segmentation" ? "segments" : "turns"} ${from}.`}
                  {draft.status === "pending" && `Transcribing with ${draft.model ?? "the speech model"}… Reload the page to see the draft.`}
                  {draft.status === "failed" && (
                    <span className="text-amber-900">
                      Transcription {from} failed: {draft.error}
                    </span>
                  )}
                </span>
                {draft.status === "ready" && (
                  <BusyButton type="button" className="btn btn-primary" busy={pending} onClick={() => runDraft(draft.id, "apply")}>
                    Use draft ({draft.turnCount}{" "}
                    {draft.source === "segmentation" ? "segments from silence detection" : `turns from ${draft.model ?? "the speech model"}`})
                  </BusyButton>
                )}
                <BusyButton type="button" className="btn" busy={pending} onClick={() => runDraft(draft.id, "dismiss")} aria-label={`Dismiss the draft ${from}`}>
                  Dismiss
                </BusyButton>
              </li>
            );
          })}
        </ul>
      )}
      <ActionFeedback message={message} spacing="" />

      {tools.speechToText === null ? (
        <p className="text-stone-600">{tools.speechToTextOff}</p>
      ) : !tools.speechToText.allowed ? (
        <p className="text-stone-600">
          This section&apos;s recordings stay on this server (egress policy: local only), so they are not sent to {tools.speechToText.model}.
        </p>
      ) : (
        recording && (
          <div>
            <BusyButton
              type="button"
              className="btn"
              busy={transcribe.pending}
              onClick={() =>
                transcribe.run(
                  () => actions.transcribe({ recordId, fieldKey: tools.fieldKey }),
                  `Queued for ${tools.speechToText?.model}: the draft appears here when the index worker has transcribed it.`,
                )
              }
            >
              Transcribe with {tools.speechToText.model}
            </BusyButton>
            {transcribe.feedback}
          </div>
        )
      )}
    </div>
  );
}
