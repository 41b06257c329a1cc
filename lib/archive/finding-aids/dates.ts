import { readDateValue } from "../date-values";
import { edtfYear } from "../edtf";

/**
 * A record's date as the archival exchange formats take it: the text as written (or the EDTF in
 * words), and beside it a normalised form in the ISO 8601 shapes EAD3's `@normal` and EAC-CPF's
 * `@standardDate` expect — "1962-04-18", "1850", "1850/1860". EDTF says more than ISO 8601-1 can:
 * - a qualifier leaves the date and says how sure it is: "1850~" → 1850, certainty "approximate";
 *   "1850?" → "uncertain"; "1850%" (both) → "approximate-and-uncertain";
 * - unspecified digits, seasons and sets become the years they cover: "18XX" → "1800/1899",
 *   "1950-21" (spring) → "1950", "[1850, 1860]" → "1850/1860";
 * - an open or unknown end ("1850/..", "../1850") has no ISO 8601-1 form: no normal, the text only.
 * Pure.
 */
export interface ArchivalDate {
  /** As written when the value kept its text, else the EDTF in words ("c. 1850", "1850s"). */
  text: string;
  /** The EDTF stored. */
  edtf: string;
  /** ISO 8601: a date or an interval of two ("1850/1860"); none when it cannot be said so. */
  normal?: string;
  /** The two ends of `normal` when it is an interval, else both the date. */
  from?: string;
  to?: string;
  certainty?: "approximate" | "uncertain" | "approximate-and-uncertain";
}

const isoDate = /^-?\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

/** An app year (-400 is 400 BC) as ISO 8601 writes it, with its year zero ("-0399"); none past four digits. */
function isoYear(year: number): string | undefined {
  const text = edtfYear(year);
  return text.startsWith("Y") ? undefined : text;
}

/** The ISO 8601 form of a stored date or date-range value, or null when it holds no date. */
export function archivalDate(value: unknown): ArchivalDate | null {
  const date = readDateValue(value);
  if (!date) return null;
  const certainty: ArchivalDate["certainty"] =
    date.approximate && date.uncertain ? "approximate-and-uncertain" : date.approximate ? "approximate" : date.uncertain ? "uncertain" : undefined;
  const base: ArchivalDate = { text: date.shown, edtf: date.edtf, ...(certainty ? { certainty } : {}) };
  const ends = date.edtf.split("/");
  if (ends.some((end) => end === "" || end === "..") || !date.years) return base;
  const plain = ends.map((end) => end.replace(/[?~%]/g, ""));
  if (!/^[[{]/.test(date.edtf) && plain.every((end) => isoDate.test(end))) {
    const [from, to = from] = plain as [string, string?];
    return { ...base, normal: plain.join("/"), from, to };
  }
  // Unspecified digits, a season, a set: the years it covers.
  const from = isoYear(date.years.from);
  const to = isoYear(date.years.to);
  if (!from || !to) return base;
  return { ...base, normal: from === to ? from : `${from}/${to}`, from, to };
}

/** The years several dates cover together, as an ISO 8601 interval ("1850/1962") or one year. */
export function coveringYears(years: readonly { from: number | null; to: number | null }[]): { normal: string; from: string; to: string } | null {
  const starts = years.map((span) => span.from ?? span.to).filter((year): year is number => year !== null);
  const ends = years.map((span) => span.to ?? span.from).filter((year): year is number => year !== null);
  if (starts.length === 0 || ends.length === 0) return null;
  const from = isoYear(Math.min(...starts));
  const to = isoYear(Math.max(...ends));
  if (!from || !to) return null;
  return { normal: from === to ? from : `${from}/${to}`, from, to };
}
