"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/fetch-json";
import { queryKeys } from "@/components/query-keys";
import type { ImportJobView } from "@/lib/archive/import/types";

/** How often a running import's progress is read, in milliseconds. */
const progressInterval = 1500;

const finished = (job: ImportJobView | undefined) => job?.status === "done" || job?.status === "failed";

/**
 * An import job's progress bar. It reads the job from the server every second and a half until
 * it is done or failed (so it is right after a reload too), then refreshes the page's list of
 * imports. The full form says what the job did and links to the imported records.
 */
export function ImportJobProgressClient({ jobId, compact = false }: { jobId: string; compact?: boolean }) {
  const router = useRouter();
  const query = useQuery({
    queryKey: queryKeys.importJobs.progress(jobId),
    queryFn: () => fetchJson<ImportJobView>(`/api/import-jobs/${jobId}`),
    // Until the job has finished; a failed read is tried again at the same pace.
    refetchInterval: (current) => (finished(current.state.data) ? false : progressInterval),
    refetchIntervalInBackground: true,
  });
  const job = query.data;
  const done = finished(job);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!done) return;
    router.refresh();
    if (!compact) heading.current?.focus();
  }, [done, compact, router]);

  const percent = job && job.total > 0 ? Math.round((job.processed / job.total) * 100) : 0;
  const label = job ? `Import of ${job.fileName}` : "Import";
  const error = query.isError ? `Progress could not be read (${query.error.message}); retrying.` : null;
  const bar = (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="mt-1 h-2 rounded bg-stone-100">
      <div className="h-2 rounded bg-accent-700 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );

  if (compact) {
    return (
      <div className="min-w-32 text-xs" data-testid="import-job-progress">
        <span>{job ? `${job.status === "queued" ? "Queued" : "Running"}: ${job.processed} of ${job.total}` : "…"}</span>
        {bar}
        {error && <span className="block text-red-700">{error}</span>}
      </div>
    );
  }

  const records = job ? `/records?${new URLSearchParams({ section: job.sectionSlug, project: job.projectId })}` : "/records";
  return (
    <div className="text-sm" data-testid="import-progress">
      <h3 ref={heading} tabIndex={-1} className="font-medium focus:outline-none">
        {!job
          ? "Starting the import…"
          : job.status === "done"
            ? "Import done"
            : job.status === "failed"
              ? "Import failed"
              : job.status === "queued"
                ? "Import queued"
                : "Importing…"}
      </h3>
      <div className="mt-2 flex items-center justify-between gap-2">
        <span>{label}</span>
        <span className="tabular-nums text-stone-600">{job ? `${job.processed} of ${job.total} rows` : "…"}</span>
      </div>
      {bar}
      <p aria-live="polite" className="mt-1 text-xs text-stone-600" data-testid="import-progress-status">
        {job
          ? done
            ? `${job.status === "done" ? "Done" : "Stopped"}: ${job.created} created, ${job.updated} updated, ${job.unchanged} unchanged, ${job.skipped} skipped.`
            : `${percent}%`
          : ""}
      </p>
      {job?.status === "failed" && job.error && (
        <p role="alert" className="notice-error mt-2">
          {job.error}
        </p>
      )}
      {error && <p className="text-xs text-red-700">{error}</p>}
      {done && job && (
        <p className="mt-2 flex flex-wrap gap-4">
          <Link href={records} className="link">
            Open the imported records
          </Link>
          {job.skipped > 0 && (
            <a className="link" href={`/api/import-jobs/${job.id}/problems`} download>
              Download the skipped rows&apos; problems as CSV
            </a>
          )}
        </p>
      )}
    </div>
  );
}
