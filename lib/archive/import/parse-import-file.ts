import { CsvError, type Info, Parser } from "csv-parse";
import { AppError } from "../../errors";
import { pieceEnd } from "../../text-pieces";
import { eacCpf2010Namespace, eacCpf2Namespace, eacCpfTable } from "./read-eac-cpf";
import { ead2002Namespace, ead3Namespace, ead3Steps } from "./read-ead3";
import { readXmlSteps } from "../xml/read-xml";
import type { ImportFile, ImportFormat, ParsedTable } from "./types";

/**
 * Reads an import file into a table of strings: CSV (RFC 4180 — quoted cells, doubled quotes,
 * line breaks inside quotes, CRLF, a byte-order mark; the delimiter `,`, `;` or tab sniffed from
 * the header), a JSON array of objects, JSON Lines, or XML: an EAD3 finding aid (a row per
 * component describing a unit, read-ead3.ts) or an EAC-CPF record (one row, read-eac-cpf.ts).
 * Pure. Anything it cannot read whole is refused with a message naming the line (or byte; line
 * and column for XML), so nothing half-read is ever imported. XML that declares entities is
 * refused (lib/archive/xml/read-xml.ts). Cells are kept exactly as text: a cell starting with `=` is a string,
 * never a formula.
 */
export function parseImportFile(file: ImportFile, maxBytes: number): ParsedTable {
  return runToEnd(parseSteps(file, maxBytes));
}

/**
 * parseImportFile in steps, awaiting `pause()` between them (every 64K characters of CSV or XML,
 * every thousand JSON lines and every 100 EAD3 components), so a large file does not
 * hold the event loop of a process that serves web requests. Same table, same refusals. Decoding the bytes, and parsing a JSON array, are one step each.
 */
