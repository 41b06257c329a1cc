import { foldAccents } from "../language/fold-accents";
import { monthNumbers } from "../language/language-data";
/**
 * Dates as archivists write them, read into the Library of Congress's Extended Date/Time Format
 * (EDTF, ISO 8601-2): levels 0 and 1 (approximate `~`, uncertain `?`, both `%`, unspecified digits
 * `18XX`, seasons `1950-21`…`24`, intervals with open `..` or unknown ends) and, from level 2,
 * unspecified digits anywhere (`1985-XX-12`) and sets (`[1850, 1860]` one of, `{1850, 1860}` all of).
 * `readWrittenDate` also reads what catalogues write in English, Spanish and Catalan ("c. 1850",
 * "1850-1860", "1850s", "18th century", "s. XVIII", "finales del siglo XIX", "cap a 1850").
 * Pure: no clock, no locale.
 *
 * The interval a date covers is what it states: "1850~" covers 1850 (a qualifier says how sure the
 * cataloguer is, not how wide the date is), "185X" 1850–1859, "17XX" 1700–1799, a season its whole
 * year (EDTF's seasons 21–24 name no hemisphere). An open or unknown end of an interval
 * ("1850/..", "1850/") counts, in years, as its known end.
 *
 * Years before the common era: EDTF counts them as ISO 8601 does, with a year zero ("0000" is 1 BC,
 * "-0399" is 400 BC); the app's years (`years`, ranges' `{ from, to }`, the filters) count as
 * historians do, without one (-400 is 400 BC). `edtfYear` and the parser convert; dates written in
 * words or as short signed years ("400 BC", "-400") are the historians' years.
 */

export type DateQualifier = "" | "?" | "~" | "%";

export interface DateReading {
  /** The EDTF string, normalised (4-digit years, intervals with "/"). */
  edtf: string;
  /** The first and last day the date covers ("1850-01-01"), null for an open or unknown end. */
  earliest: string | null;
  latest: string | null;
  /** The first and last year covered, for filters and facets; an open end counts as the other end. */
  years: { from: number; to: number } | null;
  /** The EDTF in English words: "c. 1850", "1850s", "Spring 1950", "1850 – 1860". */
  display: string;
  /** Whether any part is approximate (`~`, `%`) or uncertain (`?`, `%`). */
  approximate: boolean;
  uncertain: boolean;
}

export type DateResult = { ok: true; reading: DateReading } | { ok: false; problem: string };

export const minYear = -10_000;
export const maxYear = 9_999;

const monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const seasonNames: Record<number, string> = { 21: "Spring", 22: "Summer", 23: "Autumn", 24: "Winter" };

interface Day {
  year: number;
  month: number;
  day: number;
}

/** One date of an EDTF value, with the days it may be. */
interface Single {
  edtf: string;
  first: Day;
  last: Day;
  display: string;
  qualifier: DateQualifier;
}

/** Days in a month of an ISO 8601 (proleptic Gregorian) year. */
export function monthLength(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
}

function pad(value: number, length: number): string {
  return String(value).padStart(length, "0");
}

/** The ISO 8601 (EDTF) year of an app year: 1 BC (-1) is year 0000, 400 BC (-400) is -0399. */
export function isoYearOf(year: number): number {
  return year < 0 ? year + 1 : year;
}

/** The app's year of an ISO 8601 (EDTF) year: 0000 is 1 BC (-1), -0399 is 400 BC (-400). */
export function appYearOf(isoYear: number): number {
  return isoYear <= 0 ? isoYear - 1 : isoYear;
}

/** An ISO year as EDTF writes it: four digits at least, a sign before year zero, "Y" past four. */
function isoYearText(isoYear: number): string {
  const digits = pad(Math.abs(isoYear), 4);
  return `${digits.length > 4 ? "Y" : ""}${isoYear < 0 ? "-" : ""}${digits}`;
}

/** An app year as EDTF writes it (400 BC → "-0399"; see the note on years above). */
export function edtfYear(year: number): string {
  return isoYearText(isoYearOf(year));
}

