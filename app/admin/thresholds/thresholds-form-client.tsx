"use client";

import { BusyButton } from "@/components/busy-button";
import { useState } from "react";
import { useServerAction } from "@/components/use-server-action";
import { setAskThresholdsAction } from "./actions";
import { ActionForm } from "@/components/action-form";
import { TextField } from "@/components/text-field";

type Thresholds = { minSimilarity: number; strongSimilarity: number; minTermCoverage: number };

/** The three evidence thresholds; "Use the suggestion" fills the minimum from the distribution. */
export function ThresholdsFormClient({ current, suggested }: { current: Thresholds; suggested: number | null }) {
  const [values, setValues] = useState({
    minSimilarity: String(current.minSimilarity),
    strongSimilarity: String(current.strongSimilarity),
    minTermCoverage: String(current.minTermCoverage),
  });
  const { pending, run, feedback, fieldErrors: errors } = useServerAction();
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
      onSubmit={() =>
        run(
          () =>
            setAskThresholdsAction({
              minSimilarity: Number(values.minSimilarity),
              strongSimilarity: Number(values.strongSimilarity),
              minTermCoverage: Number(values.minTermCoverage),
            }),
          "Saved; the next question uses these thresholds.",
        )
      }
    >
      {fields.map(([key, label]) => (
        <TextField
          key={key}
          id={`threshold-${key}`}
          label={label}
          className="field-input w-40"
          inputMode="decimal"
          value={values[key]}
          errors={errors[key]}
          onValueChange={(value) => setValues({ ...values, [key]: value })}
        />
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
      {feedback}
    </ActionForm>
  );
}
