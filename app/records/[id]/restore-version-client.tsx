"use client";

import { BusyButton } from "@/components/busy-button";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, useTransition } from "react";
import { restoreVersionAction } from "../actions";

/**
 * Restore one earlier version, after a confirmation that says what happens: its values become a
 * new version and the current values stay in the history. A conflict (someone saved since the
 * page was loaded) is announced with a reload link; on success the page reloads its data.
 */
export function RestoreVersionClient({ recordId, currentVersion, restore }: { recordId: string; currentVersion: number; restore: number }) {
  const router = useRouter();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<{ message: string; conflict: boolean } | null>(null);
  const [done, setDone] = useState("");

  const confirm = () => {
    if (pending) return;
    startTransition(async () => {
      const result = await restoreVersionAction({ id: recordId, version: currentVersion, restore });
      if (result.status === "ok") {
        dialogRef.current?.close();
        const kept = result.data.keptFiles.length ? ` ${result.data.keptFiles.join(", ")} kept the current file: the earlier one is no longer stored.` : "";
        setDone(`Version ${restore} restored as version ${result.data.version}.${kept}`);
        router.refresh();
      } else {
        const detail = result.fieldErrors ? Object.values(result.fieldErrors).flat().join(" ") : "";
        setError({ message: detail ? `${result.message} ${detail}` : result.message, conflict: result.code === "conflict" });
      }
    });
  };

  return (
    <div className="mt-3">
      <button
        type="button"
        className="btn"
        onClick={() => {
          setError(null);
          dialogRef.current?.showModal();
        }}
      >
        Restore version {restore}
      </button>
      <p aria-live="polite" className="mt-1 text-sm text-emerald-800">
        {done}
      </p>
      <dialog ref={dialogRef} aria-labelledby={titleId} className="m-auto max-w-md rounded-lg border border-stone-200 bg-white p-6 shadow-xl backdrop:bg-stone-900/40">
        <h2 id={titleId} className="text-lg font-semibold">
          Restore version {restore}?
        </h2>
        <p className="mt-2 text-sm text-stone-700">
          Its values are saved as a new version, {currentVersion + 1}. The current values stay in the history, so this can be undone the same way.
        </p>
        {error && (
          <div role="alert" className="notice-error mt-4">
            {error.message}{" "}
            {error.conflict && (
              <a href={`/records/${recordId}#history`} className="font-medium underline">
                Reload
              </a>
            )}
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn" autoFocus onClick={() => dialogRef.current?.close()}>
            Cancel
          </button>
          <BusyButton type="button" className="btn btn-primary" busy={pending} onClick={confirm}>
            {pending ? "Restoring…" : `Restore version ${restore}`}
          </BusyButton>
        </div>
      </dialog>
    </div>
  );
}
