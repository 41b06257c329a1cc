"use client";

import { BusyButton } from "@/components/busy-button";
import Link from "next/link";
import { useRef, useState, useTransition } from "react";
import { deleteRecordAction } from "../actions";

/** Edit and Delete for editors; deleting asks first, naming the record. */
export function RecordActionsClient({ id, title, version }: { id: string; title: string; version: number }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<{ message: string; conflict: boolean } | null>(null);

  const confirmDelete = () => {
    if (pending) return;
    startTransition(async () => {
      // On success the action redirects to the record list.
      const result = await deleteRecordAction({ id, version });
      if (result?.status === "error") setError({ message: result.message, conflict: result.code === "conflict" });
    });
  };

  return (
    <div className="flex gap-2">
      <Link href={`/records/${id}/edit`} className="btn">
        Edit
      </Link>
      <button
        type="button"
        className="btn"
        onClick={() => {
          setError(null);
          dialogRef.current?.showModal();
        }}
      >
        Delete
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby="delete-dialog-title"
        className="m-auto max-w-md rounded-lg border border-stone-200 bg-white p-6 shadow-xl backdrop:bg-stone-900/40"
      >
        <h2 id="delete-dialog-title" className="text-lg font-semibold">
          Delete “{title}”?
        </h2>
        <p className="mt-2 text-sm text-stone-700">The record, its files and its history are removed for everyone. This cannot be undone.</p>
        {error && (
          <div role="alert" className="notice-error mt-4">
            {error.message}{" "}
            {error.conflict && (
              <a href={`/records/${id}`} className="font-medium underline">
                Reload
              </a>
            )}
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn" autoFocus onClick={() => dialogRef.current?.close()}>
            Cancel
          </button>
          <BusyButton type="button" className="btn btn-danger" busy={pending} onClick={confirmDelete}>
            {pending ? "Deleting…" : "Delete record"}
          </BusyButton>
        </div>
      </dialog>
    </div>
  );
}
