import { authorityLinksOf } from "../../archive/authority-text";
import { shownDate } from "../../archive/date-values";
import type { DateRangeValue, FieldDefinition, IndexSegment, TranscriptTurn } from "../../archive/field-definitions";
import { formatTimecode, formatYear } from "../../format";
import { relationTargetsByField } from "../../archive/validate-record-values";
import { type EmbedGroupInput, resolveFieldPath, type SectionShape } from "./embed-group-schema";

/**
 * Composes a record's group document. Short fields (text, category, dates, relation titles,
 * authority links' labels) form ONE catalogue entry at the top, a `<label>: <value>` line each,
 * so a catalogue record is one coherent passage rather than a title passage, a date passage and
 * a material passage that match every query alike; long fields (long text, transcripts) follow
 * in group order, each under a `## <label>` heading the chunker cuts at. An entry that would be
 * the title alone beside long text (a transcript group) is left out: the indexer puts the
 * record's title before every passage it embeds. Relations are followed to the target records'
 * fields. Built with no user's permissions (a system principal), so the document does not depend
 * on who saved; instead it records every record, section and project whose text it contains —
 * a linked record's text counts for the records whose links led to it as well — and search
 * shows a passage only to those who may read all of those projects, as they are now
 * (lib/acl/derived-scope.ts).
 */
export interface DocumentRecord {
  id: string;
  projectId: string;
  sectionId: string;
  sectionSlug: string;
  title: string;
  values: Record<string, unknown>;
  /** The record's version when it was read (the indexer writes passages only for that version). */
  version?: number;
}

export interface DocumentSources {
  sections: ReadonlyMap<string, SectionShape>;
  /** Loads records by id whatever their project (missing ids are simply absent; the map's order means nothing). */
  loadRecords(ids: string[]): Promise<Map<string, DocumentRecord>>;
  /** The pages OCR read from a scan, in order (none until the worker has read them). */
  loadScanPages?(mediaId: string): Promise<{ page: number; text: string }[]>;
}

export interface GroupDocument {
  text: string;
  /** Declared language of the record (its `language` field), or null to detect per passage. */
  language: "en" | "es" | "ca" | null;
  /** The group's field paths that produced text. */
  fieldPaths: string[];
  contributingSectionIds: string[];
  contributingProjectIds: string[];
  /**
   * Every record whose text the document holds: the record itself, each record a path rendered
   * text from, and the linked records the path went through to reach it.
   */
  contributingRecordIds: string[];
}

const declaredLanguages = new Set(["en", "es", "ca"]);

/** One field path's text and the records it came from (the record itself, linked records, the links between). */
interface Piece {
  kind: "entry" | "part";
  text: string;
  path: string;
  contributors: Map<string, DocumentRecord>;
}

/**
 * The record's group document as one text: every field path of the group, whichever records its
 * text came from. What is indexed, and what the admin's preview shows, is this split by scope
 * (buildGroupDocuments); the whole stays the reference the split is checked against.
 */
export async function buildGroupDocument(
  record: DocumentRecord,
  group: Pick<EmbedGroupInput, "fields" | "languages">,
  sources: DocumentSources,
): Promise<GroupDocument | null> {
  const pieces = await collectPieces(record, group, sources);
  return pieces && assemble(record, pieces);
}

/**
 * The record's group document split by scope, as the indexer embeds it: the field paths whose
 * text comes from records of the same projects form one document, so a reader who may not read
 * a linked record's project loses only the passages holding that record's text — a public
 * interview whose narrator moved into a restricted project keeps its own summary findable; the
 * narrator's name and occupation go. The document with the record's own project alone comes
 * first; while every linked record shares the record's project, there is one document, as before.
 */
export async function buildGroupDocuments(
  record: DocumentRecord,
  group: Pick<EmbedGroupInput, "fields" | "languages">,
  sources: DocumentSources,
): Promise<GroupDocument[]> {
  const pieces = await collectPieces(record, group, sources);
  if (!pieces) return [];
  const byScope = new Map<string, Piece[]>();
  for (const piece of pieces) {
    const key = [...new Set([record.projectId, ...[...piece.contributors.values()].map((item) => item.projectId)])].sort().join(",");
    byScope.set(key, [...(byScope.get(key) ?? []), piece]);
  }
  const ordered = [...byScope.entries()].sort(([a], [b]) => Number(b === record.projectId) - Number(a === record.projectId) || a.localeCompare(b));
  return ordered.flatMap(([, scoped]) => assemble(record, scoped) ?? []);
}

