import { formatYearRange } from "../format";
import { type DateReading, dateProblemMessage, edtfYear, parseEdtf, readWrittenDate } from "./edtf";
import type { FieldDefinition } from "./field-definitions";

/**
 * The stored values of date and date-range fields, read through one door. A date field holds an
 * EDTF string when it was written as EDTF ("1962-04-18", "1850~": the shape dates always had), or
 * `{ edtf, text }` when it was written otherwise ("c. 1850" → `{ edtf: "1850~", text: "c. 1850" }`).
 * A date range holds `{ from, to }` in years (the shape ranges always had, and the years the range
 * covers), with `edtf` and `text` when it was written as one date ("1923-05" →
 * `{ from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" }`). Values stored before EDTF are
 * read as they are; nothing is rewritten.
 */

export interface WrittenDateValue {
  edtf: string;
  text: string;
}

export interface DateValueReading extends DateReading {
  /** What to show: the text as written when one was kept, else the EDTF in words. */
  shown: string;
  /** What the editor shows to be changed: the text as written, else the EDTF. */
  written: string;
}

const maxWrittenText = 200;
const plainDate = /^-?\d{1,4}(?:-(?:0[1-9]|1[0-2])(?:-\d{2})?)?$/;
const plainYears = /^(-?\d{1,5})(?:\/(-?\d{1,5}))?$/;

/** How the editor asks for a date. */
export const dateHint = "As written: 1962-04-18, c. 1850, 1850-1860, 1850s, 18th century, s. XVIII, or EDTF (1850~, 18XX)";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A stored (or submitted) date or date-range value read, or null when it says no date. */
export function readDateValue(value: unknown): DateValueReading | null {
  if (typeof value === "string") {
    const result = readWrittenDate(value);
    if (!result.ok) return null;
    return { ...result.reading, shown: result.reading.edtf === value ? result.reading.display : value, written: value };
  }
  if (!isRecord(value)) return null;
  const text = typeof value.text === "string" && value.text.trim() ? value.text.trim() : undefined;
  if (typeof value.edtf === "string") {
    const result = parseEdtf(value.edtf);
    if (!result.ok) return null;
    return { ...result.reading, shown: text ?? result.reading.display, written: text ?? result.reading.edtf };
  }
  const { from, to } = value;
  if (typeof from !== "number" || typeof to !== "number" || !Number.isInteger(from) || !Number.isInteger(to)) return null;
  const result = parseEdtf(from === to ? edtfYear(from) : `${edtfYear(from)}/${edtfYear(to)}`);
  if (!result.ok) return null;
  return { ...result.reading, years: { from, to }, shown: formatYearRange(from, to), written: from === to ? String(from) : `${from}/${to}` };
}

/** The value as the record page and list show it: as written, else in words; "" when no date. */
export function shownDate(value: unknown): string {
  return readDateValue(value)?.shown ?? "";
}

/** A stored date's `{ edtf, text }` when it has both (a date written otherwise than EDTF), else null. */
export function keptDateOf(value: unknown): WrittenDateValue | null {
  return isRecord(value) && typeof value.edtf === "string" && typeof value.text === "string" ? { edtf: value.edtf, text: value.text } : null;
}

/** The value as the editor's text box holds it: as written, else its EDTF; "" when no date. */
export function writtenDate(value: unknown): string {
  return readDateValue(value)?.written ?? "";
}

type Checked = { value?: unknown; error?: string };

/** What was written (a string, or `{ edtf, text }` from the API), read; an error quotes the text. */
function readSubmitted(value: unknown): { reading: DateReading; text: string } | { error: string } | null {
  if (typeof value === "string") {
    const text = value.replace(/\s+/g, " ").trim();
    if (text.length > maxWrittenText) return { error: `must be at most ${maxWrittenText} characters` };
    const result = readWrittenDate(text);
    return result.ok ? { reading: result.reading, text } : { error: dateProblemMessage(text, result.problem) };
  }
  if (!isRecord(value) || (value.edtf === undefined && value.text === undefined)) return null;
  const { edtf, text } = value;
  if ((edtf !== undefined && typeof edtf !== "string") || (text !== undefined && typeof text !== "string")) return { error: "must have edtf and text as text" };
  const written = typeof text === "string" ? text.replace(/\s+/g, " ").trim() : "";
  if (written.length > maxWrittenText) return { error: `must be at most ${maxWrittenText} characters` };
  // An EDTF given beside the text wins: "during the war" may be stored as 1939/1945 with its words.
  if (typeof edtf === "string" && edtf.trim()) {
    const result = parseEdtf(edtf.trim());
    if (!result.ok) return { error: `${dateProblemMessage(edtf.trim(), result.problem).replace("could not be read: write", "is not EDTF: write")}` };
    return { reading: result.reading, text: written || result.reading.edtf };
  }
  return readSubmitted(written);
}

/** A date field's value checked and normalised to its stored shape (see above). */
export function checkDate(value: unknown): Checked {
  const submitted = readSubmitted(value);
  if (submitted === null) return { error: "must be a date like 1962-04-18, c. 1850, 1850/1860 or 18XX" };
  if ("error" in submitted) return { error: submitted.error };
  const { reading, text } = submitted;
  // A plain date ("1962-04-18", and "800" as dates were written before EDTF) stays the string it always was.
  if (text === reading.edtf || plainDate.test(text)) return { value: text };
  return { value: { edtf: reading.edtf, text } satisfies WrittenDateValue };
}

/** A date range's value: `{ from, to }` in whole years, or a date as written (stored with its years). */
export function checkDateRange(value: unknown): Checked {
  // Plain years ("1936", "-400/-380", as the editor writes a range without text) keep the range's old shape.
  const years = typeof value === "string" ? plainYears.exec(value.trim()) : null;
  if (years) {
    const checked = checkDateRange({ from: Number(years[1]), to: Number(years[2] ?? years[1]) });
    return checked.error === "from must not be after to" ? { error: dateProblemMessage(value as string, "starts after it ends") } : checked;
  }
  const submitted = readSubmitted(value);
  if (submitted !== null) {
    if ("error" in submitted) return { error: submitted.error };
    const { reading, text } = submitted;
    if (!reading.years) return { error: `"${text}" names no year` };
    return { value: { from: reading.years.from, to: reading.years.to, edtf: reading.edtf, text } };
  }
  if (!isRecord(value)) return { error: "must have a from and a to year" };
  const { from, to } = value;
  if (!Number.isInteger(from) || !Number.isInteger(to)) return { error: "from and to must be whole years" };
  if ((from as number) < -10_000 || (to as number) > 3_000) return { error: "years must be between -10000 and 3000" };
  if ((from as number) > (to as number)) return { error: "from must not be after to" };
  return { value: { from, to } };
}

/** The first date or date-range field's years, for the record's date filters, facets and sort. */
export function yearsOfDateFields(fields: readonly FieldDefinition[], values: Record<string, unknown>): { from: number | null; to: number | null } {
  for (const field of fields) {
    if (field.type !== "date" && field.type !== "daterange") continue;
    const value = values[field.key];
    if (value === undefined || value === null || value === "") continue;
    const years = readDateValue(value)?.years;
    if (years) return years;
  }
  return { from: null, to: null };
}
