import "server-only";
import { z } from "zod";
import { createRecord } from "../../archive/edit-record";
import { writeRecordOutput } from "../api-schemas";
import { auditDetailsOf, id, projectIdsOf, recordValuesInput } from "./inputs";
import { defineOperation } from "./operation";

export const createRecordOperation = defineOperation({
  name: "create_record",
  title: "Create a record",
  description:
    "Creates a record in a section of a project you may edit, through the same save as the record editor: every field validated, relations checked against what you may read, indexed by the background worker, audited. " +
    "A project you may not read is not found (404); one you may read but not edit is refused (403). Answers the new record's id and version. Needs a token with the write scope.",
  method: "POST",
  path: "/records",
  pathParams: [],
  input: z.strictObject({
    sectionSlug: id.describe("The section (see list_sections)."),
    projectId: id.describe("The project the record belongs to (its id or slug); one you may edit."),
    values: recordValuesInput,
  }),
  output: writeRecordOutput,
  cost: 1,
  scope: "write",
  writeHints: { idempotent: false, destructive: false },
  async run(input, context) {
    const [projectId] = (await projectIdsOf(context.runtime.prisma, context.principal, [input.projectId]))!;
    const saved = await createRecord(context.runtime.prisma, context.principal, { ...input, projectId: projectId!, auditDetails: auditDetailsOf(context) });
    return { ...saved, url: `${context.origin}/records/${saved.id}` };
  },
});
