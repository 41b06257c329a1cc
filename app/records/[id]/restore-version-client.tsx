"use client";

import { ConfirmDialog, type ConfirmDialogError } from "@/components/confirm-dialog";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { restoreVersionAction } from "../actions";

/**
 * Restore one earlier version, after a confirmation that says what happens: its values become a
 * new version and the current values stay in the history. A conflict (someone saved since the
 * page was loaded) is announced with a reload link; on success the page reloads its data.
 */
export function RestoreVersionClient({ recordId, currentVersion, restore }: { recordId: string; currentVersion: number; restore: number }) {
  const router = useRouter();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<ConfirmDialogError | null>(null);
  const [done, setDone] = useState("");

  const confirm = () =>
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

  return (
    <div className="mt-3">
      <ConfirmDialog
        trigger={`Restore version ${restore}`}
        title={`Restore version ${restore}?`}
        confirmLabel={`Restore version ${restore}`}
        busyLabel="Restoring…"
        busy={pending}
        error={error}
        reloadHref={`/records/${recordId}#history`}
        onOpen={() => setError(null)}
        onConfirm={confirm}
        dialogRef={dialogRef}
      >
        Its values are saved as a new version, {currentVersion + 1}. The current values stay in the history, so this can be undone the same way.
      </ConfirmDialog>
      <p aria-live="polite" className="mt-1 text-sm text-emerald-800">
        {done}
      </p>
    </div>
  );
}