function dayText(day: Day): string {
  return `${edtfYear(day.year)}-${pad(day.month, 2)}-${pad(day.day, 2)}`;
}

function compare(a: Day, b: Day): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

function yearWords(year: number): string {
  return year < 0 ? `${-year} BC` : String(year);
}

/** The values 1…max a two-character pattern of digits and X may be. */
function candidates(pattern: string, max: number): number[] {
  const out: number[] = [];
  for (let value = 1; value <= max; value++) {
    const text = pad(value, 2);
    if ([...pattern].every((char, index) => char === "X" || char === text[index])) out.push(value);
  }
  return out;
}

const singlePattern = /^(Y-?\d{5,}|-?[\dX]{4})(?:-([\dX]{2})(?:-([\dX]{2}))?)?([?~%])?$/;

/** One EDTF date ("1850", "1850-04~", "18XX", "1950-21", "1985-XX-12?"). */
function parseSingle(text: string): Single | string {
  const match = singlePattern.exec(text);
  if (!match) return "unreadable";
  const [, yearText = "", monthText, dayTextValue, qualifier = ""] = match;
  const negative = yearText.replace(/^Y/, "").startsWith("-");
  const yearDigits = yearText.replace(/^Y-?|^-/, "");
  if (yearText.startsWith("Y") && yearDigits.includes("X")) return "unreadable";
  const low = Number(yearDigits.replaceAll("X", "0"));
  const high = Number(yearDigits.replaceAll("X", "9"));
  const [isoFirst, isoLast] = negative ? [-high, -low] : [low, high];
  const [yearFirst, yearLast] = [appYearOf(isoFirst), appYearOf(isoLast)];
  if (yearFirst < minYear || yearLast > maxYear || (negative && high === 0)) return "out of range";
  const edtfYearText = yearText.startsWith("Y") ? isoYearText(negative ? -low : low) : yearText;
  // Leap years by the ISO year (1 BC, year 0000, was one).
  const daysInMonth = (year: number, month: number) => monthLength(isoYearOf(year), month);
  const q = qualifier as DateQualifier;
  if (monthText === undefined) {
    const unspecified = (yearDigits.match(/X+$/) ?? [""])[0].length;
    if (yearDigits.slice(0, yearDigits.length - unspecified).includes("X")) {
      return single(
        `${edtfYearText}${q}`,
        { year: yearFirst, month: 1, day: 1 },
        { year: yearLast, month: 12, day: 31 },
        `${yearWords(yearFirst)} – ${yearWords(yearLast)}`,
        q,
      );
    }
    const words = unspecified === 0 ? yearWords(yearFirst) : unspecified === 4 ? "some year" : `${yearWords(negative ? yearLast : yearFirst)}s`;
    return single(`${edtfYearText}${q}`, { year: yearFirst, month: 1, day: 1 }, { year: yearLast, month: 12, day: 31 }, words, q);
  }
  const monthNumber = /^\d{2}$/.test(monthText) ? Number(monthText) : null;
  if (monthNumber !== null && monthNumber >= 21 && monthNumber <= 24) {
    if (dayTextValue !== undefined) return "unreadable";
    return single(
      `${edtfYearText}-${monthText}${q}`,
      { year: yearFirst, month: 1, day: 1 },
      { year: yearLast, month: 12, day: 31 },
      `${seasonNames[monthNumber]} ${yearDigits.includes("X") ? edtfYearText : yearWords(yearFirst)}`,
      q,
    );
  }
  const months = candidates(monthText, 12);
  if (months.length === 0) return "no such month";
  const firstMonth = months[0]!;
  const lastMonth = months.at(-1)!;
  const edtfBase = `${edtfYearText}-${monthText}`;
  if (dayTextValue === undefined) {
    const words = yearDigits.includes("X") || monthText.includes("X") ? edtfBase : `${monthNames[firstMonth - 1]} ${yearWords(yearFirst)}`;
    return single(
      `${edtfBase}${q}`,
      { year: yearFirst, month: firstMonth, day: 1 },
      { year: yearLast, month: lastMonth, day: daysInMonth(yearLast, lastMonth) },
      monthText === "XX" && !yearDigits.includes("X") ? yearWords(yearFirst) : words,
      q,
    );
  }
  const days = candidates(dayTextValue, 31);
  if (days.length === 0) return "no such day";
  if (!yearDigits.includes("X") && !monthText.includes("X") && !dayTextValue.includes("X")) {
    const limit = daysInMonth(yearFirst, firstMonth);
    if (days[0]! > limit) return `not a date that exists: ${monthNames[firstMonth - 1]} ${yearWords(yearFirst)} has ${limit} days`;
    return single(
      `${edtfBase}-${dayTextValue}${q}`,
      { year: yearFirst, month: firstMonth, day: days[0]! },
      { year: yearFirst, month: firstMonth, day: days[0]! },
      `${days[0]} ${monthNames[firstMonth - 1]} ${yearWords(yearFirst)}`,
      q,
    );
  }
  const firstDay = days[0]!;
  const lastDay = Math.min(days.at(-1)!, daysInMonth(yearLast, lastMonth));
  if (days.every((day) => day > daysInMonth(yearFirst, firstMonth)) && months.length === 1 && !yearDigits.includes("X")) return "no such day";
  const plainYear = !yearDigits.includes("X");
  const words =
    dayTextValue !== "XX" || !plainYear
      ? `${edtfBase}-${dayTextValue}`
      : monthText === "XX"
        ? yearWords(yearFirst)
        : monthText.includes("X")
          ? `${edtfBase}-${dayTextValue}`
          : `${monthNames[firstMonth - 1]} ${yearWords(yearFirst)}`;
  return single(
    `${edtfBase}-${dayTextValue}${q}`,
    { year: yearFirst, month: firstMonth, day: firstDay },
    { year: yearLast, month: lastMonth, day: lastDay },
    words,
    q,
  );
}