async function collectPieces(record: DocumentRecord, group: Pick<EmbedGroupInput, "fields" | "languages">, sources: DocumentSources): Promise<Piece[] | null> {
  const declared = declaredLanguage(record);
  if (group.languages.length > 0 && declared && !group.languages.includes(declared)) return null;
  const pieces: Piece[] = [];
  for (const path of group.fields) {
    const resolved = resolveFieldPath(path, record.sectionSlug, sources.sections);
    if (!resolved.ok) continue; // validated on save; a section edited since then loses the path, not the record
    // Each record reached, with the linked records that led to it: their relation values are
    // what ties its text to this record, so text rendered from it is theirs too.
    let current = new Map<string, { item: DocumentRecord; via: DocumentRecord[] }>([[record.id, { item: record, via: [] }]]);
    for (const step of resolved.steps.slice(0, -1)) {
      const targetsOf = new Map(
        [...current.values()].map(({ item }) => [item.id, relationTargetsByField([step.field], item.values).get(step.field.key) ?? []]),
      );
      const ids = [...new Set([...targetsOf.values()].flat())];
      const loaded = ids.length ? await sources.loadRecords(ids) : new Map<string, DocumentRecord>();
      const next: typeof current = new Map();
      for (const { item, via } of current.values()) {
        const chain = item === record ? via : [...via, item];
        for (const id of targetsOf.get(item.id) ?? []) {
          const target = loaded.get(id);
          if (!target) continue;
          const reached = next.get(id);
          next.set(id, { item: target, via: reached ? [...new Set([...reached.via, ...chain])] : chain });
        }
      }
      current = next;
    }
    const last = resolved.steps.at(-1);
    if (!last) continue;
    const rendered: string[] = [];
    const contributors = new Map<string, DocumentRecord>([[record.id, record]]);
    const contribute = (...items: DocumentRecord[]) => {
      for (const item of items) contributors.set(item.id, item);
    };
    for (const { item, via } of current.values()) {
      const text = await renderValue(last.field, item.values[last.field.key], sources);
      if (!text) continue;
      rendered.push(text);
      contribute(item, ...via);
      if (last.field.type === "relation") {
        // The titles of the linked records are their text too.
        contribute(...(await sources.loadRecords(relationTargetsByField([last.field], item.values).get(last.field.key) ?? [])).values());
      }
    }
    if (!rendered.length) continue;
    const label = resolved.steps.map((step) => step.field.label).join(" › ");
    pieces.push(
      isLongField(last.field)
        ? { kind: "part", text: `## ${label}\n\n${rendered.join("\n\n")}`, path, contributors }
        : { kind: "entry", text: `${label}: ${rendered.map(oneLine).join("; ")}`, path, contributors },
    );
  }
  return pieces;
}

function declaredLanguage(record: DocumentRecord): GroupDocument["language"] {
  return typeof record.values.language === "string" && declaredLanguages.has(record.values.language)
    ? (record.values.language as GroupDocument["language"])
    : null;
}

/**
 * Short fields form one catalogue entry at the top, long fields follow. The title alone beside
 * long text would be a title-only passage; the indexer puts the title before every passage it
 * embeds, so that line adds nothing. Any other lone field stays.
 */
function assemble(record: DocumentRecord, pieces: readonly Piece[]): GroupDocument | null {
  const entry = pieces.filter((piece) => piece.kind === "entry");
  const parts = pieces.filter((piece) => piece.kind === "part");
  if (!parts.length && !entry.length) return null;
  const keepEntry = parts.length === 0 || !(entry.length === 1 && entry[0]?.text.endsWith(`: ${oneLine(record.title)}`));
  const kept = [...(keepEntry ? entry : []), ...parts];
  const contributors = new Map<string, DocumentRecord>([[record.id, record]]);
  for (const piece of kept) for (const [id, item] of piece.contributors) contributors.set(id, item);
  return {
    text: [...(keepEntry && entry.length ? [entry.map((piece) => piece.text).join("\n")] : []), ...parts.map((piece) => piece.text)].join("\n\n"),
    language: declaredLanguage(record),
    fieldPaths: kept.map((piece) => piece.path),
    contributingSectionIds: [...new Set([...contributors.values()].map((item) => item.sectionId))].sort(),
    contributingProjectIds: [...new Set([...contributors.values()].map((item) => item.projectId))].sort(),
    contributingRecordIds: [...contributors.keys()].sort(),
  };
}

/** Long text, transcripts, index segments and scans keep their structure as sections of their own. */
function isLongField(field: FieldDefinition): boolean {
  return field.type === "longtext" || field.type === "transcript" || field.type === "segments" || field.type === "scan";
}

