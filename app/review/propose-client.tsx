"use client";

import { ActionButton } from "@/components/action-button";
import { proposeForUncataloguedAction } from "@/app/objects/actions";

/** Stores proposals for the next batch of uncatalogued objects, saying what it did. */
export function ProposeClient({ sectionSlug }: { sectionSlug?: string }) {
  return (
    <ActionButton
      className="btn btn-primary"
      spacing="mt-2"
      action={() => proposeForUncataloguedAction({ sectionSlug })}
      done={({ examined, proposed, remaining }) =>
        examined === 0
          ? "Every object you edit is catalogued or already has a pending proposal."
          : `Examined ${examined} object${examined === 1 ? "" : "s"}, stored ${proposed} proposal${proposed === 1 ? "" : "s"}${remaining ? `; ${remaining} more objects wait — run again` : ""}.`
      }
    >
      {(pending) => (pending ? "Comparing objects…" : "Propose for uncatalogued objects")}
    </ActionButton>
  );
}
