import "server-only";
import { z } from "zod";
import { characteriseObject } from "../../rag/objects/characterise";
import { characterizeObjectOutput } from "../api-schemas";
import { recordIdInput } from "./inputs";
import { defineOperation } from "./operation";

export const characterizeObjectOperation = defineOperation({
  name: "characterize_object",
  title: "Propose typology, material, period and date",
  description:
    "Proposals for an object's typology, material, period and date, aggregated from its most similar catalogued neighbours, each with its confidence, the votes and the supporting objects. Read-only: nothing is stored.",
  method: "GET",
  path: "/objects/{recordId}/characterization",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    mode: z.enum(["hybrid", "visual"]).default("hybrid").describe("hybrid (images and catalogue context, default) or visual (images only)."),
  }),
  output: characterizeObjectOutput,
  cost: 2,
  scope: "read",
  async run(input, context) {
    const result = await characteriseObject(await context.runtime.objects(), context.principal, { recordId: input.recordId, mode: input.mode });
    return {
      recordId: result.subject.recordId,
      status: result.status,
      mode: result.mode,
      usedContext: result.usedContext,
      proposals: result.roles.map((role) => ({
        role: role.role,
        field: role.fieldKey,
        fieldLabel: role.fieldLabel,
        current: role.current,
        value: role.categorical?.value ?? null,
        date: role.date ? { earliest: role.date.earliest, latest: role.date.latest, central: role.date.central } : null,
        confidence: role.categorical?.confidence ?? role.date?.confidence ?? null,
        votes: (role.categorical?.votes ?? []).map((vote) => ({ value: vote.value, share: vote.share, voters: vote.voters })),
        voters: role.categorical?.voters ?? role.date?.voters ?? 0,
        supporting: role.support.map((neighbour) => ({
          recordId: neighbour.recordId,
          title: neighbour.title,
          url: `${context.origin}/records/${neighbour.recordId}`,
        })),
      })),
    };
  },
});
