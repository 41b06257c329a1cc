"use client";

import { useEffect, useRef, useState } from "react";
import { ActionButton } from "@/components/action-button";
import { ActionForm } from "@/components/action-form";
import { BusyButton } from "@/components/busy-button";
import { FieldErrors } from "@/components/field-errors";
import { useServerAction } from "@/components/use-server-action";
import { maxSavedSearchNameLength } from "@/lib/rag/search/saved-search-limits";
import { deleteSavedSearchAction, renameSavedSearchAction } from "./actions";

/** Rename: a button that opens a small form in place (Escape or Cancel closes it, focus returns to the button). */
export function RenameSavedSearchClient({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(name);
  const { pending, run, feedback, fieldErrors } = useServerAction();
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const inputId = `rename-${id}`;
  useEffect(() => {
    if (open) input.current?.select();
  }, [open]);
  const close = () => {
    setOpen(false);
    setValue(name);
    requestAnimationFrame(() => button.current?.focus());
  };
  if (!open) {
    return (
      <div>
        <button ref={button} type="button" className="btn" aria-label={`Rename “${name}”`} onClick={() => setOpen(true)}>
          Rename
        </button>
        {feedback}
      </div>
    );
  }
  return (
    <div>
      <ActionForm
        aria-label={`Rename “${name}”`}
        className="flex flex-wrap items-start gap-2"
        busy={pending}
        onKeyDown={(event) => {
          if (event.key === "Escape") close();
        }}
        onSubmit={() =>
          run(
            () => renameSavedSearchAction({ id, name: value }),
            (data) => `Renamed to “${data.name}”.`,
            () => setOpen(false),
          )
        }
      >
        <label htmlFor={inputId} className="sr-only">
          New name
        </label>
        <div>
          <input
            ref={input}
            id={inputId}
            className="field-input"
            value={value}
            maxLength={maxSavedSearchNameLength}
            required
            aria-invalid={fieldErrors.name ? true : undefined}
            onChange={(event) => setValue(event.target.value)}
          />
          <FieldErrors messages={fieldErrors.name} />
        </div>
        <BusyButton type="submit" className="btn btn-primary" busy={pending}>
          Save name
        </BusyButton>
        <button type="button" className="btn" onClick={close}>
          Cancel
        </button>
      </ActionForm>
      {feedback}
    </div>
  );
}

export function DeleteSavedSearchClient({ id, name }: { id: string; name: string }) {
  // Success needs no words: the refreshed list no longer shows the search.
  return (
    <ActionButton
      className="btn"
      aria-label={`Delete “${name}”`}
      confirm={`Delete the saved search “${name}”? The records are not affected.`}
      action={() => deleteSavedSearchAction({ id })}
      done=""
    >
      Delete
    </ActionButton>
  );
}
