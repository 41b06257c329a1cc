"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { ActionForm } from "@/components/action-form";
import { BusyButton } from "@/components/busy-button";
import { FieldErrors } from "@/components/field-errors";
import { LabelledField } from "@/components/labelled-field";
import { useServerAction } from "@/components/use-server-action";
import { maxSavedSearchNameLength } from "@/lib/rag/search/saved-search-limits";
import { saveSearchAction } from "@/app/account/searches/actions";

/**
 * "Save this search": names the list as it stands (its search, filters and sort — the server
 * normalises them and drops the page) and keeps it on /account/searches. The form opens in
 * place; Escape or Cancel closes it and gives focus back to the button. On a phone it follows
 * the results (order-last, like the facets and export links), so they stay on the first screen.
 */
export function SaveSearchClient({ params }: { params: Partial<Record<string, string>> }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState((params.q ?? "").trim().slice(0, maxSavedSearchNameLength));
  const [saved, setSaved] = useState<string | null>(null);
  const { pending, run, feedback, fieldErrors } = useServerAction();
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => button.current?.focus());
  };
  const listParams = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return (
    <div className="order-last text-sm sm:order-none" data-testid="save-search">
      {open ? (
        <ActionForm
          aria-label="Save this search"
          className="flex flex-wrap items-end gap-2"
          busy={pending}
          onKeyDown={(event) => {
            if (event.key === "Escape") close();
          }}
          onSubmit={() =>
            run(
              () => saveSearchAction({ name, params: listParams }),
              (data) => `Saved as “${data.name}”.`,
              (data) => {
                setSaved(data.name);
                setOpen(false);
              },
            )
          }
        >
          <LabelledField htmlFor="saved-search-name" label="Name this search" className="min-w-64">
            <input
              ref={input}
              id="saved-search-name"
              className="field-input"
              value={name}
              maxLength={maxSavedSearchNameLength}
              required
              placeholder="e.g. Harbour strikes, 1950s"
              aria-invalid={fieldErrors.name ? true : undefined}
              onChange={(event) => setName(event.target.value)}
            />
            <FieldErrors messages={fieldErrors.name} />
          </LabelledField>
          <BusyButton type="submit" className="btn btn-primary" busy={pending}>
            Save
          </BusyButton>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
        </ActionForm>
      ) : (
        <button ref={button} type="button" className="btn" onClick={() => setOpen(true)}>
          Save this search
        </button>
      )}
      {feedback}
      {saved && (
        <p className="mt-1">
          <Link href="/account/searches" className="link">
            Your saved searches
          </Link>
        </p>
      )}
    </div>
  );
}
