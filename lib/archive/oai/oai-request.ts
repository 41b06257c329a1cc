import { z } from "zod";
import { isUuid } from "../../ids";

/**
 * An OAI-PMH 2.0 request, from its keyword arguments (query string or urlencoded body) to a typed
 * request or the protocol's error code. Pure: no database, so every refusal is unit-tested.
 */
export const oaiVerbs = ["Identify", "ListMetadataFormats", "ListSets", "GetRecord", "ListIdentifiers", "ListRecords"] as const;
export type OaiVerb = (typeof oaiVerbs)[number];

export type OaiErrorCode =
  "badVerb" | "badArgument" | "badResumptionToken" | "cannotDisseminateFormat" | "idDoesNotExist" | "noRecordsMatch" | "noMetadataFormats" | "noSetHierarchy";

/** A protocol error: answered inside an OAI-PMH response (HTTP 200, as the protocol requires). */
export class OaiError extends Error {
  readonly code: OaiErrorCode;
  constructor(code: OaiErrorCode, message: string) {
    super(message);
    this.name = "OaiError";
    this.code = code;
  }
}

/** The only metadata format: unqualified Dublin Core. */
export const oaiDcPrefix = "oai_dc";

/** A datestamp bound as SQL compares it (UTC, seconds) and as the harvester wrote it. */
export interface DateBound {
  /** `YYYY-MM-DD HH:MM:SS`, UTC: day granularity is the day's first second (from) or last (until). */
  sql: string;
  granularity: "day" | "seconds";
}

export interface ListArguments {
  metadataPrefix: string;
  from?: DateBound;
  until?: DateBound;
  set?: SetSpec;
}

export type SetSpec = { kind: "section" | "project"; slug: string };

export type OaiRequest =
  | { verb: "Identify" }
  | { verb: "ListMetadataFormats"; identifier?: string }
  | { verb: "ListSets"; resumptionToken?: string }
  | { verb: "GetRecord"; identifier: string; metadataPrefix: string }
  | { verb: "ListIdentifiers" | "ListRecords"; list: ListArguments }
  | { verb: "ListIdentifiers" | "ListRecords"; resumptionToken: string };

/** The protocol's setSpec syntax (OAI-PMH.xsd setSpecType). */
const setSpecPattern = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;
/** The protocol's metadataPrefix syntax (metadataPrefixType). */
const metadataPrefixPattern = /^[A-Za-z0-9\-_.!~*'()]+$/;

/** The setSpec of a section or project, or null when its slug cannot be one. */
export function setSpecOf(kind: SetSpec["kind"], slug: string): string | null {
  const spec = `${kind}:${slug}`;
  return setSpecPattern.test(slug) && !slug.includes(":") ? spec : null;
}

export function parseSetSpec(text: string): SetSpec | null {
  if (!setSpecPattern.test(text)) return null;
  const match = /^(section|project):([^:]+)$/.exec(text);
  return match ? { kind: match[1] as SetSpec["kind"], slug: match[2]! } : null;
}

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const secondsPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A `from`/`until` value in either granularity the protocol allows, or null if it is not one. */
export function parseDateBound(text: string, bound: "from" | "until"): DateBound | null {
  const day = dayPattern.exec(text);
  const seconds = day ? null : secondsPattern.exec(text);
  const parts = (day ?? seconds)?.slice(1).map(Number);
  if (!parts) return null;
  const [year, month, date, hour = 0, minute = 0, second = 0] = parts as [number, number, number, number?, number?, number?];
  const at = new Date(Date.UTC(year, month - 1, date, hour, minute, second));
  // Date.UTC rolls 02-31 over into March and 24:00 into the next day: such a value is no date.
  if (
    at.getUTCFullYear() !== year ||
    at.getUTCMonth() !== month - 1 ||
    at.getUTCDate() !== date ||
    at.getUTCHours() !== hour ||
    at.getUTCMinutes() !== minute ||
    at.getUTCSeconds() !== second
  )
    return null;
  const ymd = text.slice(0, 10);
  if (day) return { sql: `${ymd} ${bound === "from" ? "00:00:00" : "23:59:59"}`, granularity: "day" };
  return { sql: `${ymd} ${text.slice(11, 19)}`, granularity: "seconds" };
}

/** A datestamp as the protocol writes it: UTC, to the second. */
export function formatDatestamp(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}

/** `oai:<repository>:<record id>`; the record id of one of ours, or null. */
export function recordIdOf(identifier: string, repositoryIdentifier: string): string | null {
  const match = /^oai:([^:]+):([^:]+)$/.exec(identifier);
  if (!match || match[1]!.toLowerCase() !== repositoryIdentifier.toLowerCase() || !isUuid(match[2])) return null;
  return match[2]!.toLowerCase();
}

export function identifierOf(recordId: string, repositoryIdentifier: string): string {
  return `oai:${repositoryIdentifier}:${recordId}`;
}

/** Longest argument value accepted (resumption tokens are a few hundred characters). */
const maxArgumentLength = 2000;
const value = z.string().max(maxArgumentLength, { error: "is longer than any valid value" });

const argumentSchemas = {
  Identify: z.object({}).strict(),
  ListMetadataFormats: z.object({ identifier: value.optional() }).strict(),
  ListSets: z.object({ resumptionToken: value.optional() }).strict(),
  GetRecord: z.object({ identifier: value, metadataPrefix: value }).strict(),
  ListIdentifiers: z
    .object({ metadataPrefix: value.optional(), from: value.optional(), until: value.optional(), set: value.optional(), resumptionToken: value.optional() })
    .strict(),
  ListRecords: z
    .object({ metadataPrefix: value.optional(), from: value.optional(), until: value.optional(), set: value.optional(), resumptionToken: value.optional() })
    .strict(),
} satisfies Record<OaiVerb, z.ZodType>;

function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      if (issue.code === "unrecognized_keys")
        return `Illegal argument${issue.keys.length > 1 ? "s" : ""} for this verb: ${issue.keys.map((key) => JSON.stringify(key.slice(0, 40))).join(", ")}.`;
      const name = String(issue.path[0] ?? "argument");
      return issue.input === undefined ? `The required argument ${name} is missing.` : `The argument ${name} ${issue.message}.`;
    })
    .join(" ");
}

