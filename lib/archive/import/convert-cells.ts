import { archivalLanguage } from "../languages";
import { AppError } from "../../errors";
import { parseAuthorityLink, splitAuthorityText } from "../authority-text";
import type { FieldDefinition } from "../field-definitions";
import { parseTranscriptText } from "../transcript-text";
import type { RecordValues } from "../validate-record-values";
import { normaliseName } from "./suggest-mapping";
import type { ImportMapping, ImportProblem } from "./types";

/** Where each field's cells are: the checked mapping of one file to one section. */
export interface ResolvedMapping {
  externalIdIndex: number | null;
  externalIdColumn: string | null;
  /** Field key → its column (index into a row). */
  fields: Map<string, { column: string; index: number }>;
  /** Date range fields read from two columns. */
  rangeEnds: Map<string, { from?: { column: string; index: number }; to?: { column: string; index: number } }>;
  /** Authority fields whose labels come from a column of their own (`<key>.label`). */
  authorityLabels: Map<string, { column: string; index: number }>;
}

/**
 * Checks a mapping against the file's columns and the section's fields: every column is mapped
 * or ignored on purpose, every target is a field, no field is filled twice. A mistake here is
 * the file's, not a row's, so it is refused whole.
 */
export function resolveMapping(fields: readonly FieldDefinition[], columns: readonly string[], mapping: ImportMapping): ResolvedMapping {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const indexOf = new Map(columns.map((column, index) => [column, index]));
  const resolved: ResolvedMapping = { externalIdIndex: null, externalIdColumn: null, fields: new Map(), rangeEnds: new Map(), authorityLabels: new Map() };
  if (mapping.externalIdColumn !== undefined && mapping.externalIdColumn !== "") {
    const index = indexOf.get(mapping.externalIdColumn);
    if (index === undefined) throw bad(`The external id column "${mapping.externalIdColumn}" is not a column of the file.`);
    resolved.externalIdIndex = index;
    resolved.externalIdColumn = mapping.externalIdColumn;
  }
  for (const column of Object.keys(mapping.columns)) {
    if (!indexOf.has(column)) throw bad(`The mapping names the column "${column}", which the file does not have.`);
  }
  const unmapped = columns.filter((column) => !(column in mapping.columns) && column !== resolved.externalIdColumn);
  if (unmapped.length > 0) {
    throw bad(
      `The column${unmapped.length > 1 ? "s" : ""} ${unmapped.map((column) => `"${column}"`).join(", ")} match${unmapped.length > 1 ? "" : "es"} no field of the section: map ${unmapped.length > 1 ? "each" : "it"} to a field or ignore ${unmapped.length > 1 ? "them" : "it"}.`,
    );
  }
  const claimed = new Map<string, string>();
  for (const [column, target] of Object.entries(mapping.columns)) {
    if (target === null || target === "") continue;
    const index = indexOf.get(column) ?? 0;
    const earlier = claimed.get(target);
    if (earlier !== undefined) throw bad(`The columns "${earlier}" and "${column}" are both mapped to ${target}.`);
    claimed.set(target, column);
    const end = /^(.+)\.(from|to)$/.exec(target);
    if (end) {
      const [, key = "", side] = end;
      const field = byKey.get(key);
      if (field?.type !== "daterange") throw bad(`The column "${column}" is mapped to "${target}", but ${key} is not a date range field of the section.`);
      const ends = resolved.rangeEnds.get(key) ?? {};
      ends[side as "from" | "to"] = { column, index };
      resolved.rangeEnds.set(key, ends);
      continue;
    }
    const labelOf = /^(.+)\.label$/.exec(target);
    if (labelOf) {
      const key = labelOf[1] ?? "";
      if (byKey.get(key)?.type !== "authority")
        throw bad(`The column "${column}" is mapped to "${target}", but ${key} is not an authority field of the section.`);
      resolved.authorityLabels.set(key, { column, index });
      continue;
    }
    if (!byKey.has(target)) throw bad(`The column "${column}" is mapped to "${target}", which is not a field of the section.`);
    resolved.fields.set(target, { column, index });
  }
  const unmappedRequired = fields.filter((field) => field.required && !resolved.fields.has(field.key) && !claimed.has(`${field.key}.from`));
  if (unmappedRequired.length > 0) {
    throw bad(`Every record needs ${unmappedRequired.map((field) => field.label).join(", ")}: map a column to ${unmappedRequired.length > 1 ? "each" : "it"}.`);
  }
  for (const [key, label] of resolved.authorityLabels) {
    if (!resolved.fields.has(key)) throw bad(`The column "${label.column}" holds the labels of ${key}: map the column of its URIs to ${key} too.`);
  }
  for (const [key, ends] of resolved.rangeEnds) {
    if (resolved.fields.has(key)) throw bad(`The date range ${key} is mapped both to one column and to its from/to ends.`);
    if (!ends.from || !ends.to) throw bad(`The date range ${key} needs both a "${key}.from" and a "${key}.to" column.`);
  }
  return resolved;
}