function single(edtf: string, first: Day, last: Day, words: string, qualifier: DateQualifier): Single {
  const display = qualifier === "~" ? `c. ${words}` : qualifier === "?" ? `${words}?` : qualifier === "%" ? `c. ${words}?` : words;
  return { edtf, first, last, display, qualifier };
}

function reading(edtf: string, first: Day | null, last: Day | null, display: string, qualifiers: DateQualifier[]): DateReading {
  const fromYear = first?.year ?? last?.year;
  const toYear = last?.year ?? first?.year;
  return {
    edtf,
    earliest: first ? dayText(first) : null,
    latest: last ? dayText(last) : null,
    years: fromYear === undefined || toYear === undefined || edtf.replace(/[?~%]/g, "") === "XXXX" ? null : { from: fromYear, to: toYear },
    display,
    approximate: qualifiers.some((q) => q === "~" || q === "%"),
    uncertain: qualifiers.some((q) => q === "?" || q === "%"),
  };
}

/** A single date's problem as parseEdtf reports it: a day that does not exist and a year out of range keep their words. */
function problemFor(detail: string): string {
  return detail.startsWith("not a date") || detail === "out of range" ? detail : "unreadable";
}

/**
 * A strict EDTF value: a date, an interval ("1850/1860", "1850/..", "../1850", "1850/"), or a set
 * ("[1850, 1860..1862]" one of, "{1850, 1860}" all of). A problem is "unreadable", "starts after it
 * ends" or "not a date that exists: …".
 */
