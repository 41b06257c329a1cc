import "server-only";
import { z } from "zod";
import { linkRecord, unlinkRecord } from "../../archive/edit-record";
import { writeRecordOutput } from "../api-schemas";
import { auditDetailsOf, id, recordIdInput, versionInput } from "./inputs";
import { defineOperation } from "./operation";

const linkInput = z.strictObject({
  recordId: recordIdInput,
  version: versionInput,
  field: id.describe("The relation field's key (see read_record's `fields`)."),
  targetId: id.describe("The linked record's id."),
});

export const linkRecordOperation = defineOperation({
  name: "link_record",
  title: "Link a record to another",
  description:
    "Links a record you may edit to another record you may read through one of its relation fields (added to a multiple relation, replacing a single one's value), with the version you read, through the same save as the record editor. " +
    "The target must be a record of the field's target section; one you may not read is refused like one that does not exist. Already linked: nothing changes (changed: false). Needs a token with the write scope.",
  method: "POST",
  path: "/records/{recordId}/link",
  pathParams: ["recordId"],
  input: linkInput,
  output: writeRecordOutput,
  cost: 1,
  scope: "write",
  writeHints: { idempotent: true, destructive: false },
  async run(input, context) {
    const saved = await linkRecord(context.runtime.prisma, context.principal, { ...input, auditDetails: auditDetailsOf(context) });
    return { ...saved, url: `${context.origin}/records/${saved.id}` };
  },
});

export const unlinkRecordOperation = defineOperation({
  name: "unlink_record",
  title: "Unlink a record from another",
  description:
    "Removes the link from a record you may edit to another record through one of its relation fields, with the version you read, through the same save as the record editor. " +
    "A target the field does not link to is refused (400). Needs a token with the write scope.",
  method: "POST",
  path: "/records/{recordId}/unlink",
  pathParams: ["recordId"],
  input: linkInput,
  output: writeRecordOutput,
  cost: 1,
  scope: "write",
  writeHints: { idempotent: false, destructive: true },
  async run(input, context) {
    const saved = await unlinkRecord(context.runtime.prisma, context.principal, { ...input, auditDetails: auditDetailsOf(context) });
    return { ...saved, url: `${context.origin}/records/${saved.id}` };
  },
});
