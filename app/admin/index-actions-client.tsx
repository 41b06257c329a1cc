"use client";

import { useRouter } from "next/navigation";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BusyButton } from "@/components/busy-button";
import { useServerAction } from "@/components/use-server-action";
import { type Jsonified, fetchJson } from "@/components/fetch-json";
import { queryKeys } from "@/components/query-keys";
import { useEffect } from "react";
import type { ReindexProgress } from "@/lib/admin/reindex-jobs";
import { retryFailedAction, startReindexAction } from "./actions";

/** How often a running job's progress is read, in milliseconds. */
const progressInterval = 1500;

/**
 * A reindex job's progress bar. It reads the job from the server every second and a half, so
 * it is right after a reload too; when the job ends the page's figures are refreshed.
 */
export function JobProgressClient({ jobId, label }: { jobId: string; label: string }) {
  const router = useRouter();
  const query = useQuery({
    queryKey: queryKeys.reindexJobs.progress(jobId),
    queryFn: () => fetchJson<Jsonified<ReindexProgress>>(`/api/admin/reindex-jobs/${jobId}`),
    // Until the job has finished; a failed read is tried again at the same pace.
    refetchInterval: (current) => (current.state.data?.finishedAt ? false : progressInterval),
    refetchIntervalInBackground: true,
  });
  const progress = query.data ?? null;
  const finished = Boolean(progress?.finishedAt);
  useEffect(() => {
    if (finished) router.refresh();
  }, [finished, router]);
  const error = query.isError ? `Progress could not be read (${query.error.message}); retrying.` : null;

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
        {progress?.finishedAt
          ? `Finished: ${percent}%.`
          : progress && progress.waitingBehind > 0
            ? `${percent}% · waiting: ${progress.waitingBehind.toLocaleString("en")} ${progress.waitingBehind === 1 ? "record" : "records"} queued before it (a first indexing, an import or recent saves) go first`
            : `${percent}%`}
      </p>
      {error && <p className="text-xs text-red-700">{error}</p>}
    </div>
  );
}

/** Reindex (a section or everything) and Retry failed, with what each did said aloud. */
export function IndexActionsClient({ sectionSlug, failed, scopeLabel }: { sectionSlug?: string; failed: number; scopeLabel: string }) {
  const queryClient = useQueryClient();
  const { pending, run, feedback } = useServerAction();
  // Every progress bar on the page is stale after either action (the page's figures are refreshed too).
  const invalidateProgress = () => void queryClient.invalidateQueries({ queryKey: queryKeys.reindexJobs.all() });
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          type="button"
          className="btn"
          busy={pending}
          onClick={() =>
            run(
              () => startReindexAction({ sectionSlug }),
              (data) => (data.alreadyRunning ? "A reindex covering these records is already running; its progress is shown." : `Queued ${data.total} records.`),
              invalidateProgress,
            )
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
            run(
              () => retryFailedAction({ sectionSlug }),
              (data) => `${data.retried} failed record${data.retried === 1 ? "" : "s"} put back in line.`,
              invalidateProgress,
            )
          }
        >
          Retry failed ({failed})
        </BusyButton>
      </div>
      {feedback}
    </div>
  );
}
