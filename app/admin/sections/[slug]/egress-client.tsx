"use client";

import { useRouter } from "next/navigation";
import { BusyButton } from "@/components/busy-button";
import { useState, useTransition } from "react";
import { setSectionEgressAction } from "./actions";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { ActionForm } from "@/components/action-form";

/** The section's egress policy, with what each choice means said before saving. */
export function EgressClient({
  sectionSlug,
  current,
  statements,
}: {
  sectionSlug: string;
  current: "local_only" | "allow_external";
  statements: Record<"local_only" | "allow_external", string>;
}) {
  const router = useRouter();
  const [policy, setPolicy] = useState(current);
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<ActionMessage>(null);
  return (
    <ActionForm
      className="mt-2"
      busy={pending}
      onSubmit={() => {
        startTransition(async () => {
          const result = await setSectionEgressAction({ sectionSlug, policy });
          if (result.status === "ok") {
            setMessage({ kind: "ok", text: "Saved; the section is re-queued so external vectors follow the new policy." });
            router.refresh();
          } else setMessage({ kind: "error", text: result.message });
        });
      }}
    >
      <fieldset className="space-y-2">
        <legend className="sr-only">Egress policy</legend>
        {(["local_only", "allow_external"] as const).map((value) => (
          <label key={value} className="flex items-start gap-2 text-sm">
            <input type="radio" name="egress" value={value} checked={policy === value} onChange={() => setPolicy(value)} className="mt-1" />
            <span>
              <span className="font-medium">{value === "local_only" ? "Local only" : "Allow external providers"}</span>
              <span className="block text-stone-600">{statements[value]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="mt-2 flex items-center gap-3">
        <BusyButton type="submit" className="btn" busy={pending} disabled={policy === current}>
          Save policy
        </BusyButton>
      </div>
      <ActionFeedback message={message} spacing="mt-2" />
    </ActionForm>
  );
}
