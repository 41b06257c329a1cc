import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { isAppError, notFound, parseInput } from "../errors";
import { storableTextIssues } from "../storable-text";
import { type CitationFormat, type CitationItem, citationFiles, citationFormats, citationItem, maxCitedRecords } from "./citation-formats";
import { getRecord } from "./get-record";

export { maxCitedRecords } from "./citation-formats";

const formatSchema = z.enum(citationFormats, { error: `Choose a format: ${citationFormats.join(", ")}.` });
const secondsSchema = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.coerce
    .number({ error: "The cited moment (t) must be a number of seconds." })
    .min(0, "The cited moment (t) must be 0 seconds or later.")
    .max(10 * 24 * 3600, "The cited moment (t) must be within 10 days of the start.")
    .optional(),
);

/** `?format=ris|bibtex|csl-json[&t=seconds]` of one record's citation. */
export const citeRecordQuerySchema = z.object({ format: formatSchema, t: secondsSchema }).superRefine(storableTextIssues);

/**
 * `?format=…&ids=<id>,<id>…` (or `ids` repeated) of a selection's citations; `<id>@<seconds>`
 * cites a recording at a moment (an answer's citations of a testimony name theirs).
 */
export const citeSelectionQuerySchema = z
  .object({
    format: formatSchema,
    ids: z
      .array(z.string().trim())
      .transform((ids) => [
        ...new Set(
          ids
            .flatMap((id) => id.split(","))
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.string()).min(1, "Name at least one record in ids.").max(maxCitedRecords, `Cite at most ${maxCitedRecords} records at once.`)),
  })
  .superRefine(storableTextIssues);

export interface CitationFile {
  body: string;
  fileName: string;
  contentType: string;
  /** Asked-for ids that are not there for this reader: missing and unreadable alike. */
  notFound: string[];
}

function file(format: CitationFormat, items: CitationItem[], name: string, notFoundIds: string[] = []): CitationFile {
  const { write, contentType, extension } = citationFiles[format];
  return { body: write(items), fileName: `${name}.${extension}`, contentType, notFound: notFoundIds };
}

/**
 * One record's citation in a format. The record is read as its page reads it (getRecord): an
 * unreadable record, a missing one and a malformed id are the same not_found.
 */
export async function citeRecord(prisma: PrismaClient, principal: Principal, options: { id: string; query: unknown; origin: string }): Promise<CitationFile> {
  const query = parseInput(citeRecordQuerySchema, options.query);
  const record = await getRecord(prisma, principal, options.id);
  const item = citationItem(record, { origin: options.origin, seconds: query.t });
  return file(query.format, [item], `record-${record.id.slice(0, 8)}${item.seconds === undefined ? "" : `-t${item.seconds}`}`);
}

/**
 * A selection's citations in one file, in the order asked. Ids that are not there for this reader
 * — missing, unreadable or malformed, never told apart — are named in `notFound`; when none is
 * left, the whole request is the same not_found as a missing record.
 */
export async function citeRecords(prisma: PrismaClient, principal: Principal, options: { query: unknown; origin: string }): Promise<CitationFile> {
  const query = parseInput(citeSelectionQuerySchema, options.query);
  const items: CitationItem[] = [];
  const notFoundIds: string[] = [];
  for (const entry of query.ids) {
    const moment = /^(.+)@(\d{1,7}(?:\.\d+)?)$/.exec(entry);
    const id = moment ? moment[1]! : entry;
    try {
      items.push(citationItem(await getRecord(prisma, principal, id), { origin: options.origin, seconds: moment ? Number(moment[2]) : undefined }));
    } catch (error) {
      if (!isAppError(error) || error.code !== "not_found") throw error;
      notFoundIds.push(entry);
    }
  }
  if (items.length === 0) throw notFound();
  return file(query.format, items, `records-${items.length}`, notFoundIds);
}
