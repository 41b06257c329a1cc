"use client";

import type { FormHTMLAttributes } from "react";

type ActionFormProps = Omit<FormHTMLAttributes<HTMLFormElement>, "onSubmit"> & {
  /** An action is already running: submitting again does nothing. */
  busy?: boolean;
  onSubmit: (form: HTMLFormElement) => void;
};

/** A form handled in the browser: submitting (a click or Enter) runs `onSubmit` instead of navigating. */
export function ActionForm({ busy = false, onSubmit, ...props }: ActionFormProps) {
  return (
    <form
      {...props}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit(event.currentTarget);
      }}
    />
  );
}
