"use client";

import { useRouter } from "next/navigation";
import { BusyButton } from "@/components/busy-button";
import { ActionFeedback } from "@/components/action-feedback";
import { useEffect, useState, useTransition } from "react";
import { retryFailedAction, startReindexAction } from "./actions";

interface Progress {
  id: string;
  total: number;
  remaining: number;
  failed: number;
  done: number;
  percent: number;
  finishedAt: string | null;
}

/**
 * A reindex job's progress bar. It reads the job from the server every second and a half, so
 * it is right after a reload too; when the job ends the page's figures are refreshed.
 */
export function JobProgressClient({ jobId, label }: { jobId: string; label: string }) {
  const router = useRouter();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const response = await fetch(`/api/admin/reindex-jobs/${jobId}`, { cache: "no-store" });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        const next = (await response.json()) as Progress;
        if (stopped) return;
        setProgress(next);
        setError(null);
        if (next.finishedAt) {
          router.refresh();
          return;
        }
      } catch (caught) {
        if (!stopped) setError(`Progress could not be read (${caught instanceof Error ? caught.message : String(caught)}); retrying.`);
      }
      if (!stopped) timer = setTimeout(() => void poll(), 1500);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [jobId, router]);

  const percent = progress?.percent ?? 0;
  return (
    <div className="text-sm" data-testid="reindex-progress">
      <div className="flex items-center justify-between gap-2">
        <span>{label}</span>
        <span className="tabular-nums text-stone-600">
          {progress ? `${progress.total - progress.remaining} of ${progress.total} records${progress.failed ? `, ${progress.failed} failed` : ""}` : "…"}
        </span>
      </div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="mt-1 h-2 rounded bg-stone-100">
        <div className="h-2 rounded bg-accent-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p aria-live="polite" className="mt-1 text-xs text-stone-600">
        {progress?.finishedAt ? `Finished: ${percent}%.` : `${percent}%`}
      </p>
      {error && <p className="text-xs text-red-700">{error}</p>}
    </div>
  );
}

/** Reindex (a section or everything) and Retry failed, with what each did said aloud. */
export function IndexActionsClient({ sectionSlug, failed, scopeLabel }: { sectionSlug?: string; failed: number; scopeLabel: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          type="button"
          className="btn"
          busy={pending}
          onClick={() =>
            startTransition(async () => {
              setMessage(null);
              const result = await startReindexAction({ sectionSlug });
              if (result.status === "error") return setMessage({ kind: "error", text: result.message });
              setMessage({ kind: "ok", text: result.data.alreadyRunning ? "A reindex covering these records is already running; its progress is shown." : `Queued ${result.data.total} records.` });
              router.refresh();
            })
          }
        >
          Reindex {scopeLabel}
        </BusyButton>
        <BusyButton
          type="button"
          className="btn"
          busy={pending}
          disabled={failed === 0}
          onClick={() =>
            startTransition(async () => {
              setMessage(null);
              const result = await retryFailedAction({ sectionSlug });
              if (result.status === "error") return setMessage({ kind: "error", text: result.message });
              setMessage({ kind: "ok", text: `${result.data.retried} failed record${result.data.retried === 1 ? "" : "s"} put back in line.` });
              router.refresh();
            })
          }
        >
          Retry failed ({failed})
        </BusyButton>
      </div>
      <ActionFeedback message={message} spacing="mt-1" />
    </div>
  );
}
