"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { BusyButton } from "@/components/busy-button";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { ActionForm } from "@/components/action-form";
import { setSectionDcMappingAction } from "./actions";

type Mapping = Partial<Record<string, string[]>>;

/**
 * Which fields give which Dublin Core element when the section's public records are harvested
 * over OAI-PMH: one checkbox per (element, field). Saving stores the mapping; "Use the default"
 * returns to the one derived from the field types.
 */
export function DcMappingClient({
  sectionSlug,
  elements,
  fields,
  mapping,
  custom,
}: {
  sectionSlug: string;
  elements: readonly string[];
  fields: { key: string; label: string; type: string }[];
  mapping: Mapping;
  custom: boolean;
}) {
  const router = useRouter();
  const [current, setCurrent] = useState<Mapping>(mapping);
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<ActionMessage>(null);
  const toggle = (element: string, key: string) =>
    setCurrent((before) => {
      const keys = before[element] ?? [];
      return { ...before, [element]: keys.includes(key) ? keys.filter((item) => item !== key) : [...keys, key] };
    });
  const save = (next: Mapping | null) =>
    startTransition(async () => {
      const result = await setSectionDcMappingAction({ sectionSlug, mapping: next });
      if (result.status === "ok") {
        setMessage({ kind: "ok", text: next === null ? "Back to the default mapping." : "Saved; harvesters get the new mapping from their next request." });
        router.refresh();
      } else setMessage({ kind: "error", text: [result.message, ...Object.values(result.fieldErrors ?? {}).flat()].join(" ") });
    });
  return (
    <ActionForm className="mt-2" busy={pending} onSubmit={() => save(current)}>
      <p className="text-sm text-stone-600">
        {custom ? "An admin set this mapping." : "This is the default, derived from the field types."} Every record also gets dc:identifier (its URL), dc:type
        (this section), dc:source (its project) and, when no field gives one, dc:title (its title). Relations name only records of public projects.
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="text-sm" data-testid="dc-mapping">
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1 text-left">
                Field
              </th>
              {elements.map((element) => (
                <th key={element} scope="col" className="px-1 py-1 text-left font-mono text-xs">
                  {element}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => (
              <tr key={field.key} className="border-t border-stone-100">
                <th scope="row" className="px-2 py-1 text-left font-normal">
                  {field.label} <span className="text-stone-500">({field.type})</span>
                </th>
                {elements.map((element) => (
                  <td key={element} className="px-1 py-1 text-center">
                    <input
                      type="checkbox"
                      aria-label={`${field.label} as dc:${element}`}
                      checked={(current[element] ?? []).includes(field.key)}
                      onChange={() => toggle(element, field.key)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-2 flex items-center gap-3">
        <BusyButton type="submit" className="btn btn-primary" busy={pending}>
          Save mapping
        </BusyButton>
        {custom && (
          <button type="button" className="btn" disabled={pending} onClick={() => save(null)}>
            Use the default
          </button>
        )}
      </div>
      <ActionFeedback message={message} spacing="mt-2" />
    </ActionForm>
  );
}
