"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/action-result";
import type { FieldErrors } from "@/lib/errors";
import { type ActionMessage, ActionFeedback } from "./action-feedback";

/**
 * Runs a server action from a control and says what it did: one action at a time (the controls
 * say so with aria-disabled but stay focusable), the outcome announced by `feedback`, a failed
 * form's problems per field in `fieldErrors`, and the page's server data refreshed after success.
 */
export function useServerAction({ spacing = "mt-1" }: { spacing?: string } = {}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<(NonNullable<ActionMessage> & { fieldErrors?: FieldErrors }) | null>(null);
  const run = <T,>(action: () => Promise<ActionResult<T>>, done: string | ((data: T) => string), onDone?: (data: T) => void) => {
    if (pending) return;
    startTransition(async () => {
      setMessage(null);
      const result = await action();
      if (result.status === "ok") {
        setMessage({ kind: "ok", text: typeof done === "string" ? done : done(result.data) });
        onDone?.(result.data);
        router.refresh();
      } else setMessage({ kind: "error", text: result.message, fieldErrors: result.fieldErrors });
    });
  };
  const feedback = <ActionFeedback message={message} spacing={spacing} />;
  return { pending, run, feedback, fieldErrors: message?.kind === "error" ? (message.fieldErrors ?? {}) : {} };
}