export function parseEdtf(input: string): DateResult {
  const text = input.trim();
  const set = /^([[{])(.*)([\]}])$/.exec(text);
  if (set) {
    const [, open, body = "", close] = set;
    if ((open === "[") !== (close === "]")) return { ok: false, problem: "unreadable" };
    const members = body.split(",").map((member) => member.trim());
    const parts: Single[][] = [];
    for (const member of members) {
      const ends = member.split("..");
      if (ends.length > 2 || ends.some((end) => end === "")) return { ok: false, problem: "unreadable" };
      const parsed = ends.map(parseSingle);
      const failed = parsed.find((part): part is string => typeof part === "string");
      if (failed) return { ok: false, problem: problemFor(failed) };
      const singles = parsed as Single[];
      if (singles.length === 2 && compare(singles[0]!.first, singles[1]!.last) > 0) return { ok: false, problem: "starts after it ends" };
      parts.push(singles);
    }
    const all = parts.flat();
    const first = all.map((part) => part.first).sort(compare)[0]!;
    const last = all
      .map((part) => part.last)
      .sort(compare)
      .at(-1)!;
    const words = parts.map((part) => part.map((one) => one.display).join(" – "));
    const joined = words.length > 1 ? `${words.slice(0, -1).join(", ")} ${open === "[" ? "or" : "and"} ${words.at(-1)}` : words[0]!;
    const edtf = `${open}${parts.map((part) => part.map((one) => one.edtf).join("..")).join(", ")}${close}`;
    return {
      ok: true,
      reading: reading(
        edtf,
        first,
        last,
        open === "[" ? `one of ${joined}` : joined,
        all.map((one) => one.qualifier),
      ),
    };
  }
  const slash = text.split("/");
  if (slash.length > 2) return { ok: false, problem: "unreadable" };
  if (slash.length === 1) {
    const one = parseSingle(text);
    if (typeof one === "string") return { ok: false, problem: problemFor(one) };
    return { ok: true, reading: reading(one.edtf, one.first, one.last, one.display, [one.qualifier]) };
  }
  const [startText = "", endText = ""] = slash;
  const open = (part: string) => part === ".." || part === "";
  if (open(startText) && open(endText)) return { ok: false, problem: "unreadable" };
  const start = open(startText) ? null : parseSingle(startText);
  const end = open(endText) ? null : parseSingle(endText);
  if (typeof start === "string") return { ok: false, problem: problemFor(start) };
  if (typeof end === "string") return { ok: false, problem: problemFor(end) };
  if (start && end && compare(start.first, end.last) > 0) return { ok: false, problem: "starts after it ends" };
  const edtf = `${start?.edtf ?? startText}/${end?.edtf ?? endText}`;
  const display = !start
    ? endText === ".."
      ? ""
      : startText === ".."
        ? `until ${end!.display}`
        : `? – ${end!.display}`
    : !end
      ? endText === ".."
        ? `${start.display} onwards`
        : `${start.display} – ?`
      : `${start.display} – ${end.display}`;
  return { ok: true, reading: reading(edtf, start?.first ?? null, end?.last ?? null, display, [start?.qualifier ?? "", end?.qualifier ?? ""]) };
}

// ── Dates as written ────────────────────────────────────────────────────────────────────────────

/** Month names of en, es and ca (lib/language), folded, and the abbreviations and variants archivists write. */
const months: Record<string, number> = {};
for (const [name, month] of monthNumbers) months[name] = month;
const monthVariants = [
  ["jan ene gen", 1],
  ["feb", 2],
  ["mar", 3],
  ["apr abr", 4],
  ["jun", 6],
  ["jul", 7],
  ["aug ago", 8],
  ["sept sep setiembre set", 9],
  ["oct", 10],
  ["nov", 11],
  ["dec dic des", 12],
] as const;
for (const [words, month] of monthVariants) for (const word of words.split(" ")) months[word] = month;
const seasons: Record<string, number> = {
  spring: 21,
  primavera: 21,
  summer: 22,
  verano: 22,
  estiu: 22,
  autumn: 23,
  fall: 23,
  otono: 23,
  tardor: 23,
  winter: 24,
  invierno: 24,
  hivern: 24,
};

