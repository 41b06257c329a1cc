"use client";

import { BusyButton } from "@/components/busy-button";
import { useRouter } from "next/navigation";
import { ActionFeedback } from "@/components/action-feedback";
import { useState, useTransition } from "react";
import { proposeForUncataloguedAction } from "@/app/objects/actions";

/** Stores proposals for the next batch of uncatalogued objects, saying what it did. */
export function ProposeClient({ sectionSlug }: { sectionSlug?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  return (
    <div>
      <BusyButton
        type="button"
        className="btn btn-primary"
        busy={pending}
        onClick={() =>
          startTransition(async () => {
            setMessage(null);
            const result = await proposeForUncataloguedAction({ sectionSlug });
            if (result.status === "error") {
              setMessage({ kind: "error", text: result.message });
              return;
            }
            const { examined, proposed, remaining } = result.data;
            setMessage({
              kind: "ok",
              text:
                examined === 0
                  ? "Every object you edit is catalogued or already has a pending proposal."
                  : `Examined ${examined} object${examined === 1 ? "" : "s"}, stored ${proposed} proposal${proposed === 1 ? "" : "s"}${remaining ? `; ${remaining} more objects wait — run again` : ""}.`,
            });
            router.refresh();
          })
        }
      >
        {pending ? "Comparing objects…" : "Propose for uncatalogued objects"}
      </BusyButton>
      <ActionFeedback message={message} spacing="mt-2" />
    </div>
  );
}
