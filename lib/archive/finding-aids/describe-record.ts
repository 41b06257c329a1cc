import { formatTimecode } from "../../format";
import { type AuthorityLink, type AuthorityScheme, authorityLabel, recogniseAuthorityUri } from "../authorities";
import type { FieldDefinition } from "../field-definitions";
import { type ArchivalDate, archivalDate } from "./dates";
import { type ArchivalLanguage, languagesOf } from "../languages";

/**
 * What the archival formats say about one record, read from its section's fields and values.
 * Pure: it is given the record as the reader may see it — relation targets already limited to
 * the records the reader may read (an unreadable one is absent from `relations`, so it is never
 * named), nothing else.
 */
export interface DescribedRecord {
  id: string;
  title: string;
  values: Record<string, unknown>;
  section: { slug: string; name: string; fields: readonly FieldDefinition[] };
  /** Readable relation targets by id: their titles, and the first authority link of each, if any. */
  relations: Record<string, { title: string; authorityUri?: string }>;
  /** Media of the record's media fields, by id. */
  media: Record<string, { kind: string; durationSeconds: number | null }>;
}

/** Field keys whose people made the record: its origination. */
const creatorKeys = new Set([
  "author",
  "authors",
  "creator",
  "creators",
  "artist",
  "artists",
  "maker",
  "makers",
  "narrator",
  "narrators",
  "interviewee",
  "interviewer",
  "interviewers",
  "photographer",
  "composer",
]);
/** Date fields that date the record, best first; born and died date someone's life instead. */
const datingKeys = ["date", "year", "recordedOn", "recorded", "publishedOn", "published", "publicationDate", "issued", "created", "yearMade"];
const lifeKeys = new Set(["born", "died", "birth", "death", "birthDate", "deathDate"]);
const scopeKeys = ["summary", "abstract", "description", "scopeAndContent"];
const physicalKeys = ["medium", "dimensions", "extent"];
const languageKeys = new Set(["language", "languages", "lang"]);

function textOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim()) return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * The values a description reads: a record's long texts other than its summary, abstract or
 * description (a publication's body), and its transcripts and index segments, are left behind,
 * so a large project's finding aid does not hold every transcript in memory.
 */
export function describedValues(fields: readonly FieldDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === "transcript" || field.type === "segments" || (field.type === "longtext" && !scopeKeys.includes(field.key))) continue;
    if (values[field.key] !== undefined) kept[field.key] = values[field.key];
  }
  return kept;
}

/** Whitespace runs to one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A long text's paragraphs (blank lines part them), each on one line. */
export function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map(oneLine)
    .filter(Boolean);
}

/** The first field that dates the record and holds a date (not a life's born or died), with its label. */
export function recordDate(record: Pick<DescribedRecord, "values" | "section">): (ArchivalDate & { label: string }) | null {
  const { fields } = record.section;
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const candidates = [...datingKeys.flatMap((key) => byKey.get(key) ?? []), ...fields.filter((field) => !lifeKeys.has(field.key))];
  for (const field of candidates) {
    if (field.type !== "date" && field.type !== "daterange") continue;
    const date = archivalDate(record.values[field.key]);
    if (date) return { ...date, label: field.label };
  }
  return null;
}

/** A date field by its keys (born, died…), read. */
export function dateAt(record: Pick<DescribedRecord, "values" | "section">, keys: readonly string[]): ArchivalDate | null {
  for (const key of keys) {
    const field = record.section.fields.find((item) => item.key === key && (item.type === "date" || item.type === "daterange"));
    const date = field ? archivalDate(record.values[field.key]) : null;
    if (date) return date;
  }
  return null;
}

/** The languages the record's language field names. */
export function recordLanguages(record: Pick<DescribedRecord, "values" | "section">): ArchivalLanguage[] {
  return languagesOf(
    record.section.fields.filter((field) => languageKeys.has(field.key) && field.type !== "relation").map((field) => record.values[field.key]),
  );
}