const circaWords = new RegExp(
  `^(?:${[
    "c",
    "ca",
    "cca",
    "circa",
    "approx",
    "approximately",
    "about",
    "around",
    "aprox",
    "aproximadamente",
    "hacia",
    "hacia el",
    "hacia la",
    "alrededor de",
    "alrededor del",
    "entorn de",
    "entorn del",
    "cap a",
    "cap al",
    "cap el",
    "vers",
  ]
    .sort((a, b) => b.length - a.length)
    .join("|")})(?:\\.\\s*|\\s+|(?=\\d))(?=\\S)`,
);
const rangeWords = /^(?:from |de |des de |del |between |entre )?(.+?)\s*(?:\s(?:to|until|a|al|hasta|fins a|fins al|and|y|e|i)\s|–|—|\s-\s|\/|\.\.)\s*(.+)$/;
const centuryQualifiers: [RegExp, number, number][] = [
  [/^(?:early|beginning of the|principios del?|comienzos del?|inicios del?|principis del?|inicis del?|comencaments del?)\s*/, 0, 33],
  [/^(?:middle of the|mid-|mid|mediados del?|mitjan|mitjans del?)\s*/, 33, 66],
  [/^(?:late|end of the|finales del?|fines del?|final del?|finals del?|acabaments del?)\s*/, 66, 99],
  [/^(?:first half of the|primera mitad del?|primera meitat del?)\s*/, 0, 49],
  [/^(?:second half of the|segunda mitad del?|segona meitat del?)\s*/, 50, 99],
];

