"use client";

import { BusyButton } from "@/components/busy-button";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { type ActionMessage, ActionFeedback } from "@/components/action-feedback";
import { createApiTokenAction, revokeApiTokenAction } from "./actions";
import { FieldErrors } from "@/components/field-errors";
import { type ApiTokenScope, maxTokenNameLength } from "@/lib/auth/api-token-limits";
import { ActionForm } from "@/components/action-form";
import { ActionButton } from "@/components/action-button";
import { LabelledField } from "@/components/labelled-field";

/** Create a token (its secret is shown here once) and revoke tokens. Write access is offered only to someone who may edit some project. */
export function NewTokenClient({ writeOffered }: { writeOffered: boolean }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [days, setDays] = useState("30");
  const [access, setAccess] = useState<"read" | "write">("read");
  const [secret, setSecret] = useState<{ token: string; name: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<ActionMessage>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div>
      <ActionForm
        aria-label="New token"
        className="flex flex-wrap items-end gap-3"
        onSubmit={() => {
          startTransition(async () => {
            setMessage(null);
            setErrors({});
            const scopes: ApiTokenScope[] = access === "write" ? ["read", "write"] : ["read"];
            const result = await createApiTokenAction({ name, expiresInDays: Number(days), scopes });
            if (result.status === "ok") {
              setSecret(result.data);
              setName("");
              setAccess("read");
              router.refresh();
            } else {
              setErrors(result.fieldErrors ?? {});
              setMessage({ kind: "error", text: result.message });
            }
          });
        }}
      >
        <LabelledField className="min-w-64 flex-1" htmlFor="token-name" label="Token name">
          <input
            id="token-name"
            className="field-input"
            value={name}
            maxLength={maxTokenNameLength}
            placeholder="e.g. Zotero plugin"
            aria-invalid={errors.name ? true : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          <FieldErrors messages={errors.name} />
        </LabelledField>
        <LabelledField htmlFor="token-days" label="Expires after">
          <select id="token-days" className="field-input" value={days} onChange={(event) => setDays(event.target.value)}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">a year</option>
          </select>
        </LabelledField>
        {writeOffered && (
          <LabelledField htmlFor="token-access" label="Access">
            <select
              id="token-access"
              className="field-input"
              value={access}
              aria-describedby="token-access-help"
              onChange={(event) => setAccess(event.target.value === "write" ? "write" : "read")}
            >
              <option value="read">Read</option>
              <option value="write">Read and write</option>
            </select>
            <FieldErrors messages={errors.scopes} />
          </LabelledField>
        )}
        <BusyButton type="submit" className="btn btn-primary" busy={pending}>
          Create token
        </BusyButton>
        <p id="token-access-help" className="basis-full text-sm text-stone-600">
          {writeOffered
            ? "Read: search, passages, answers and records. Read and write also lets the token import, create and change records, links and files, and propose values — in the projects you may edit. Choose read unless the tool must write."
            : "The token reads: search, passages, answers and records you may see."}
        </p>
      </ActionForm>
      <ActionFeedback message={message} spacing="mt-2" />
      {secret && (
        <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" role="status">
          <p className="font-medium text-amber-950">Copy the token for “{secret.name}” now: it is not shown again.</p>
          <code className="mt-2 block break-all rounded bg-white p-2 text-xs" data-testid="new-token">
            {secret.token}
          </code>
        </div>
      )}
    </div>
  );
}

export function RevokeTokenClient({ id, name }: { id: string; name: string }) {
  // Success needs no words: the refreshed list no longer shows the token.
  return (
    <ActionButton className="btn" confirm={`Revoke “${name}”? Tools using it stop working at once.`} action={() => revokeApiTokenAction({ id })} done="">
      Revoke
    </ActionButton>
  );
}
