"use client";

import { useRouter } from "next/navigation";
import { BusyButton, SubmitButton } from "@/components/busy-button";
import { useState, useTransition } from "react";
import { saveObjectContextAction } from "./actions";
import type { ObjectContext } from "@/lib/rag/config/object-context";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { FieldErrors } from "@/components/field-errors";
import { ActionForm } from "@/components/action-form";
import { LabelledField } from "@/components/labelled-field";

type FieldOption = { key: string; label: string; type: string; view?: string };
const roleFieldTypes = { typology: ["category", "text"], material: ["category", "text"], period: ["category", "text"], date: ["daterange"] } as const;
type Role = keyof typeof roleFieldTypes;
const roleLabels: Record<Role, string> = { typology: "Typology", material: "Material", period: "Period", date: "Date (range)" };

/** The object-context form: every problem the server finds is shown next to its control. */
export function ObjectContextFormClient(props: {
  sectionSlug: string;
  fields: FieldOption[];
  sections: { slug: string; name: string; isObject: boolean }[];
  initial: ObjectContext | null;
  defaults: { nearDuplicateFloor: number; proposalContextWeight: number };
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const imageFields = props.fields.filter((field) => field.type === "image");
  const [images, setImages] = useState<Record<string, { on: boolean; view: string }>>(() =>
    Object.fromEntries(
      imageFields.map((field) => {
        const chosen = props.initial?.images.find((image) => image.field === field.key);
        return [field.key, { on: props.initial ? Boolean(chosen) : true, view: chosen?.view ?? field.view ?? field.key }];
      }),
    ),
  );
  const [roles, setRoles] = useState<Record<Role, string>>(() => ({
    typology: props.initial?.roles.typology ?? "",
    material: props.initial?.roles.material ?? "",
    period: props.initial?.roles.period ?? "",
    date: props.initial?.roles.date ?? "",
  }));
  const [compareWith, setCompareWith] = useState<string[]>(props.initial?.compareWith ?? [props.sectionSlug]);
  const [floor, setFloor] = useState(props.initial?.nearDuplicateFloor?.toString() ?? "");
  const [weight, setWeight] = useState(props.initial?.proposalContextWeight?.toString() ?? "");
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<ActionMessage>(null);

  const submit = (context: unknown) => {
    if (pending) return;
    startTransition(async () => {
      setMessage(null);
      setErrors({});
      const result = await saveObjectContextAction({ sectionSlug: props.sectionSlug, context });
      if (result.status === "ok") {
        setMessage({ kind: "ok", text: result.data.cleared ? "Object context removed." : `Saved; ${result.data.queued} records queued for indexing.` });
        router.refresh();
      } else {
        setErrors(result.fieldErrors ?? {});
        setMessage({ kind: "error", text: result.message });
      }
    });
  };

  const build = () => {
    const number = (text: string) => (text.trim() === "" ? undefined : Number(text));
    return {
      images: imageFields.filter((field) => images[field.key]?.on).map((field) => ({ field: field.key, view: images[field.key]?.view ?? "" })),
      roles: Object.fromEntries(Object.entries(roles).filter(([, key]) => key !== "")),
      compareWith,
      ...(number(floor) !== undefined ? { nearDuplicateFloor: number(floor) } : {}),
      ...(number(weight) !== undefined ? { proposalContextWeight: number(weight) } : {}),
    };
  };
  const errorFor = (prefix: string) =>
    Object.entries(errors)
      .filter(([path]) => path === prefix || path.startsWith(`${prefix}.`))
      .flatMap(([, list]) => list);

  return (
    <ActionForm className="mt-6 max-w-3xl space-y-8" onSubmit={() => submit(build())}>
      <fieldset>
        <legend className="text-lg font-semibold">Image fields and their views</legend>
        {imageFields.length === 0 && <p className="text-sm text-stone-600">This section has no image field, so its records cannot be compared by image.</p>}
        <div className="mt-2 space-y-2">
          {imageFields.map((field) => (
            <div key={field.key} className="flex flex-wrap items-center gap-3">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={images[field.key]?.on ?? false}
                  onChange={(event) => setImages({ ...images, [field.key]: { view: images[field.key]?.view ?? "", on: event.target.checked } })}
                />
                {field.label}
              </label>
              <label className="text-sm">
                <span className="sr-only">View of {field.label}</span>
                <input
                  className="field-input w-40"
                  value={images[field.key]?.view ?? ""}
                  onChange={(event) => setImages({ ...images, [field.key]: { on: images[field.key]?.on ?? true, view: event.target.value } })}
                  aria-label={`View of ${field.label}`}
                />
              </label>
            </div>
          ))}
        </div>
        {errorFor("images").map((error) => (
          <p key={error} className="field-error">
            {error}
          </p>
        ))}
      </fieldset>

      <fieldset>
        <legend className="text-lg font-semibold">Catalogued roles</legend>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {(Object.keys(roleFieldTypes) as Role[]).map((role) => (
            <LabelledField key={role} className="text-sm" htmlFor={`role-${role}`} label={roleLabels[role]}>
              <select
                id={`role-${role}`}
                className="field-input"
                value={roles[role]}
                onChange={(event) => setRoles({ ...roles, [role]: event.target.value })}
                aria-invalid={errorFor(`roles.${role}`).length > 0 || undefined}
              >
                <option value="">— not catalogued —</option>
                {props.fields
                  .filter((field) => (roleFieldTypes[role] as readonly string[]).includes(field.type))
                  .map((field) => (
                    <option key={field.key} value={field.key}>
                      {field.label}
                    </option>
                  ))}
              </select>
              <FieldErrors messages={errorFor(`roles.${role}`)} />
            </LabelledField>
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend className="text-lg font-semibold">Compare with</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {props.sections
            .filter((section) => section.isObject || section.slug === props.sectionSlug)
            .map((section) => (
              <label key={section.slug} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={compareWith.includes(section.slug)}
                  onChange={(event) =>
                    setCompareWith(event.target.checked ? [...compareWith, section.slug] : compareWith.filter((slug) => slug !== section.slug))
                  }
                />
                {section.name}
              </label>
            ))}
        </div>
        {errorFor("compareWith").map((error) => (
          <p key={error} className="field-error">
            {error}
          </p>
        ))}
      </fieldset>

      <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <legend className="text-lg font-semibold">Tuning</legend>
        <label className="text-sm">
          <span className="field-label">Near-duplicate floor</span>
          <input
            className="field-input"
            inputMode="decimal"
            value={floor}
            placeholder={`default ${props.defaults.nearDuplicateFloor}`}
            onChange={(event) => setFloor(event.target.value)}
          />
          <span className="field-hint block">0.5–1: how similar on every view an object must be to count as a near-duplicate.</span>
          <FieldErrors messages={errorFor("nearDuplicateFloor")} />
        </label>
        <label className="text-sm">
          <span className="field-label">Catalogue context in proposals</span>
          <input
            className="field-input"
            inputMode="decimal"
            value={weight}
            placeholder={`default ${props.defaults.proposalContextWeight}`}
            onChange={(event) => setWeight(event.target.value)}
          />
          <span className="field-hint block">0–2: weight of the object’s other roles against each image view; 0 = images only.</span>
          <FieldErrors messages={errorFor("proposalContextWeight")} />
        </label>
      </fieldset>

      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton className="btn btn-primary" busy={pending} busyLabel="Saving…">
          Save object context
        </SubmitButton>
        {props.initial && (
          <BusyButton type="button" className="btn" busy={pending} onClick={() => submit(null)}>
            Remove object context
          </BusyButton>
        )}
      </div>
      <ActionFeedback message={message} />
    </ActionForm>
  );
}