function roman(text: string): number | null {
  if (!/^[ivxlc]+$/.test(text)) return null;
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
  let total = 0;
  for (let index = 0; index < text.length; index++) {
    const value = values[text[index]!]!;
    const next = values[text[index + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** "18th century", "s. XVIII", "siglo 19", "segle XVIII" (with early/mid/late) → EDTF. */
function readCentury(text: string): string | null {
  let rest = text;
  let span: [number, number] | null = null;
  for (const [pattern, from, to] of centuryQualifiers) {
    if (pattern.test(rest)) {
      rest = rest.replace(pattern, "");
      span = [from, to];
      break;
    }
  }
  const english = /^(\d{1,2})(?:st|nd|rd|th)\s+(?:century|cent\.?|c\.?)$/.exec(rest);
  const latin = /^(?:siglo|segle|sig\.?|s\.?)\s*([ivxlc]+|\d{1,2})(?:\s*(?:d\.?\s?c\.?|dc))?$/.exec(rest);
  const numberText = english?.[1] ?? latin?.[1];
  if (numberText === undefined) return null;
  const century = /^\d+$/.test(numberText) ? Number(numberText) : roman(numberText);
  if (!century || century < 1 || century > 99) return null;
  const base = (century - 1) * 100;
  if (!span) return `${pad(century - 1, 2)}XX`;
  return `${edtfYear(base + span[0])}/${edtfYear(base + span[1])}`;
}

const beforeEra = "(?:bce|bc|b\\.c\\.e\\.?|b\\.c\\.?|a\\.\\s?c\\.?|ac|a\\.\\s?n\\.\\s?e\\.?|ane)";
const commonEra = "(?:ce|ad|a\\.d\\.?|d\\.\\s?c\\.?|dc)";
const beforeEraYear = new RegExp(`^(\\d{1,4})\\s*${beforeEra}$`);
const commonEraYear = new RegExp(`^(?:(?:ad|a\\.d\\.)\\s*(\\d{1,4})|(\\d{1,4})\\s*${commonEra})$`);
const beforeEraRange = new RegExp(`^(\\d{1,4})\\s*(?:${beforeEra})?\\s*(?:-|–|—|to|a|al|hasta|fins a|fins al)\\s*(\\d{1,4})\\s*${beforeEra}$`);

/** "400 BC", "400 a.C.", "400 aC", "400 a.n.e." (negative), "AD 14", "14 d.C." (positive); null otherwise. */
function eraYear(text: string): number | null {
  const before = beforeEraYear.exec(text);
  if (before) return Number(before[1]) === 0 ? null : -Number(before[1]);
  const common = commonEraYear.exec(text);
  if (common) return Number(common[1] ?? common[2]) || null;
  return null;
}

/** One written date without "c." or a range: a year, a month, a day, a decade, a century. */
function readOne(text: string): string | null {
  if (/^-?[\dX]{4}(?:-[\dX]{2}){0,2}[?~%]?$/.test(text.toUpperCase())) return text.toUpperCase();
  // A short signed year is the historians' ("-400" is 400 BC), as are years with an era.
  const short = /^(-?)(\d{1,3})((?:-\d{2}){0,2})$/.exec(text);
  if (short) return `${edtfYear(short[1] ? -Number(short[2]) : Number(short[2]))}${short[3]}`;
  const era = eraYear(text);
  if (era !== null) return edtfYear(era);
  const decade = /^(?:the |los |las |els |anos |anys |decada de (?:los )?|decada del |decada de l'|la decada de )?(\d{3})0\s*'?s?$/.exec(text);
  if (decade && (/s$/.test(text) || /^(?:anos|anys|decada|la decada|los|las|els)/.test(text))) {
    const digits = decade[1]!;
    return digits.endsWith("0") && /s$/.test(text) ? `${digits.slice(0, 2)}XX` : `${digits}X`;
  }
  const century = readCentury(text);
  if (century) return century;
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text);
  if (dmy) return `${dmy[3]}-${pad(Number(dmy[2]), 2)}-${pad(Number(dmy[1]), 2)}`;
  const numericMonthYear = /^(\d{1,2})[./-](\d{4})$/.exec(text);
  if (numericMonthYear) return `${numericMonthYear[2]}-${pad(Number(numericMonthYear[1]), 2)}`;
  const ymd = /^(\d{4})[./](\d{1,2})[./](\d{1,2})$/.exec(text);
  if (ymd) return `${ymd[1]}-${pad(Number(ymd[2]), 2)}-${pad(Number(ymd[3]), 2)}`;
  const words = text
    .replace(/,/g, " ")
    .replace(/\b(?:de|del|d')\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const dayMonthYear = /^(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.? (\d{3,4})$/.exec(words);
  if (dayMonthYear && months[dayMonthYear[2]!])
    return `${pad(Number(dayMonthYear[3]), 4)}-${pad(months[dayMonthYear[2]!]!, 2)}-${pad(Number(dayMonthYear[1]), 2)}`;
  const monthDayYear = /^([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)? (\d{3,4})$/.exec(words);
  if (monthDayYear && months[monthDayYear[1]!])
    return `${pad(Number(monthDayYear[3]), 4)}-${pad(months[monthDayYear[1]!]!, 2)}-${pad(Number(monthDayYear[2]), 2)}`;
  const monthYear = /^([a-z]+)\.? (\d{3,4})$/.exec(words);
  if (monthYear && months[monthYear[1]!]) return `${pad(Number(monthYear[2]), 4)}-${pad(months[monthYear[1]!]!, 2)}`;
  if (monthYear && seasons[monthYear[1]!]) return `${pad(Number(monthYear[2]), 4)}-${seasons[monthYear[1]!]}`;
  return null;
}

/** Lower case, accents and apostrophe variants folded, spaces collapsed. */
function fold(text: string): string {
  return foldAccents(text).replace(/[’‘`]/g, "'").replace(/·/g, "").toLowerCase().replace(/\s+/g, " ").trim();
}

function withQualifier(edtf: string, qualifier: "~" | "?" | "%"): string {
  const add = (part: string) => {
    if (part === "" || part === "..") return part;
    const existing = /[?~%]$/.exec(part)?.[0];
    if (!existing) return `${part}${qualifier}`;
    return existing === qualifier ? part : `${part.slice(0, -1)}%`;
  };
  return edtf.split("/").map(add).join("/");
}

/** What a written date, folded, without qualifiers, may be in EDTF: a date, or an interval of two. */
function readForms(text: string): string[] {
  const forms: string[] = [];
  const one = readOne(text);
  if (one !== null) forms.push(one);
  const range = rangeWords.exec(text);
  if (range) {
    const ends = [range[1]!, range[2]!].map((end) => {
      const circa = circaWords.test(end);
      // A bare one- or two-digit end is a month or a typo, never a year: "04/1962" is not 4 to 1962.
      if (/^\d{1,2}$/.test(end.trim())) return null;
      const read = readOne(end.replace(circaWords, ""));
      return read === null || read.includes("/") ? null : circa ? withQualifier(read, "~") : read;
    });
    if (ends[0] && ends[1]) forms.push(`${ends[0]}/${ends[1]}`);
  }
  // "400-380 BC": the era said once for both ends.
  const eraRange = beforeEraRange.exec(text);
  if (eraRange && Number(eraRange[1]) > 0 && Number(eraRange[2]) > 0) forms.push(`${edtfYear(-Number(eraRange[1]))}/${edtfYear(-Number(eraRange[2]))}`);
  const abbreviated = /^(-?\d{2})(\d{2})\s*[-–—]\s*(\d{2})$/.exec(text);
  if (abbreviated && Number(abbreviated[3]) > Number(abbreviated[2])) forms.push(`${abbreviated[1]}${abbreviated[2]}/${abbreviated[1]}${abbreviated[3]}`);
  const joined = /^(-?\d{3,4}|-\d{1,2})\s*[-–—]\s*(-\d{1,4}|\d{3,4})$/.exec(text);
  if (joined) forms.push(`${readOne(joined[1]!)}/${readOne(joined[2]!)}`);
  return forms;
}

/** The EDTF the written text may be, most likely first; none when nothing here can read it. */
function toEdtf(written: string): string[] {
  let text = fold(written);
  let uncertain = false;
  const question = /^¿\s*(.+?)\s*\?$/.exec(text) ?? /^(.+?)\s*\?$/.exec(text);
  if (question) {
    text = question[1]!.trim();
    uncertain = true;
  }
  let circa = false;
  const rest = text.replace(circaWords, "");
  if (rest !== text && readForms(rest).length > 0) {
    text = rest;
    circa = true;
  }
  return readForms(text).map((edtf) => {
    const approximate = circa ? withQualifier(edtf, "~") : edtf;
    return uncertain ? withQualifier(approximate, "?") : approximate;
  });
}

/**
 * A date as it was written, read: EDTF as it is ("1850~", "1850/1860", "18XX", "1923-05"), or the
 * forms catalogues use in English, Spanish and Catalan — "c. 1850", "ca. 1850", "circa 1850",
 * "hacia 1850", "cap a 1850" (approximate), "1850?" and "[1850?]" (uncertain), "1850-1860",
 * "1850–1860", "1850 to 1860", "entre 1850 y 1860", "1850-60" (intervals), "1850s", "años 1850"
 * (a decade; "1800s" is the century), "18th century", "s. XVIII", "siglo XVIII", "segle XVIII"
 * (a century: 1700–1799), with "early"/"mid"/"late" (its first, middle and last third:
 * 1800/1833, 1833/1866, 1866/1899), "first/second half of the", "principios/mediados/finales del",
 * "principis/mitjan/finals del", "primera/segunda mitad", "primera/segona meitat"; months and
 * seasons in words ("18 April 1962", "abril de 1962", "18 d'abril de 1962", "spring 1950") and
 * day-first numbers ("18/04/1962"). "1923-05" is May 1923, never the years 1923 to 5.
 */
export function readWrittenDate(written: string): DateResult {
  const text = written.replace(/\s+/g, " ").trim();
  if (text === "") return { ok: false, problem: "unreadable" };
  // A cataloguer's brackets ("[1850?]") mark a supplied date, not an EDTF set of one.
  const bracketed = /^\[([^,\]]*)\]$/.exec(text);
  if (bracketed && !bracketed[1]!.includes("..")) return readWrittenDate(bracketed[1]!);
  const strict = parseEdtf(text);
  if (strict.ok || strict.problem !== "unreadable") return strict;
  const results = toEdtf(text).map(parseEdtf);
  return results.find((result) => result.ok) ?? results.find((result) => !result.ok && result.problem !== "unreadable") ?? { ok: false, problem: "unreadable" };
}

/** The message for a date that could not be read, quoting it (shortened). */
export function dateProblemMessage(written: string, problem: string): string {
  const quoted = written.length > 60 ? `${written.slice(0, 60)}…` : written;
  if (problem === "unreadable") return `"${quoted}" could not be read: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX`;
  if (problem === "starts after it ends") return `"${quoted}" starts after it ends`;
  if (problem === "out of range") return `"${quoted}" is outside the years ${minYear} to ${maxYear}`;
  return `"${quoted}" is ${problem}`;
}