export async function parseImportFileInSteps(file: ImportFile, maxBytes: number, pause: () => Promise<void>): Promise<ParsedTable> {
  const steps = parseSteps(file, maxBytes);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

/** A parse that yields (nothing) between its steps and returns the table. */
type Steps<T> = Generator<void, T, void>;

function runToEnd<T>(steps: Steps<T>): T {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

const recordsPerStep = 1000;

function* parseSteps(file: ImportFile, maxBytes: number): Steps<ParsedTable> {
  if (file.bytes.byteLength > maxBytes) {
    throw refuse(`The file is ${megabytes(file.bytes.byteLength)}; imports are limited to ${megabytes(maxBytes)}. Split it into smaller files.`);
  }
  const text = decodeUtf8(file.bytes);
  if (!/\S/.test(text)) throw refuse("The file is empty.");
  const format = importFormatOf(file.fileName, text);
  const table =
    format === "csv"
      ? yield* csvSteps(text)
      : format === "json"
        ? parseJsonArray(text)
        : format === "xml"
          ? yield* xmlSteps(text)
          : yield* jsonLinesSteps(text);
  if (table.rows.length === 0) throw refuse("The file has a header but no data rows.");
  return table;
}

function refuse(message: string): AppError {
  return new AppError("bad_request", message);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** How a file is read: XML becomes the EAD3 or EAC-CPF table its root element says. */
export type FileSyntax = Exclude<ImportFormat, "ead3" | "eac-cpf"> | "xml";

/**
 * The format from the extension; otherwise `[` means a JSON array, `{` JSON Lines, `<` XML,
 * anything else CSV.
 */
export function importFormatOf(fileName: string, text: string): FileSyntax {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === "csv" || extension === "tsv" || extension === "txt") return "csv";
  if (extension === "jsonl" || extension === "ndjson") return "jsonl";
  if (extension === "xml") return "xml";
  const first = text.trimStart()[0];
  if (extension === "json") return first === "{" ? "jsonl" : "json";
  if (first === "[") return "json";
  if (first === "{") return "jsonl";
  if (first === "<") return "xml";
  return "csv";
}

/** An XML file: its root says which reader makes the table. */
function* xmlSteps(text: string): Steps<ParsedTable> {
  const root = yield* readXmlSteps(text);
  if (root.name === "ead" && root.namespace === ead3Namespace) return yield* ead3Steps(root);
  if ((root.name === "eac-cpf" && root.namespace === eacCpf2010Namespace) || (root.name === "eac" && root.namespace === eacCpf2Namespace))
    return eacCpfTable(root);
  if (root.name === "ead" && (root.namespace === ead2002Namespace || root.namespace === "")) {
    throw refuse(
      `This is an EAD 2002 finding aid (an <ead> outside the EAD3 namespace); Mnemo reads EAD3 (an <ead> root in the namespace ${ead3Namespace}). Convert it to EAD3 first.`,
    );
  }
  throw refuse(
    `An XML import is an EAD3 finding aid (<ead xmlns="${ead3Namespace}">) or an EAC-CPF record (<eac-cpf xmlns="${eacCpf2010Namespace}"> or <eac xmlns="${eacCpf2Namespace}">); ` +
      `this file's root is <${root.name}>${root.namespace ? ` in the namespace ${root.namespace}` : " in no namespace"}.`,
  );
}

/** UTF-8 only (a leading byte-order mark is dropped); other encodings are named where they break. */
export function decodeUtf8(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw refuse("The file is UTF-16; save it as UTF-8 (CSV UTF-8 in spreadsheet programs) and import it again.");
  }
  let text: string;
  try {
    // In one call: decoding in pieces gave the event loop turns, but joining the pieces held it
    // as long as decoding the whole file at once.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8(bytes);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function notUtf8(bytes: Uint8Array): AppError {
  const offset = firstInvalidUtf8Byte(bytes);
  let line = 1;
  for (let index = 0; index < offset; index++) if (bytes[index] === 0x0a) line++;
  const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, "0");
  return refuse(`The file is not UTF-8: byte ${offset} (line ${line}) is 0x${byte}. Save it as UTF-8 (CSV UTF-8 in spreadsheet programs) and import it again.`);
}

/** The offset of the first byte that does not begin or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    let length = 0;
    let min = 0;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else return index;
    if (index + length > bytes.length) return index;
    let codePoint = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (let next = 1; next < length; next++) {
      const continuation = bytes[index + next] ?? 0;
      if ((continuation & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (continuation & 0x3f);
    }
    if (length > 1 && (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))) return index;
    index += length;
  }
  return bytes.length;
}

/** The delimiter used most in the header line (outside quotes): `,` `;` or tab; `,` on a tie. */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ",";
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

export function parseCsv(text: string): ParsedTable {
  return runToEnd(csvSteps(text));
}

/** Characters of CSV handed to csv-parse per step: the caller gives the event loop a turn between steps. */
const csvCharactersPerStep = 64 * 1024;

/**
 * CSV read by csv-parse, strictly as RFC 4180 has it: a quote inside an unquoted cell, or text
 * after a closing quote, is refused rather than guessed at. Each record's line is counted here
 * (csv-parse counts a CRLF inside a quoted cell as two lines): one past the previous record's
 * last line, plus the blank lines it skipped.
 */
function* csvSteps(text: string): Steps<ParsedTable> {
  const delimiter = sniffDelimiter(text);
  const parser = new Parser({ delimiter, record_delimiter: ["\r\n", "\n", "\r"], relax_column_count: true, skip_empty_lines: true, info: true });
  // Driven by hand, a step at a time: a problem is read from `errored` right after the write
  // that met it; the stream's later "error" event has nothing left to say.
  parser.on("error", () => {});
  const records: { cells: string[]; line: number }[] = [];
  let line = 1;
  let blankLines = 0;
  const take = () => {
    for (let read = parser.read() as { record: string[]; info: Info } | null; read !== null; read = parser.read() as typeof read) {
      line += read.info.empty_lines - blankLines;
      blankLines = read.info.empty_lines;
      records.push({ cells: read.record, line });
      line += read.record.reduce((breaks, cell) => breaks + countLineBreaks(cell), 0) + 1;
    }
    // csv-parse stops at the first problem; it is in the record that starts on `line`.
    if (parser.errored) throw csvRefusal(parser.errored, line);
  };
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, csvCharactersPerStep);
    parser.write(text.slice(start, end));
    start = end;
    take();
    if (start < text.length) yield;
  }
  parser.end();
  take();

  const [header, ...data] = records;
  if (!header) throw refuse("The file is empty.");
  const columns = header.cells.map((name) => name.trim());
  checkColumnNames(columns);
  for (const [position, record] of data.entries()) {
    if (record.cells.length !== columns.length) {
      throw refuse(
        `Line ${record.line} (row ${position + 1}) has ${record.cells.length} cells; the header has ${columns.length}. ` +
          `Check for a missing or extra "${delimiter === "\t" ? "tab" : delimiter}", or an unquoted one inside a cell.`,
      );
    }
  }
  return { format: "csv", columns, rows: data.map((record) => record.cells), lines: data.map((record) => record.line) };
}