/** A short value on its entry line: line breaks would start a new paragraph, or a heading. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

async function renderValue(field: FieldDefinition, value: unknown, sources: DocumentSources): Promise<string> {
  if (value === undefined || value === null || value === "") return "";
  switch (field.type) {
    case "text":
    case "category":
      return String(value).trim();
    // Dates as stored before EDTF render as they always did (the passages, and so their vectors, stay
    // the same); a date written otherwise renders as written.
    case "date":
      return typeof value === "string" ? value.trim() : shownDate(value);
    case "daterange": {
      const range = value as DateRangeValue;
      if (range.text === undefined && Number.isInteger(range.from) && Number.isInteger(range.to)) {
        return range.from === range.to ? formatYear(range.from) : `${formatYear(range.from)} – ${formatYear(range.to)}`;
      }
      return shownDate(value);
    }
    case "longtext":
      return reduceLongText(String(value));
    case "transcript":
      return (value as TranscriptTurn[])
        .map((turn) => `[[turn:${round(turn.start)}-${round(turn.end)}]] ${turn.speaker ? `${turn.speaker}: ` : ""}${turn.text.replace(/\s*\n\s*/g, " ")}`)
        .join("\n");
    case "segments":
      return renderSegments(value as IndexSegment[]);
    case "relation": {
      // In the order the record lists them, not the order the rows come back in: that is the
      // table's physical order, which an edit of a linked record changes, and the passage with it.
      const ids = [...new Set(Array.isArray(value) ? (value as string[]) : [String(value)])];
      const targets = await sources.loadRecords(ids);
      return ids.flatMap((id) => targets.get(id)?.title ?? []).join("; ");
    }
    case "scan": {
      // Each page's text after its page marker, so every passage knows the page it is on.
      const pages = typeof value === "string" ? ((await sources.loadScanPages?.(value)) ?? []) : [];
      return pages
        .filter((page) => page.text.trim())
        .map((page) => `[[page:${page.page}]]\n${escapeMarkup(page.text.trim())}`)
        .join("\n\n");
    }
    case "authority":
      // The labels the cataloguer gave, which are words a search can find; the URIs are not.
      return [...new Set(authorityLinksOf(value).flatMap((link) => link.label?.trim() || []))].join("; ");
    case "image":
    case "media":
      return "";
  }
}

/**
 * Each index segment under a heading of its own (a hard boundary, so a segment is one passage
 * unless it exceeds the group's maxTokens) and as ONE turn line, so its passage carries the
 * segment's start second like a transcript turn: a search hit or a citation opens the player
 * there. The title leads the text too, since keyword search reads a passage's text, not its
 * heading.
 */
function renderSegments(segments: IndexSegment[]): string {
  return segments
    .map((segment) => {
      const title = oneLine(segment.title);
      const sentences = [
        title && (/[.!?…]$/.test(title) ? title : `${title}.`),
        oneLine(segment.synopsis),
        segment.keywords.length > 0 && `Keywords: ${segment.keywords.map(oneLine).join("; ")}.`,
        oneLine(segment.partialTranscript),
      ].filter(Boolean);
      const heading = title || `Segment at ${formatTimecode(segment.start)}`;
      return `### ${heading}\n[[turn:${round(segment.start)}-${round(segment.end)}]] ${sentences.join(" ")}`;
    })
    .join("\n\n");
}

/**
 * Read text that happens to start a line with `#` or `[[` is text, not a heading or a marker:
 * such a line gets a figure space in front, which the chunker's line syntax does not allow.
 */
function escapeMarkup(text: string): string {
  return text.replace(/^[ \t]*(?=#|\[\[)/gm, "\u2007");
}

function round(seconds: number): string {
  return String(Math.round(seconds * 1000) / 1000);
}

/**
 * Long text keeps its structure for the chunker: headings move two levels down so they sit
 * under the field's `##` heading, page markers stay, and inline emphasis marks are dropped.
 */
export function reduceLongText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => {
      const heading = /^(#{1,4})\s+(.*)$/.exec(line);
      if (heading) return `${"#".repeat(Math.min(6, (heading[1] ?? "").length + 2))} ${heading[2] ?? ""}`;
      if (/^\[\[page:\d+\]\]$/.test(line.trim())) return line.trim();
      return line.replace(/(\*\*|__)(.+?)\1/g, "$2").replace(/(^|\W)[*_](\S.*?\S|\S)[*_](?=\W|$)/g, "$1$2");
    })
    .join("\n")
    .trim();
}