function bad(message: string): AppError {
  return new AppError("bad_request", message);
}

/** What one row's cells say, before the database resolves relations and files. */
export interface ConvertedRow {
  values: RecordValues;
  externalId: string | null;
  /** Relation field → the external ids or titles its cell names. */
  relationTokens: Map<string, string[]>;
  /** Image/media field → the file name its cell names. */
  mediaNames: Map<string, string>;
  problems: Omit<ImportProblem, "row">[];
}

/**
 * A cell as the editor's value for its field: text kept as it is (a formula-looking cell is just
 * text), dates and date ranges as written ("c. 1850", "1920-1930", "18th century": read later like
 * the editor's, see edtf.ts), a category matched to its option ignoring case and accents, transcript lines in the
 * editor's `[mm:ss.s - mm:ss.s] Speaker: text` form (or JSON turns), several relations separated
 * by `;` or `|`, authority links as a URI or `Label <URI>` (several separated by `;` or line
 * breaks), their labels perhaps from a column of their own (authorityLinks).
 */
export function convertCells(fields: readonly FieldDefinition[], mapping: ResolvedMapping, cells: readonly string[]): ConvertedRow {
  const row: ConvertedRow = { values: {}, externalId: null, relationTokens: new Map(), mediaNames: new Map(), problems: [] };
  if (mapping.externalIdIndex !== null) row.externalId = (cells[mapping.externalIdIndex] ?? "").trim() || null;
  for (const field of fields) {
    const ends = mapping.rangeEnds.get(field.key);
    if (ends?.from && ends.to) {
      const from = (cells[ends.from.index] ?? "").trim();
      const to = (cells[ends.to.index] ?? "").trim();
      if (!from && !to) continue;
      if (!/^-?\d{1,5}$/.test(from) || !/^-?\d{1,5}$/.test(to)) {
        row.problems.push({
          column: !/^-?\d{1,5}$/.test(from) ? ends.from.column : ends.to.column,
          field: field.key,
          message: `${field.label} needs a whole year in both columns`,
        });
        continue;
      }
      row.values[field.key] = { from: Number(from), to: Number(to) };
      continue;
    }
    const source = mapping.fields.get(field.key);
    if (!source) continue;
    const raw = cells[source.index] ?? "";
    const fail = (message: string) => row.problems.push({ column: source.column, field: field.key, message: `${field.label} ${message}` });
    if (field.type === "authority") {
      const labelSource = mapping.authorityLabels.get(field.key);
      const read = authorityLinks(field, raw, labelSource ? (cells[labelSource.index] ?? "") : "");
      if ("problem" in read)
        row.problems.push({
          column: read.inLabels && labelSource ? labelSource.column : source.column,
          field: field.key,
          message: `${field.label} ${read.problem}`,
        });
      else if (read.value !== undefined) row.values[field.key] = read.value;
      continue;
    }
    if (!raw.trim()) continue;
    switch (field.type) {
      case "text":
      case "longtext":
        row.values[field.key] = raw;
        break;
      case "date":
        row.values[field.key] = raw.trim();
        break;
      case "daterange": {
        // As written ("1920-1930", "c. 1850", "1923-05": May 1923), read like the editor's; or stored JSON.
        const text = raw.trim();
        if (text.startsWith("{")) {
          const parsed = parseJson(text);
          if (parsed === undefined) fail("must be a range like 1920-1930");
          else row.values[field.key] = parsed;
          break;
        }
        row.values[field.key] = text;
        break;
      }
      case "category": {
        const wanted = normaliseName(raw);
        const option =
          field.options.find((candidate) => candidate === raw.trim()) ??
          field.options.find((candidate) => normaliseName(candidate) === wanted) ??
          sameLanguage(field.options, raw);
        if (option === undefined) fail(`must be one of: ${field.options.join(", ")} (not “${clip(raw.trim())}”)`);
        else row.values[field.key] = option;
        break;
      }
      case "relation": {
        const tokens = [
          ...new Set(
            raw
              .split(/[;|]/)
              .map((token) => token.trim())
              .filter(Boolean),
          ),
        ];
        if (!field.multiple && tokens.length > 1) fail("takes one record, but the cell names several");
        else row.relationTokens.set(field.key, tokens);
        break;
      }
      case "transcript": {
        const text = raw.trim();
        if (text.startsWith("[{")) {
          const parsed = parseJson(text);
          if (parsed === undefined) fail("is not valid JSON");
          else row.values[field.key] = parsed;
          break;
        }
        const parsed = parseTranscriptText(raw);
        if (parsed.ok) row.values[field.key] = parsed.turns;
        else row.problems.push({ column: source.column, field: field.key, message: `${field.label}: ${parsed.error}` });
        break;
      }
      case "image":
      case "media":
        row.mediaNames.set(field.key, raw.trim());
        break;
    }
  }
  return row;
}

