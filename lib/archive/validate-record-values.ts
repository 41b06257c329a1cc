import type { FieldDefinition, IndexSegment, TranscriptTurn } from "./field-definitions";
import type { FieldErrors } from "../errors";
import { isUuid } from "../ids";
import { checkDate, checkDateRange, yearsOfDateFields } from "./date-values";
import { findUnstorableText, truncateText } from "../storable-text";
import { type AuthorityLink, authorityHint, recogniseAuthorityUri } from "./authorities";

/**
 * Validates and normalises a record's field values against its section's definitions. Pure:
 * relation targets and media ownership are checked by the save service, which has the database.
 * Unknown keys are errors, so a typo never silently drops data.
 */
export type RecordValues = Record<string, unknown>;

const maxText = 2_000;
const maxLongText = 500_000;
export const maxTurns = 5_000;
export const maxSegments = 2_000;
/** Characters of a segment's title, and of its synopsis or partial transcript; keywords per segment. */
const segmentBounds = { title: 300, text: 10_000, keywords: 100, keyword: 200 };

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

function validateOne(field: FieldDefinition, value: unknown): { value?: unknown; error?: string } {
  switch (field.type) {
    case "text": {
      if (typeof value !== "string") return { error: "must be text" };
      const trimmed = value.trim();
      const limit = field.maxLength ?? maxText;
      if (trimmed.length > limit) return { error: `must be at most ${limit} characters` };
      return { value: trimmed };
    }
    case "longtext": {
      if (typeof value !== "string") return { error: "must be text" };
      if (value.length > maxLongText) return { error: `must be at most ${maxLongText} characters` };
      return { value: value.replace(/\r\n/g, "\n") };
    }
    case "category": {
      if (typeof value !== "string" || !field.options.includes(value)) {
        return { error: `must be one of: ${field.options.join(", ")}` };
      }
      return { value };
    }
    case "date":
      return checkDate(value);
    case "daterange":
      return checkDateRange(value);
    case "relation": {
      const ids = field.multiple ? value : [value];
      if (!Array.isArray(ids) || !ids.every(isUuid)) return { error: "must reference existing records" };
      const unique = [...new Set(ids as string[])];
      return { value: field.multiple ? unique : unique[0] };
    }
    case "image":
    case "media":
    case "scan": {
      if (!isUuid(value)) return { error: "must be an uploaded file" };
      return { value };
    }
    case "transcript": {
      if (!Array.isArray(value)) return { error: "must be a list of timecoded turns" };
      if (value.length > maxTurns) return { error: `must have at most ${maxTurns} turns` };
      const turns: TranscriptTurn[] = [];
      for (const [index, raw] of value.entries()) {
        const turn = raw as Partial<TranscriptTurn>;
        const label = `turn ${index + 1}`;
        if (typeof turn?.text !== "string" || !turn.text.trim()) return { error: `${label} has no text` };
        if (typeof turn.start !== "number" || typeof turn.end !== "number" || !Number.isFinite(turn.start) || !Number.isFinite(turn.end)) {
          return { error: `${label} needs a start and end time in seconds` };
        }
        if (turn.start < 0 || turn.end < turn.start) return { error: `${label} ends before it starts` };
        const previous = turns.at(-1);
        if (previous && turn.start < previous.start) return { error: `${label} starts before the turn above it` };
        turns.push({ speaker: truncateText(String(turn.speaker ?? "").trim(), 120), start: turn.start, end: turn.end, text: turn.text.trim() });
      }
      return { value: turns };
    }
    case "segments":
      return validateSegments(value);
    case "authority":
      return validateAuthorityLinks(field, value);
  }
}

/** Characters of an authority link's label; links per field. */
const authorityBounds = { label: 300, links: 100 };

/**
 * Authority links: a URI as text, `{ uri, label }`, or (multiple) a list of either. The URI is
 * stored in its authority's canonical form; a value that is not a URI of an accepted authority
 * is quoted in the error.
 */
function validateAuthorityLinks(
  field: Extract<FieldDefinition, { type: "authority" }>,
  value: unknown,
): { value?: AuthorityLink | AuthorityLink[]; error?: string } {
  const items = Array.isArray(value) ? value : [value];
  if (!field.multiple && items.length > 1) return { error: "takes one authority link" };
  if (items.length > authorityBounds.links) return { error: `must have at most ${authorityBounds.links} links` };
  const links: AuthorityLink[] = [];
  for (const item of items) {
    const raw = typeof item === "string" ? { uri: item } : typeof item === "object" && item !== null ? (item as Record<string, unknown>) : null;
    if (!raw || typeof raw.uri !== "string" || (raw.label !== undefined && raw.label !== null && typeof raw.label !== "string")) {
      return { error: "must be authority links: a URI and an optional label" };
    }
    const recognised = recogniseAuthorityUri(raw.uri, field.authorities);
    if (!recognised) return { error: `"${truncateText(raw.uri.trim(), 120)}" is not an authority URI: ${authorityHint(field.authorities)}` };
    const label = typeof raw.label === "string" ? raw.label.replace(/\s+/g, " ").trim() : "";
    if (label.length > authorityBounds.label) return { error: `labels must be at most ${authorityBounds.label} characters` };
    if (links.some((link) => link.uri === recognised.uri)) continue;
    links.push(label ? { uri: recognised.uri, label } : { uri: recognised.uri });
  }
  if (links.length === 0) return {};
  return { value: field.multiple ? links : links[0] };
}

