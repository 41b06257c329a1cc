import "server-only";
import { z } from "zod";
import { changesBetween, readRecordHistory } from "../../archive/record-history";
import { saveChannels } from "../../db/record-versions";
import { limitInput, recordIdInput } from "./inputs";
import { defineOperation } from "./operation";

const readRecordHistoryOutput = z.object({
  recordId: z.string(),
  version: z.number().int().describe("The record's current version (what update_record needs)."),
  versions: z
    .array(
      z.object({
        version: z.number().int(),
        savedAt: z.string(),
        savedBy: z.object({ id: z.string(), name: z.string() }).nullable().describe("The person who saved; null for the system, or before history was kept."),
        via: z
          .enum(saveChannels)
          .describe(
            "Through what: form (the web editor), api or mcp (with the token), proposal (a curator's decision on a proposed value), version-restore, import (a bulk import job), bulk-load (a trusted loader), project-restore (a backup restored), earlier (saved before history was kept).",
          ),
        apiToken: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
        importJobId: z.string().nullable(),
        restoredFrom: z.number().int().nullable().describe("The version a version-restore brought back."),
        title: z.string(),
        project: z.object({ id: z.string(), name: z.string() }),
        values: z
          .record(z.string(), z.unknown())
          .describe("The values this save left, as read_record shows values: relations only to records you may read now."),
        changedFields: z
          .array(z.string())
          .nullable()
          .describe("Field keys that differ from the next older version you can see; null for the oldest you can see."),
      }),
    )
    .describe("Newest first. Versions saved while the record was in a project you cannot read are left out."),
  nextBefore: z.number().int().nullable().describe("More, older versions: call again with before set to this."),
});

export const readRecordHistoryOperation = defineOperation({
  name: "read_record_history",
  title: "Read a record's history",
  description:
    "The saved versions of a record you may read, newest first: when, by whom and through what (the web form, an API or MCP token, an import, a proposal decision, a restore), the values each save left, and which fields it changed. Use it to see what an agent changed; a curator restores a version on the record's page.",
  method: "GET",
  path: "/records/{recordId}/history",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    limit: limitInput(20, 100),
    before: z.coerce
      .number()
      .int("before is a version number.")
      .min(2, "before is a version number above 1.")
      .max(2_147_483_647, "before is not a valid version.")
      .optional()
      .describe("Only versions older than this one (the previous call's nextBefore)."),
  }),
  output: readRecordHistoryOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    // One more than shown, so the oldest shown can say what it changed.
    const history = await readRecordHistory(context.runtime.prisma, context.principal, input.recordId, { limit: input.limit + 1, before: input.before });
    const shown = history.versions.slice(0, input.limit);
    const olderOf = (index: number) => history.versions[index + 1] ?? null;
    return {
      recordId: history.record.id,
      version: history.record.version,
      versions: shown.map((version, index) => {
        const older = olderOf(index);
        return {
          version: version.version,
          savedAt: version.savedAt.toISOString(),
          savedBy: version.savedBy,
          via: version.via,
          apiToken: version.apiToken,
          importJobId: version.importJobId,
          restoredFrom: version.restoredFrom,
          title: version.title,
          project: version.project,
          values: version.values,
          changedFields: older ? changesBetween(history.record.fields, older.values, version.values).map((change) => change.key) : null,
        };
      }),
      nextBefore: history.versions.length > input.limit ? (shown.at(-1)?.version ?? null) : null,
    };
  },
});
