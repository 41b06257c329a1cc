import { formatTimecode } from "../format";
import { authorityText } from "./authority-text";
import { writtenDate } from "./date-values";
import type { FieldDefinition } from "./field-definitions";

/**
 * A field's value as the text of one export cell (the record list's "all fields" export). Pure:
 * what the reader may see is decided before, by the caller — `relationTitles` holds only the
 * linked records the reader may read, `mediaLinks` only the record's own files — so a link to a
 * restricted record yields exactly what a deleted link does: nothing.
 *
 * Text and categories as written; dates as written (else their EDTF, as the editor shows them);
 * authority links `Label <URI>` one a line (authority-text.ts, as the form and the import write
 * them); relations as the linked titles; files as `name <URL>`; transcripts one turn a line;
 * index segments `01:05 Title`.
 */
export interface ExportFieldContext {
  /** Titles of the linked records the reader may read, by id. */
  relationTitles: ReadonlyMap<string, string>;
  /** The record's files the reader may fetch, by media id: `name <URL>`. */
  mediaLinks: ReadonlyMap<string, string>;
}

/** Several values in one cell, one a line (RFC 4180 quotes the line breaks). */
const joinLines = (parts: readonly string[]) => parts.filter(Boolean).join("\n");

/** A transcript value as text: a string as it is, turns one a line (also the history's diff). */
export function transcriptText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    return value
      .map((segment) => (segment && typeof segment === "object" && "text" in segment ? String((segment as { text: unknown }).text) : JSON.stringify(segment)))
      .join("\n");
  return value === undefined || value === null ? "" : JSON.stringify(value);
}

function segmentsText(value: unknown): string {
  if (!Array.isArray(value)) return "";
  return joinLines(
    value.map((segment) => {
      if (!segment || typeof segment !== "object") return "";
      const { start, title } = segment as { start?: unknown; title?: unknown };
      const heading = typeof title === "string" ? title.trim() : "";
      return typeof start === "number" ? `${formatTimecode(start)} ${heading}`.trim() : heading;
    }),
  );
}

export function exportFieldText(field: FieldDefinition, value: unknown, context: ExportFieldContext): string {
  if (value === undefined || value === null) return "";
  switch (field.type) {
    case "text":
    case "longtext":
    case "category":
      return typeof value === "string" ? value : "";
    case "date":
    case "daterange":
      return writtenDate(value);
    case "authority":
      return authorityText(value);
    case "relation":
      return joinLines((Array.isArray(value) ? value : [value]).map((id) => (typeof id === "string" ? (context.relationTitles.get(id) ?? "") : "")));
    case "image":
    case "media":
    case "scan":
      return typeof value === "string" ? (context.mediaLinks.get(value) ?? "") : "";
    case "transcript":
      return transcriptText(value);
    case "segments":
      return segmentsText(value);
  }
}
