"use server";

import { z } from "zod";
import { speechToTextFromConfig } from "@/lib/archive/speech-to-text";
import { applyTranscriptDraft, dismissTranscriptDraft, requestTranscription } from "@/lib/archive/transcript-drafts";
import { authorizedAction } from "@/lib/http/authorized";

/** The record editor's transcript drafts: use one, dismiss one, ask the speech model again. */

const draftInput = z.object({ draftId: z.string().max(64) });

export const applyTranscriptDraftAction = authorizedAction(draftInput, async (input, { principal, runtime }) =>
  applyTranscriptDraft(runtime.database.prisma, principal, input),
);

export const dismissTranscriptDraftAction = authorizedAction(draftInput, async (input, { principal, runtime }) => {
  await dismissTranscriptDraft(runtime.database.prisma, principal, input);
  return null;
});

export const requestTranscriptionAction = authorizedAction(
  z.object({ recordId: z.string().max(64), fieldKey: z.string().max(64) }),
  async (input, { principal, runtime }) => requestTranscription(runtime.database.prisma, principal, input, speechToTextFromConfig(runtime.config)),
);
