import { formatTimecode } from "../../format";
import { authorityLabel } from "../authorities";
import { authorityLinksOf } from "../authority-text";
import { readDateValue } from "../date-values";
import { appYearOf } from "../edtf";
import type { FieldDefinition } from "../field-definitions";
import { splitPersonName } from "./person-name";

/**
 * A record as a reference manager sees it: one neutral item, mapped from the record's section
 * and values, that the RIS, BibTeX and CSL-JSON writers each spell in their own format. Pure:
 * it needs the record as the reader may see it (relation targets already limited to readable
 * records, as getRecord gives them), nothing else.
 */
export interface CitableRecord {
  id: string;
  title: string;
  values: Record<string, unknown>;
  project: { name: string };
  section: { slug: string; name: string; fields: FieldDefinition[] };
  /** Readable relation targets by record id (their titles name people and places; a person record's own family/given fields in `personName`). */
  relations: Record<string, { title: string; personName?: { family: string; given?: string } }>;
}

/** What kind of work the record is, in the words the three formats share. */
export type CitationKind = "interview" | "article" | "newspaper" | "report" | "chapter" | "book" | "letter" | "artwork" | "document";

/** A year, or year and month, or year, month and day; a year before the common era is negative. */
export type DateParts = [number] | [number, number] | [number, number, number];

export interface CitationName {
  /** Family and given as person-name.ts splits them; `literal` for an organisation or a name it cannot split. */
  family?: string;
  given?: string;
  literal?: string;
}

export interface CitationItem {
  id: string;
  kind: CitationKind;
  title: string;
  authors: CitationName[];
  interviewers: CitationName[];
  /** The first date field's date; `circa` when it is approximate or uncertain (EDTF `~`, `?`, `%`). */
  issued?: { from: DateParts; to?: DateParts; circa?: boolean };
  /** The journal, newspaper or book a part was published in. */
  containerTitle?: string;
  publisher?: string;
  language?: string;
  abstract?: string;
  /** The keywords field's words, then the labels of the record's authority links. */
  keywords: string[];
  /** The record's authority links (every authority field), labelled as the reader sees them. */
  authorityLinks: { label: string; uri: string }[];
  place?: string;
  /** The archive holding it: the record's project. */
  archive: string;
  archiveLocation?: string;
  medium?: string;
  dimensions?: string;
  /** The record page; with a cited moment, `?t=<seconds>`. */
  url: string;
  /** The cited moment of a recording, whole seconds from its start. */
  seconds?: number;
  note?: string;
}

export interface CitationOptions {
  /** Where record links point, e.g. "https://archive.example.org". */
  origin: string;
  /** A moment of the record's recording to cite; ignored for a record without a recording. */
  seconds?: number;
}

const authorKeys = new Set(["author", "authors", "creator", "creators", "artist", "artists", "maker", "narrator", "interviewee", "photographer", "composer"]);
const interviewerKeys = new Set(["interviewer", "interviewers"]);
/** Date fields that date the work, best first; others (born, died) date something else. */
const dateKeys = ["date", "year", "recordedOn", "recorded", "publishedOn", "published", "publicationDate", "issued", "created", "yearMade"];
const undatingKeys = new Set(["born", "died", "birth", "death"]);
const containerKeys = ["publishedIn", "journal", "container", "containerTitle", "series"];
const publisherKeys = ["publisher", "institution"];
const abstractKeys = ["abstract", "summary", "description"];
const keywordKeys = ["keywords", "subjects", "subject", "tags"];
const placeKeys = ["place", "location", "recordedAt"];
const locationKeys = ["accessionNumber", "inventoryNumber", "callNumber", "shelfmark", "signature"];
const kindKeys = ["publicationType", "type", "genre", "documentType"];

