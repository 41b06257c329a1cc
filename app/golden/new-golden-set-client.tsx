"use client";

import { BusyButton } from "@/components/busy-button";
import { SectionOptions } from "@/components/select-options";
import { useState, useTransition } from "react";
import { createGoldenSetAction } from "./actions";
import { ActionForm } from "@/components/action-form";
import { LabelledField } from "@/components/labelled-field";

/** Name a new set and its collection; the set's page opens to add questions. */
export function NewGoldenSetClient({ sections }: { sections: { slug: string; name: string }[] }) {
  const [name, setName] = useState("");
  const [sectionSlug, setSectionSlug] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <ActionForm
      aria-label="New golden set"
      className="flex flex-wrap items-end gap-3"
      busy={pending}
      onSubmit={() => {
        startTransition(async () => {
          setError(null);
          const result = await createGoldenSetAction({ name, sectionSlug: sectionSlug || undefined });
          if (result?.status === "error") setError(result.message);
        });
      }}
    >
      <LabelledField className="min-w-64 flex-1" htmlFor="golden-name" label="Name of a new set">
        <input id="golden-name" className="field-input" value={name} onChange={(event) => setName(event.target.value)} />
      </LabelledField>
      <LabelledField htmlFor="golden-section" label="Collection">
        <select id="golden-section" className="field-input" value={sectionSlug} onChange={(event) => setSectionSlug(event.target.value)}>
          <option value="">Every section</option>
          <SectionOptions sections={sections} />
        </select>
      </LabelledField>
      <BusyButton type="submit" className="btn btn-primary" busy={pending}>
        Create set
      </BusyButton>
      {error && (
        <div role="alert" className="notice-error w-full">
          {error}
        </div>
      )}
    </ActionForm>
  );
}
