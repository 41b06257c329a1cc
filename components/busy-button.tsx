"use client";

import type { ButtonHTMLAttributes } from "react";

/**
 * A button whose action is running stays focusable: it says so with aria-disabled and ignores
 * clicks (and the Enter that submits its form) meanwhile. A `disabled` button would drop keyboard
 * focus to the document body the moment it is pressed.
 */
export function BusyButton({ busy, onClick, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean }) {
  return (
    <button
      {...props}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    />
  );
}

/** A form's submit button that says what it is doing while the form's action runs. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & { busy: boolean; busyLabel: string }) {
  return (
    <BusyButton {...props} type="submit" busy={busy}>
      {busy ? busyLabel : children}
    </BusyButton>
  );
}