/** The whole seconds of a cited moment, or nothing for a value that is not one. */
export function citedSeconds(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

/** Whitespace runs, line breaks included, to one space: every format keeps a value on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim()) return oneLine(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A plain date ("1962", "1962-04", "-0044-03-15") as date parts; a season or unspecified digits are none. */
export function dateParts(value: string): DateParts | undefined {
  const match = /^(-?\d{1,4})(?:-(0[1-9]|1[0-2])(?:-(\d{2}))?)?$/.exec(value.trim());
  if (!match) return undefined;
  // CSL counts years before the common era as historians do (-400 is 400 BC); EDTF has a year zero.
  const year = appYearOf(Number.parseInt(match[1]!, 10));
  if (!match[2]) return [year];
  if (!match[3]) return [year, Number(match[2])];
  return [year, Number(match[2]), Number(match[3])];
}

/**
 * A date or date range as date parts: an EDTF date or interval end at its own precision
 * ("1962-04-18", "1850~/1860"), anything coarser or unspecified ("185X", "17XX", a season, a set)
 * as the years it covers; an open end is left out.
 */
function issuedOf(field: FieldDefinition, value: unknown): CitationItem["issued"] {
  if (field.type === "date" || field.type === "daterange") {
    const date = readDateValue(value);
    if (!date?.years) return undefined;
    const circa = date.approximate || date.uncertain ? { circa: true } : {};
    const ends = date.edtf.split("/").map((end) => dateParts(end.replace(/[?~%]$/, "")));
    if (!/[[{]/.test(date.edtf) && ends.length === 2 && (ends[0] || ends[1])) {
      const [from, to] = ends;
      return from ? { from, ...(to ? { to } : {}), ...circa } : { from: to!, ...circa };
    }
    if (ends.length === 1 && ends[0]) return { from: ends[0], ...circa };
    const { from, to } = date.years;
    return { from: [from], ...(to !== from ? { to: [to] as DateParts } : {}), ...circa };
  }
  if (field.type === "text" && typeof value === "string" && /^-?\d{1,4}$/.test(value.trim())) return { from: [Number.parseInt(value, 10)] };
  return undefined;
}

function kindFromType(type: string): CitationKind | undefined {
  const text = type.toLowerCase();
  if (/newspaper/.test(text)) return "newspaper";
  if (/chapter/.test(text)) return "chapter";
  if (/report/.test(text)) return "report";
  if (/letter|correspondence/.test(text)) return "letter";
  if (/book|guide|monograph/.test(text)) return "book";
  if (/article|essay|paper/.test(text)) return "article";
  if (/interview|oral history/.test(text)) return "interview";
  return undefined;
}

/**
 * The kind of work, from the section's shape: an interview has a narrator or interviewer (or is
 * named as oral history), a publication says its type, an object has images; a section whose
 * title field is a name (people, places) describes an entity, cited as a plain document.
 */
function kindOf(record: CitableRecord, field: (keys: readonly string[]) => FieldDefinition | undefined): CitationKind {
  const { fields, slug, name } = record.section;
  const titleField = fields.find((item) => item.type === "text");
  if (titleField?.key === "name") return "document";
  if (
    fields.some((item) => interviewerKeys.has(item.key) || item.key === "narrator" || item.key === "interviewee") ||
    /oral.?histor|interview|testimon/i.test(`${slug} ${name}`)
  ) {
    return "interview";
  }
  const typeField = field(kindKeys);
  const declared = typeField ? textOf(record.values[typeField.key]) : undefined;
  const fromType = declared ? kindFromType(declared) : undefined;
  if (fromType) return fromType;
  if (fields.some((item) => item.type === "image")) return "artwork";
  return "document";
}

function hasRecording(record: CitableRecord): boolean {
  return record.section.fields.some((field) => field.type === "media" && typeof record.values[field.key] === "string" && record.values[field.key] !== "");
}

/** The record as one citation item. */
export function citationItem(record: CitableRecord, options: CitationOptions): CitationItem {
  const { fields } = record.section;
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const field = (keys: readonly string[]) => keys.map((key) => byKey.get(key)).find((item) => item !== undefined && record.values[item.key] !== undefined);
  const text = (keys: readonly string[]) => {
    const found = field(keys);
    return found && found.type !== "relation" ? textOf(record.values[found.key]) : undefined;
  };
  const language = text(["language", "lang"]);
  /** People a field names: a linked person's own family/given fields, else the title or text split (person-name.ts). */
  const peopleIn = (definition: FieldDefinition): CitationName[] => {
    const value = record.values[definition.key];
    if (definition.type === "relation") {
      const ids = Array.isArray(value) ? value : [value];
      return ids.flatMap((id) => {
        const target = typeof id === "string" ? record.relations[id] : undefined;
        if (!target) return [];
        return [
          target.personName
            ? { family: oneLine(target.personName.family), ...(target.personName.given ? { given: oneLine(target.personName.given) } : {}) }
            : splitPersonName(oneLine(target.title), { language }),
        ];
      });
    }
    return namesIn(definition).map((name) => splitPersonName(name, { language }));
  };
  /** Names or titles a field holds: readable linked records' titles, or text split at semicolons. */
  const namesIn = (definition: FieldDefinition): string[] => {
    const value = record.values[definition.key];
    if (definition.type === "relation") {
      const ids = Array.isArray(value) ? value : [value];
      return ids.flatMap((id) => (typeof id === "string" && record.relations[id] ? [oneLine(record.relations[id].title)] : []));
    }
    const written = textOf(value);
    return written ? written.split(/\s*;\s*/).filter(Boolean) : [];
  };

  const kind = kindOf(record, field);
  const authors = fields.filter((item) => authorKeys.has(item.key)).flatMap(peopleIn);
  const interviewers = fields.filter((item) => interviewerKeys.has(item.key)).flatMap(peopleIn);
  // The first field that dates the work and holds a date (a museum's "year made" may be prose).
  const dateFields = [
    ...dateKeys.flatMap((key) => byKey.get(key) ?? []),
    ...fields.filter((item) => (item.type === "date" || item.type === "daterange") && !undatingKeys.has(item.key)),
  ];
  const issued = dateFields.map((item) => issuedOf(item, record.values[item.key])).find((dates) => dates !== undefined);
  const keywordField = field(keywordKeys);
  const written = keywordField
    ? (textOf(record.values[keywordField.key])
        ?.split(/\s*[,;]\s*/)
        .filter(Boolean) ?? [])
    : [];
  const authorityLinks = fields
    .filter((item) => item.type === "authority")
    .flatMap((item) => authorityLinksOf(record.values[item.key]))
    .map((link) => ({ label: oneLine(authorityLabel(link)), uri: link.uri }));
  const keywords = [...new Set([...written, ...authorityLinks.map((link) => link.label)])];
  const placeField = field(placeKeys);
  const place = placeField ? namesIn(placeField).join("; ") || undefined : undefined;
  const published = text(containerKeys);
  const inContainer = kind === "article" || kind === "newspaper" || kind === "chapter";

  const seconds = hasRecording(record) ? citedSeconds(options.seconds) : undefined;
  const base = `${options.origin.replace(/\/+$/, "")}/records/${encodeURIComponent(record.id)}`;
  return {
    id: record.id,
    kind,
    title: oneLine(record.title),
    authors,
    interviewers,
    issued,
    containerTitle: inContainer ? published : undefined,
    publisher: text(publisherKeys) ?? (inContainer ? undefined : published),
    language,
    abstract: text(abstractKeys),
    keywords,
    authorityLinks,
    place,
    archive: oneLine(record.project.name),
    archiveLocation: text(locationKeys),
    medium: text(["medium"]),
    dimensions: text(["dimensions"]),
    url: seconds === undefined ? base : `${base}?t=${seconds}`,
    seconds,
    note: seconds === undefined ? undefined : `Cited at ${formatTimecode(seconds)} of the recording.`,
  };
}
