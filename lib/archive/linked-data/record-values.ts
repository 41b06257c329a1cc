import type { CitableRecord } from "../citation-formats/citation-item";
import type { AuthorityLink } from "../authorities";
import { authorityLinksOf } from "../authority-text";
import { type DateValueReading, readDateValue } from "../date-values";
import type { FieldDefinition } from "../field-definitions";

/**
 * What the linked-data builders read of a record, and the readings they share. The record is
 * the one the reader may see (getRecord's RecordDetail fits): its relation values name only
 * readable records, and `relations` holds their titles, so nothing here can name another. Pure.
 */
export interface LinkedDataRecord extends CitableRecord {
  media: Record<string, { id: string; kind: string; imageCheck: string | null }>;
}

/** Fields by what their names say they hold (key and label, as the Dublin Core defaults read them). */
export const fieldNames = {
  agent: /(author|creator|artist|maker|narrator|interviewee|photographer|composer|writer|engraver|potter|painter|ruler|issuer|authority|workshop)/i,
  contributor: /(interviewer|contributor|editor|translator|transcriber|collector|donor)/i,
  place: /(place|location|findspot|mint|coverage|origin|site|recordedAt)/i,
  material: /(material|metal|medium|fabric)/i,
  period: /(period|era|culture|style)/i,
  identity: /(wikidata|viaf|ulan|tgn|geonames|authority|identif|same ?as|\buri\b|\bid\b)/i,
} as const;

export function nameOf(field: FieldDefinition): string {
  return `${field.key} ${field.label}`;
}

/** A one-line text value of the first of these keys that holds one. */
export function textOf(record: LinkedDataRecord, keys: readonly string[], maxLength = 2000): string | undefined {
  for (const key of keys) {
    const value = record.values[key];
    if (typeof value === "string" && value.trim()) return value.replace(/\s+/g, " ").trim().slice(0, maxLength);
  }
  return undefined;
}

export const descriptionKeys = ["summary", "abstract", "description", "biography"];
export const identifierKeys = ["accessionNumber", "inventoryNumber", "callNumber", "shelfmark", "signature"];
/** Date fields that date the work, best first; born and died date something else. */
const workDateKeys = ["date", "year", "recordedOn", "recorded", "publishedOn", "published", "publicationDate", "issued", "created", "yearMade"];
const lifeDateKeys = new Set(["born", "died", "birth", "death", "birthDate", "deathDate"]);

/** The date of the work (a museum's date role first when given), read as EDTF. */
export function workDate(record: LinkedDataRecord, preferredKey?: string): DateValueReading | null {
  const fields = record.section.fields.filter((field) => field.type === "date" || field.type === "daterange");
  const ordered = [
    ...(preferredKey ? fields.filter((field) => field.key === preferredKey) : []),
    ...workDateKeys.flatMap((key) => fields.filter((field) => field.key === key)),
    ...fields.filter((field) => !lifeDateKeys.has(field.key)),
  ];
  for (const field of ordered) {
    const reading = readDateValue(record.values[field.key]);
    if (reading) return reading;
  }
  return null;
}

/** The date of one of these fields (a person's birth or death). */
export function dateOf(record: LinkedDataRecord, keys: readonly string[]): DateValueReading | null {
  for (const key of keys) {
    const reading = readDateValue(record.values[key]);
    if (reading) return reading;
  }
  return null;
}

/** An EDTF that is also a plain ISO 8601 date (year, year-month or day), which schema.org reads. */
export function isoDateOf(reading: DateValueReading): string | undefined {
  return /^-?\d{4}(-\d{2}(-\d{2})?)?$/.test(reading.edtf) ? reading.edtf : undefined;
}

/** The readable records a relation field links to, with their titles. */
export function relationTargets(record: LinkedDataRecord, field: FieldDefinition): { id: string; title: string }[] {
  if (field.type !== "relation") return [];
  const value = record.values[field.key];
  const ids = Array.isArray(value) ? value : [value];
  return ids.flatMap((id) => (typeof id === "string" && record.relations[id] ? [{ id, title: record.relations[id].title }] : []));
}

/** Each authority field with the links it holds (fields without links left out). */
export function authorityFields(record: LinkedDataRecord): { field: Extract<FieldDefinition, { type: "authority" }>; links: AuthorityLink[] }[] {
  return record.section.fields.flatMap((field) => {
    if (field.type !== "authority") return [];
    const links = authorityLinksOf(record.values[field.key]);
    return links.length ? [{ field, links }] : [];
  });
}

/** The first image a viewer can show: its media id. */
export function firstImage(record: LinkedDataRecord): string | undefined {
  for (const field of record.section.fields) {
    const value = record.values[field.key];
    const media = typeof value === "string" ? record.media[value] : undefined;
    if (field.type === "image" && media?.kind === "image" && media.imageCheck !== "undecodable") return media.id;
  }
  return undefined;
}
