"use client";

import { BusyButton } from "@/components/busy-button";
import { type ReactNode, useId, useRef } from "react";

export interface ConfirmDialogError {
  message: string;
  /** Someone saved since the page was loaded: the alert offers a reload link. */
  conflict: boolean;
}

/**
 * A button that opens a modal dialog asking to confirm one action: a title, what will happen, an
 * alert for a refused attempt (with a reload link on a conflict), Cancel (focused first, so Enter
 * never confirms by accident) and the confirming button, busy while the action runs. Escape and
 * Cancel close it. The caller runs the action and reports its error; `onOpen` clears an old one.
 */
export function ConfirmDialog({
  trigger,
  title,
  children,
  confirmLabel,
  busyLabel,
  danger = false,
  busy,
  error,
  reloadHref,
  onOpen,
  onConfirm,
  dialogRef: outerRef,
}: {
  trigger: string;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
  busy: boolean;
  error: ConfirmDialogError | null;
  reloadHref: string;
  onOpen: () => void;
  onConfirm: () => void;
  /** For a caller that closes the dialog itself after a success that stays on the page. */
  dialogRef?: React.RefObject<HTMLDialogElement | null>;
}) {
  const ownRef = useRef<HTMLDialogElement>(null);
  const dialogRef = outerRef ?? ownRef;
  const titleId = useId();
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={() => {
          onOpen();
          dialogRef.current?.showModal();
        }}
      >
        {trigger}
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        className="m-auto max-w-md rounded-lg border border-stone-200 bg-white p-6 shadow-xl backdrop:bg-stone-900/40"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <p className="mt-2 text-sm text-stone-700">{children}</p>
        {error && (
          <div role="alert" className="notice-error mt-4">
            {error.message}{" "}
            {error.conflict && (
              <a href={reloadHref} className="font-medium underline">
                Reload
              </a>
            )}
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn" autoFocus onClick={() => dialogRef.current?.close()}>
            Cancel
          </button>
          <BusyButton type="button" className={danger ? "btn btn-danger" : "btn btn-primary"} busy={busy} onClick={() => !busy && onConfirm()}>
            {busy ? busyLabel : confirmLabel}
          </BusyButton>
        </div>
      </dialog>
    </>
  );
}