/**
 * The request the arguments make, or an OaiError: badVerb for a missing, repeated or unknown
 * verb; badArgument for an argument that is repeated, illegal for the verb, missing or
 * malformed (and a resumption token with anything else); cannotDisseminateFormat for a format
 * other than oai_dc. Whether records, identifiers and tokens exist is the service's to say.
 */
export function parseOaiRequest(entries: Iterable<[string, string]>): OaiRequest {
  const all = [...entries];
  const verbs = all.filter(([key]) => key === "verb").map(([, text]) => text);
  if (verbs.length === 0) throw new OaiError("badVerb", "The verb argument is missing.");
  if (verbs.length > 1) throw new OaiError("badVerb", "The verb argument is repeated.");
  const verb = verbs[0]!;
  if (!(oaiVerbs as readonly string[]).includes(verb)) throw new OaiError("badVerb", `${JSON.stringify(verb.slice(0, 40))} is not an OAI-PMH verb.`);
  const args: Record<string, string> = {};
  for (const [key, text] of all) {
    if (key === "verb") continue;
    if (Object.hasOwn(args, key)) throw new OaiError("badArgument", `The argument ${JSON.stringify(key.slice(0, 40))} is repeated.`);
    args[key] = text;
  }
  const parsed = argumentSchemas[verb as OaiVerb].safeParse(args);
  if (!parsed.success) throw new OaiError("badArgument", describeIssues(parsed.error.issues));
  const input = parsed.data as Record<string, string | undefined>;

  switch (verb as OaiVerb) {
    case "Identify":
      return { verb: "Identify" };
    case "ListMetadataFormats":
      return { verb: "ListMetadataFormats", identifier: input.identifier };
    case "ListSets":
      return { verb: "ListSets", resumptionToken: input.resumptionToken };
    case "GetRecord":
      return { verb: "GetRecord", identifier: input.identifier!, metadataPrefix: checkedPrefix(input.metadataPrefix!) };
    case "ListIdentifiers":
    case "ListRecords": {
      const listVerb = verb as "ListIdentifiers" | "ListRecords";
      if (input.resumptionToken !== undefined) {
        if (Object.keys(args).length > 1) throw new OaiError("badArgument", "A resumptionToken is an exclusive argument: send it with the verb alone.");
        return { verb: listVerb, resumptionToken: input.resumptionToken };
      }
      if (input.metadataPrefix === undefined) throw new OaiError("badArgument", "The required argument metadataPrefix is missing.");
      const from = input.from === undefined ? undefined : parseDateBound(input.from, "from");
      const until = input.until === undefined ? undefined : parseDateBound(input.until, "until");
      if (from === null) throw new OaiError("badArgument", "The argument from is not a UTC date (YYYY-MM-DD) or datestamp (YYYY-MM-DDThh:mm:ssZ).");
      if (until === null) throw new OaiError("badArgument", "The argument until is not a UTC date (YYYY-MM-DD) or datestamp (YYYY-MM-DDThh:mm:ssZ).");
      if (from && until && from.granularity !== until.granularity)
        throw new OaiError("badArgument", "The arguments from and until must have the same granularity.");
      if (from && until && from.sql > until.sql) throw new OaiError("badArgument", "The argument from is later than until.");
      let set: SetSpec | undefined;
      if (input.set !== undefined) {
        if (!setSpecPattern.test(input.set))
          throw new OaiError("badArgument", "The argument set is not a setSpec (letters, digits and -_.!~*'() in parts separated by colons).");
        // A well-formed spec outside the hierarchy (section:… and project:…) holds no records.
        set = parseSetSpec(input.set) ?? { kind: "section", slug: "" };
      }
      const metadataPrefix = checkedPrefix(input.metadataPrefix);
      return { verb: listVerb, list: { metadataPrefix, from: from ?? undefined, until: until ?? undefined, set } };
    }
  }
}

function checkedPrefix(prefix: string): string {
  if (!metadataPrefixPattern.test(prefix)) throw new OaiError("badArgument", "The argument metadataPrefix is not a metadata prefix.");
  if (prefix !== oaiDcPrefix) throw new OaiError("cannotDisseminateFormat", `This repository disseminates ${oaiDcPrefix} only.`);
  return prefix;
}