function csvRefusal(error: Error, line: number): AppError {
  const code = error instanceof CsvError ? error.code : undefined;
  if (code === "CSV_QUOTE_NOT_CLOSED") return refuse(`Line ${line}: a quoted cell is never closed (a missing " ).`);
  if (code === "CSV_INVALID_CLOSING_QUOTE") return refuse(`Line ${line}: text after a closing quote; a quote inside a quoted cell is written twice ("").`);
  if (code === "INVALID_OPENING_QUOTE")
    return refuse(`Line ${line}: a quote inside a cell that is not quoted; put the whole cell in quotes and write the quote twice ("").`);
  return refuse(`Line ${line}: ${error.message}`);
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) count++;
  // A lone CR (old Mac line ends) is a line break too.
  for (let index = text.indexOf("\r"); index >= 0; index = text.indexOf("\r", index + 1)) if (text[index + 1] !== "\n") count++;
  return count;
}

function checkColumnNames(columns: string[]): void {
  const seen = new Map<string, number>();
  for (const [index, name] of columns.entries()) {
    if (!name) throw refuse(`Column ${index + 1} of the header has no name.`);
    const earlier = seen.get(name);
    if (earlier !== undefined) throw refuse(`The header names the column "${name}" twice (columns ${earlier + 1} and ${index + 1}).`);
    seen.set(name, index);
  }
}

type JsonObject = Record<string, unknown>;

function parseJsonArray(text: string): ParsedTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refuse(`The file is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (!Array.isArray(parsed)) throw refuse("A JSON import is an array of objects, one per record (or JSON Lines: one object per line).");
  parsed.forEach((item, index) => {
    if (!isObject(item)) throw refuse(`Item ${index + 1} of the JSON array is not an object.`);
  });
  return objectsToTable(
    "json",
    parsed as JsonObject[],
    parsed.map(() => 0),
  );
}

function* jsonLinesSteps(text: string): Steps<ParsedTable> {
  const objects: JsonObject[] = [];
  const lines: number[] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    if (index > 0 && index % recordsPerStep === 0) yield;
    const line = raw.trim();
    if (!line) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw refuse(`Line ${index + 1} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
    }
    if (!isObject(parsed)) throw refuse(`Line ${index + 1} is not a JSON object.`);
    objects.push(parsed);
    lines.push(index + 1);
  }
  return objectsToTable("jsonl", objects, lines);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Columns are the keys in order of first appearance; a missing key is an empty cell. */
function objectsToTable(format: ImportFormat, objects: JsonObject[], lines: number[]): ParsedTable {
  const columns: string[] = [];
  const known = new Set<string>();
  for (const object of objects) {
    for (const key of Object.keys(object)) {
      if (!known.has(key)) {
        known.add(key);
        columns.push(key);
      }
    }
  }
  checkColumnNames(columns.map((name) => name.trim()));
  const rows = objects.map((object) => columns.map((column) => jsonCell(object[column])));
  return { format, columns, rows, lines };
}

/**
 * A JSON value as the cell text the field converters read: scalars as text, a list of scalars
 * joined with " | " (the separator of multiple relations), anything else as JSON (a date range
 * object, transcript turns).
 */
export function jsonCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number")) return value.join(" | ");
  return JSON.stringify(value);
}