/** The paragraphs of the first summary, abstract or description the record holds. */
export function recordScope(record: Pick<DescribedRecord, "values" | "section">): string[] {
  for (const key of scopeKeys) {
    const field = record.section.fields.find((item) => item.key === key && (item.type === "longtext" || item.type === "text"));
    const text = field ? textOf(record.values[field.key]) : undefined;
    if (text) return paragraphsOf(text);
  }
  return [];
}

export interface RecordCreator {
  name: string;
  /** The field's label: "Narrator", "Authors". */
  role: string;
  /** The linked person's authority URI, when their record has one. */
  identifier?: string;
}

/** Who made the record: readable people its creator fields link to, and names written in such fields. */
export function recordCreators(record: DescribedRecord): RecordCreator[] {
  const creators: RecordCreator[] = [];
  for (const field of record.section.fields) {
    if (!creatorKeys.has(field.key)) continue;
    const value = record.values[field.key];
    if (field.type === "relation") {
      for (const id of Array.isArray(value) ? value : [value]) {
        const target = typeof id === "string" ? record.relations[id] : undefined;
        if (target && oneLine(target.title))
          creators.push({ name: oneLine(target.title), role: field.label, ...(target.authorityUri ? { identifier: target.authorityUri } : {}) });
      }
    } else if (field.type === "text") {
      for (const name of (textOf(value) ?? "")
        .split(/\s*;\s*/)
        .map(oneLine)
        .filter(Boolean))
        creators.push({ name, role: field.label });
    }
  }
  return creators;
}

export interface RecordAuthority {
  uri: string;
  label: string;
  scheme: AuthorityScheme;
  /** The field's label ("Mint", "Material"). */
  field: string;
}

/** An authority field's stored value (one link or a list) as links; anything else is none. */
export function authorityLinksIn(value: unknown): AuthorityLink[] {
  return (Array.isArray(value) ? value : [value]).filter(
    (item): item is AuthorityLink => typeof item === "object" && item !== null && typeof (item as { uri?: unknown }).uri === "string",
  );
}

/** The record's authority links, each once, recognised (a stored URI that no longer matches a scheme is left out). */
export function recordAuthorities(record: Pick<DescribedRecord, "values" | "section">): RecordAuthority[] {
  const out = new Map<string, RecordAuthority>();
  for (const field of record.section.fields) {
    if (field.type !== "authority") continue;
    for (const link of authorityLinksIn(record.values[field.key])) {
      const recognised = recogniseAuthorityUri(link.uri);
      if (recognised && !out.has(recognised.uri))
        out.set(recognised.uri, { uri: recognised.uri, label: oneLine(authorityLabel(link)), scheme: recognised.scheme, field: field.label });
    }
  }
  return [...out.values()];
}

/** The first authority URI a record holds (a person's Wikidata id): what a link to it may name. */
export function firstAuthorityUri(fields: readonly FieldDefinition[], values: Record<string, unknown>): string | undefined {
  return recordAuthorities({ values, section: { slug: "", name: "", fields } })[0]?.uri;
}

/** The record's physical description: its medium and dimensions as written, and its recordings' length. */
export function recordPhysicalDescription(record: DescribedRecord): string[] {
  const out: string[] = [];
  for (const key of physicalKeys) {
    const field = record.section.fields.find((item) => item.key === key && item.type === "text");
    const text = field ? textOf(record.values[field.key]) : undefined;
    if (text) out.push(`${field!.label}: ${oneLine(text)}`);
  }
  for (const field of record.section.fields) {
    if (field.type !== "media") continue;
    const id = record.values[field.key];
    const media = typeof id === "string" ? record.media[id] : undefined;
    if (!media) continue;
    const kind = media.kind === "video" ? "Video recording" : "Audio recording";
    out.push(media.durationSeconds && media.durationSeconds > 0 ? `${kind}, ${formatTimecode(media.durationSeconds)}` : kind);
  }
  return out;
}
