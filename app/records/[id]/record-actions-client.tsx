"use client";

import { ConfirmDialog, type ConfirmDialogError } from "@/components/confirm-dialog";
import Link from "next/link";
import { useState, useTransition } from "react";
import { deleteRecordAction } from "../actions";

/** Edit and Delete for editors; deleting asks first, naming the record. */
export function RecordActionsClient({ id, title, version }: { id: string; title: string; version: number }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<ConfirmDialogError | null>(null);

  const confirmDelete = () =>
    startTransition(async () => {
      // On success the action redirects to the record list.
      const result = await deleteRecordAction({ id, version });
      if (result?.status === "error") setError({ message: result.message, conflict: result.code === "conflict" });
    });

  return (
    <div className="flex gap-2">
      <Link href={`/records/${id}/edit`} className="btn">
        Edit
      </Link>
      <ConfirmDialog
        trigger="Delete"
        title={<>Delete “{title}”?</>}
        confirmLabel="Delete record"
        busyLabel="Deleting…"
        danger
        busy={pending}
        error={error}
        reloadHref={`/records/${id}`}
        onOpen={() => setError(null)}
        onConfirm={confirmDelete}
      >
        The record, its files and its history are removed for everyone. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
