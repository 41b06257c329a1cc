"use client";

import { useRouter } from "next/navigation";
import { BusyButton } from "@/components/busy-button";
import { useState, useTransition } from "react";
import { setAskThresholdsAction } from "./actions";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { FieldErrors } from "@/components/field-errors";
import { ActionForm } from "@/components/action-form";

type Thresholds = { minSimilarity: number; strongSimilarity: number; minTermCoverage: number };

/** The three evidence thresholds; "Use the suggestion" fills the minimum from the distribution. */
export function ThresholdsFormClient({ current, suggested }: { current: Thresholds; suggested: number | null }) {
  const router = useRouter();
  const [values, setValues] = useState({ minSimilarity: String(current.minSimilarity), strongSimilarity: String(current.strongSimilarity), minTermCoverage: String(current.minTermCoverage) });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<ActionMessage>(null);
  const [pending, startTransition] = useTransition();
  const fields = [
    ["minSimilarity", "Minimum similarity (with enough of the question’s words)"],
    ["strongSimilarity", "Strong similarity (enough on its own)"],
    ["minTermCoverage", "Share of the question’s words at the minimum"],
  ] as const;
  return (
    <ActionForm
      aria-label="Thresholds"
      className="mt-2 max-w-2xl space-y-3"
      busy={pending}
      onSubmit={() => {
        startTransition(async () => {
          setMessage(null);
          setErrors({});
          const result = await setAskThresholdsAction({ minSimilarity: Number(values.minSimilarity), strongSimilarity: Number(values.strongSimilarity), minTermCoverage: Number(values.minTermCoverage) });
          if (result.status === "ok") {
            setMessage({ kind: "ok", text: "Saved; the next question uses these thresholds." });
            router.refresh();
          } else {
            setErrors(result.fieldErrors ?? {});
            setMessage({ kind: "error", text: result.message });
          }
        });
      }}
    >
      {fields.map(([key, label]) => (
        <div key={key}>
          <label htmlFor={`threshold-${key}`} className="field-label">
            {label}
          </label>
          <input id={`threshold-${key}`} className="field-input w-40" inputMode="decimal" value={values[key]} aria-invalid={errors[key] ? true : undefined} onChange={(event) => setValues({ ...values, [key]: event.target.value })} />
          <FieldErrors messages={errors[key]} />
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-2">
        {suggested !== null && (
          <button type="button" className="btn" onClick={() => setValues({ ...values, minSimilarity: suggested.toFixed(2) })}>
            Use the suggestion ({suggested.toFixed(2)})
          </button>
        )}
        <BusyButton type="submit" className="btn btn-primary" busy={pending}>
          Save thresholds
        </BusyButton>
      </div>
      <ActionFeedback message={message} />
    </ActionForm>
  );
}
