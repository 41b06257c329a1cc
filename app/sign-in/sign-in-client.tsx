"use client";

import { SubmitButton } from "@/components/busy-button";
import { useActionState } from "react";
import { signInWithPassword } from "./actions";
import { LabelledField } from "@/components/labelled-field";

export function SignInClient({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [state, formAction, pending] = useActionState(signInWithPassword, { error: initialError });
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {state.error && (
        <p role="alert" className="notice-error">
          {state.error}
        </p>
      )}
      <LabelledField htmlFor="email" label="Email">
        <input id="email" name="email" type="email" autoComplete="username" required defaultValue={state.email} className="field-input" />
      </LabelledField>
      <LabelledField htmlFor="password" label="Password">
        <input id="password" name="password" type="password" autoComplete="current-password" required className="field-input" />
      </LabelledField>
      <SubmitButton className="btn btn-primary w-full" busy={pending} busyLabel="Signing in…">
        Sign in
      </SubmitButton>
    </form>
  );
}