/**
 * An authority cell's links, checked later like the editor's (a URI that is not an accepted
 * authority's is quoted then): a URI or `Label <URI>`, several in a multiple field's cell
 * separated by `;` or line breaks, or the stored JSON (a JSON file's object). A label column's
 * cell holds the labels the same way, one for each URI in order, and wins over a label written
 * beside the URI. A problem (to follow the field's label) when the two do not pair up.
 */
function authorityLinks(
  field: Extract<FieldDefinition, { type: "authority" }>,
  uriCell: string,
  labelCell: string,
): { value?: unknown } | { problem: string; inLabels: boolean } {
  const split = (text: string) => (field.multiple ? splitAuthorityText(text, { semicolons: true }) : text.trim() ? [text.trim()] : []);
  const labels = split(labelCell).map((label) => label.replace(/\s+/g, " "));
  const written = uriCell.trim();
  if (written.startsWith("{") || written.startsWith("[")) {
    const parsed = parseJson(written);
    if (parsed === undefined) return { problem: `is not valid JSON (write a URI, or Label <URI>)`, inLabels: false };
    if (labels.length > 0) return { problem: "has its links as JSON: leave its label column empty", inLabels: true };
    return { value: parsed };
  }
  const links = split(uriCell).map(parseAuthorityLink);
  if (labels.length === 0) return { value: links.length === 0 ? undefined : field.multiple ? links : links[0] };
  if (links.length === 0) return { problem: `has the label “${clip(labels.join("; "))}” but no URI`, inLabels: false };
  if (labels.length !== links.length) {
    return {
      problem: `has ${links.length} URI${links.length > 1 ? "s" : ""} but ${labels.length} label${labels.length > 1 ? "s" : ""}: give one label for each URI, in the same order`,
      inLabels: true,
    };
  }
  const labelled = links.map((link, index) => ({ uri: link.uri, label: labels[index] }));
  return { value: field.multiple ? labelled : labelled[0] };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A cell quoted in a message, shortened. */
export function clip(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/**
 * The option naming the same language as the cell, for a category of languages: "cat" or
 * "Catalan" (as EAD3 and other catalogues write them) is the option "ca". Only a known language
 * matches (languages.ts), never a guess.
 */
function sameLanguage(options: readonly string[], cell: string): string | undefined {
  const code = archivalLanguage(cell)?.code;
  if (!code) return undefined;
  const matches = options.filter((option) => archivalLanguage(option)?.code === code);
  return matches.length === 1 ? matches[0] : undefined;
}