function validateSegments(value: unknown): { value?: IndexSegment[]; error?: string } {
  if (!Array.isArray(value)) return { error: "must be a list of timecoded segments" };
  if (value.length > maxSegments) return { error: `must have at most ${maxSegments} segments` };
  const segments: IndexSegment[] = [];
  for (const [index, raw] of value.entries()) {
    const segment = (typeof raw === "object" && raw !== null ? raw : {}) as Partial<Record<keyof IndexSegment, unknown>>;
    const label = `segment ${index + 1}`;
    const { start, end } = segment;
    if (typeof start !== "number" || typeof end !== "number" || !Number.isFinite(start) || !Number.isFinite(end)) {
      return { error: `${label} needs a start and end time in seconds` };
    }
    if (start < 0 || end < start) return { error: `${label} ends before it starts` };
    const previous = segments.at(-1);
    if (previous && start < previous.start) return { error: `${label} starts before the segment above it` };
    const text = (key: "title" | "synopsis" | "partialTranscript") =>
      typeof segment[key] === "string" ? (segment[key] as string).trim() : segment[key] === undefined ? "" : null;
    const title = text("title");
    const synopsis = text("synopsis");
    const partialTranscript = text("partialTranscript");
    if (title === null || synopsis === null || partialTranscript === null) return { error: `${label}: title, synopsis and partial transcript must be text` };
    if (title.length > segmentBounds.title) return { error: `${label}: the title must be at most ${segmentBounds.title} characters` };
    if (synopsis.length > segmentBounds.text || partialTranscript.length > segmentBounds.text) {
      return { error: `${label}: the synopsis and the partial transcript must be at most ${segmentBounds.text} characters each` };
    }
    const keywords = segment.keywords ?? [];
    if (!Array.isArray(keywords) || !keywords.every((keyword) => typeof keyword === "string")) return { error: `${label}: keywords must be a list of text` };
    const cleanKeywords = [...new Set(keywords.map((keyword: string) => keyword.replace(/\s+/g, " ").trim()).filter(Boolean))];
    if (cleanKeywords.length > segmentBounds.keywords || cleanKeywords.some((keyword) => keyword.length > segmentBounds.keyword)) {
      return { error: `${label}: at most ${segmentBounds.keywords} keywords of at most ${segmentBounds.keyword} characters` };
    }
    if (cleanKeywords.some((keyword) => keyword.includes(";"))) return { error: `${label}: a keyword may not contain “;”, which separates keywords` };
    if (!title && !synopsis && !partialTranscript && cleanKeywords.length === 0) return { error: `${label} has no text` };
    segments.push({ start, end, title, synopsis, keywords: cleanKeywords, partialTranscript });
  }
  return { value: segments };
}

export function validateRecordValues(
  fields: FieldDefinition[],
  input: RecordValues,
): { ok: true; values: RecordValues } | { ok: false; fieldErrors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  const values: RecordValues = {};
  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(input)) {
    if (!known.has(key) && input[key] !== undefined) fieldErrors[key] = ["is not a field of this section"];
  }
  for (const field of fields) {
    const raw = input[field.key];
    if (isBlank(raw)) {
      if (field.required) fieldErrors[field.key] = [`${field.label} is required`];
      continue;
    }
    const unstorable = findUnstorableText(raw)[0];
    if (unstorable) {
      fieldErrors[field.key] = [`${field.label} ${unstorable.problem}`];
      continue;
    }
    const result = validateOne(field, raw);
    if (result.error) fieldErrors[field.key] = [`${field.label} ${result.error}`];
    else if (!isBlank(result.value)) values[field.key] = result.value;
    else if (field.required) fieldErrors[field.key] = [`${field.label} is required`];
  }
  return Object.keys(fieldErrors).length > 0 ? { ok: false, fieldErrors } : { ok: true, values };
}

/** The record's title: its first text field. */
export function recordTitle(fields: FieldDefinition[], values: RecordValues): string {
  const titleField = fields.find((field) => field.type === "text");
  const title = titleField ? values[titleField.key] : undefined;
  return typeof title === "string" && title ? title : "Untitled";
}

/** Years of the first date or date range field, for filtering and sorting by date: the years its EDTF covers. */
export function recordYears(fields: FieldDefinition[], values: RecordValues): { from: number | null; to: number | null } {
  return yearsOfDateFields(fields, values);
}

/** The record ids each relation field points at (validated values: ids, or arrays of ids). */
export function relationTargetsByField(fields: FieldDefinition[], values: RecordValues): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const field of fields) {
    if (field.type !== "relation" || values[field.key] === undefined) continue;
    const value = values[field.key];
    result.set(field.key, (Array.isArray(value) ? value : [value]).filter(isUuid));
  }
  return result;
}

/**
 * The values with each relation field reduced to the targets in `shown` (the ids the reader may
 * read, as lib/acl scoped them): a relation to a record the reader cannot read, or to one that
 * no longer exists, is left out as if it had never been set — a field left empty loses its key,
 * as a blank value does when saved. Other fields are returned as they are.
 */
export function withShownRelations(fields: FieldDefinition[], values: RecordValues, shown: ReadonlySet<string>): RecordValues {
  const result: RecordValues = { ...values };
  const targetsByField = relationTargetsByField(fields, values);
  for (const field of fields) {
    if (field.type !== "relation" || !targetsByField.has(field.key)) continue;
    const kept = (targetsByField.get(field.key) ?? []).filter((id) => shown.has(id));
    if (kept.length === 0) delete result[field.key];
    else result[field.key] = field.multiple ? kept : kept[0];
  }
  return result;
}

/** The record_links rows of a record: one per (relation field, target). */
export function relationLinkRows(fields: FieldDefinition[], values: RecordValues, sourceId: string) {
  return [...relationTargetsByField(fields, values)].flatMap(([fieldKey, targets]) => targets.map((targetId) => ({ sourceId, fieldKey, targetId })));
}
