"use client";

import { BusyButton } from "@/components/busy-button";
import { TextOptions } from "@/components/select-options";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { decideProposalAction } from "@/app/objects/actions";
import type { ProposalValue } from "@/lib/rag/objects/proposals";
import type { ProposalRole } from "@/lib/rag/config/object-context";
import { maxProposalTextLength } from "@/lib/rag/objects/proposal-limits";
import { ActionForm } from "@/components/action-form";

/**
 * A curator's decision on one role's proposal: accept (writes the proposed value through the
 * normal record save), override with another value, or reject. Errors are announced; on
 * success the page reloads its data so the record and the decision show at once.
 */
export function ProposalDecisionClient(props: {
  recordId: string;
  role: ProposalRole;
  fieldLabel: string;
  proposed: ProposalValue;
  proposedLabel: string;
  /** Category options of the field, for the override; absent for text and date ranges. */
  options?: string[];
  /** False for a flagged vote that contradicts the record: it may be overridden or rejected, not accepted. */
  acceptable?: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [overriding, setOverriding] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [text, setText] = useState(typeof props.proposed === "string" ? props.proposed : "");
  const [from, setFrom] = useState(typeof props.proposed === "object" ? String(props.proposed.from) : "");
  const [to, setTo] = useState(typeof props.proposed === "object" ? String(props.proposed.to) : "");
  const id = useId();
  const isRange = typeof props.proposed === "object";

  const run = (input: Parameters<typeof decideProposalAction>[0], done: string) => {
    setMessage(null);
    startTransition(async () => {
      const result = await decideProposalAction(input);
      if (result.status === "ok") {
        setMessage({ kind: "ok", text: done });
        setOverriding(false);
        router.refresh();
      } else {
        const detail = result.fieldErrors ? Object.values(result.fieldErrors).flat().join(" ") : "";
        setMessage({ kind: "error", text: detail ? `${result.message} ${detail}` : result.message });
      }
    });
  };

  const override = () => {
    if (isRange) {
      const range = { from: Number(from), to: Number(to) };
      if (!Number.isInteger(range.from) || !Number.isInteger(range.to) || from.trim() === "" || to.trim() === "") {
        setMessage({ kind: "error", text: "Give the earliest and latest years as whole numbers (negative before the common era)." });
        return;
      }
      run({ action: "override", recordId: props.recordId, role: props.role, value: range }, `${props.fieldLabel} overridden and saved.`);
    } else {
      if (!text.trim()) {
        setMessage({ kind: "error", text: `Choose a ${props.fieldLabel.toLowerCase()}.` });
        return;
      }
      run({ action: "override", recordId: props.recordId, role: props.role, value: text }, `${props.fieldLabel} set to ${text} and saved.`);
    }
  };

  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2">
        {props.acceptable !== false && (
          <BusyButton
            type="button"
            className="btn btn-primary"
            busy={pending}
            onClick={() =>
              run(
                { action: "accept", recordId: props.recordId, role: props.role, expected: props.proposed },
                `Accepted: ${props.fieldLabel} is now ${props.proposedLabel}.`,
              )
            }
          >
            Accept {props.proposedLabel}
          </BusyButton>
        )}
        <BusyButton
          type="button"
          className="btn"
          busy={pending}
          aria-expanded={overriding}
          aria-controls={`${id}-override`}
          onClick={() => setOverriding((open) => !open)}
        >
          Override…
        </BusyButton>
        <BusyButton
          type="button"
          className="btn"
          busy={pending}
          onClick={() => run({ action: "reject", recordId: props.recordId, role: props.role }, "Proposal rejected; the record is unchanged.")}
        >
          Reject
        </BusyButton>
      </div>
      {overriding && (
        <ActionForm id={`${id}-override`} className="mt-3 flex flex-wrap items-end gap-2" onSubmit={() => override()}>
          {isRange ? (
            <>
              <label className="text-sm">
                Earliest year
                <input className="field-input mt-1 block w-28" inputMode="numeric" value={from} onChange={(event) => setFrom(event.target.value)} />
              </label>
              <label className="text-sm">
                Latest year
                <input className="field-input mt-1 block w-28" inputMode="numeric" value={to} onChange={(event) => setTo(event.target.value)} />
              </label>
            </>
          ) : props.options ? (
            <label className="text-sm">
              {props.fieldLabel}
              <select className="field-input mt-1 block" value={text} onChange={(event) => setText(event.target.value)}>
                <TextOptions values={props.options} />
              </select>
            </label>
          ) : (
            <label className="text-sm">
              {props.fieldLabel}
              <input className="field-input mt-1 block" value={text} maxLength={maxProposalTextLength} onChange={(event) => setText(event.target.value)} />
            </label>
          )}
          <BusyButton type="submit" className="btn btn-primary" busy={pending}>
            Save override
          </BusyButton>
        </ActionForm>
      )}
      <p aria-live="polite" className="mt-2 text-sm">
        {pending ? "Saving…" : message?.kind === "ok" ? <span className="text-emerald-800">{message.text}</span> : null}
      </p>
      {message?.kind === "error" && (
        <div role="alert" className="notice-error mt-2">
          {message.text}
        </div>
      )}
    </div>
  );
}
