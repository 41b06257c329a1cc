"use client";

import { BusyButton } from "@/components/busy-button";
import { useServerAction } from "@/components/use-server-action";
import { proposeForUncataloguedAction } from "@/app/objects/actions";

/** Stores proposals for the next batch of uncatalogued objects, saying what it did. */
export function ProposeClient({ sectionSlug }: { sectionSlug?: string }) {
  const { pending, run, feedback } = useServerAction({ spacing: "mt-2" });
  return (
    <div>
      <BusyButton
        type="button"
        className="btn btn-primary"
        busy={pending}
        onClick={() =>
          run(
            () => proposeForUncataloguedAction({ sectionSlug }),
            ({ examined, proposed, remaining }) =>
              examined === 0
                ? "Every object you edit is catalogued or already has a pending proposal."
                : `Examined ${examined} object${examined === 1 ? "" : "s"}, stored ${proposed} proposal${proposed === 1 ? "" : "s"}${remaining ? `; ${remaining} more objects wait — run again` : ""}.`,
          )
        }
      >
        {pending ? "Comparing objects…" : "Propose for uncatalogued objects"}
      </BusyButton>
      {feedback}
    </div>
  );
}
