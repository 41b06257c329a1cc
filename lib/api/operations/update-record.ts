import "server-only";
import { z } from "zod";
import { updateRecordFields } from "../../archive/edit-record";
import { writeRecordOutput } from "../api-schemas";
import { auditDetailsOf, recordIdInput, recordValuesInput, versionInput } from "./inputs";
import { defineOperation } from "./operation";

export const updateRecordOperation = defineOperation({
  name: "update_record",
  title: "Update a record's fields",
  description:
    "Sets the fields named in `values` (null clears one; fields not named keep their values) of a record you may edit, with the version you read, through the same save as the record editor. " +
    "A stale version is refused with 409 (read the record again); a key that is not a field of the section, or a value the field does not take, with 400; a record you may not read is not found (404), one you may read but not edit refused (403). " +
    "Links to records you cannot read are kept. Needs a token with the write scope.",
  method: "PATCH",
  path: "/records/{recordId}",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    version: versionInput,
    values: recordValuesInput.refine((values) => Object.keys(values).length > 0, "Name at least one field to change."),
  }),
  output: writeRecordOutput,
  cost: 1,
  scope: "write",
  writeHints: { idempotent: false, destructive: true },
  async run(input, context) {
    const { runtime, principal } = context;
    const saved = await updateRecordFields(runtime.prisma, principal, { ...input, auditDetails: auditDetailsOf(context) }, runtime.media.storageDir);
    return { ...saved, url: `${context.origin}/records/${saved.id}` };
  },
});
