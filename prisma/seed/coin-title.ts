/**
 * Parser for the coin titles of the heritage coin data (see data/heritage/README.md).
 *
 * Four title styles occur (checked against every line of coins-subset-2284.jsonl):
 *  - descriptive (ANS, UVa): "[Metal ]Denomination[ of Ruler][, Mint][, Date]. Accession[.]"
 *      "Silver 4 drachm (tetradrachm), Athens, 400 BC - 380 BC. 1968.34.55"
 *      "Denarius of M. Herennius, Rome, 108-107 B.C. 2012.94."
 *  - catalogue reference (ANS): "RIC I (second edition) Nero 53. 1944.100.39424",
 *      "RIC IV Septimius Severus 125A (denarius). 1986.161.107", "RRC 289/1. 1896.7.36"
 *  - Portable Antiquities Scheme: "LVPL-83DE4C: A coin issued by Faustina II"
 *
 * The parser only reports what the title says: anything it cannot read is null. Inferences
 * (metal from denomination, period from dates) live in coin-classify.ts.
 */
import type { DateRangeValue } from "../../lib/archive/field-definitions";

export const COIN_METALS = ["gold", "silver", "bronze", "copper", "billon", "electrum", "brass", "lead", "orichalcum"] as const;
export type CoinMetal = (typeof COIN_METALS)[number];

export type CoinTitleStyle = "descriptive" | "reference" | "pas" | "unparsed";

export interface ParsedCoin {
  style: CoinTitleStyle;
  metal: CoinMetal | null;
  denomination: string | null;
  ruler: string | null;
  mint: string | null;
  /** The date as written in the title, e.g. "400 BC - 380 BC". */
  dateText: string | null;
  /** dateText read as years (BCE negative); null when there is no readable date. */
  dateRange: DateRangeValue | null;
  /** Museum accession number, or the PAS find identifier. */
  accessionNumber: string | null;
  /** Catalogue reference for RIC/RRC titles, e.g. "RIC I (second edition) Nero 53". */
  reference: string | null;
}

const METAL_RE = new RegExp(`^(${COIN_METALS.join("|")})\\s+(.*)$`, "i");
/** Words that stand where a denomination would but name none. */
const NOT_A_DENOMINATION = new Set(["coin", "uncertain"]);
/** Issuers that are no person: the title then names no ruler. */
const NO_RULER_RE = /^(anonymous|republic|uncertain\b.*)$|\(uncertain\)$/i;
/** Cities that can follow "of" when the title has no separate mint ("Denarius of Rome, ..."). */
const MINT_NAMES = new Set([
  "Rome",
  "Athens",
  "Alexandria",
  "Alexandreia",
  "Antioch",
  "Constantinople",
  "Corinth",
  "Lugdunum",
  "Syracuse",
  "Treveri",
  "Ambracia",
  "Larissa",
  "Tyre",
  "Petra",
]);
/** PAS qualifiers dropped from the issuer: "Gallienus (sole reign)" → "Gallienus". */
const PAS_QUALIFIER_RE = /\s*\((?:as [^)]*|sole reign[^)]*|joint reign|emperor|official)\)\s*$/i;

const ERA_BC = /^(?:BC|B\.C\.|BCE)$/i;
const DATE_PART_RE = /^(?:(AD|A\.D\.)\s*)?(\d{1,4})(?:\s*(BC|B\.C\.|BCE|AD|A\.D\.|CE))?$/i;

/**
 * Reads "400 BC - 380 BC", "829 - 831", "AD 180 - AD 181", "108-107 B.C.", "9 B.C.-A.D. 40",
 * "A.D. 194", "ca. 1880". An era written only after the second year applies to both
 * ("108-107 B.C."); a year with no era is CE. Returns null for anything else.
 */
export function parseCoinDate(text: string): DateRangeValue | null {
  const cleaned = text.trim().replace(/^(?:ca\.|c\.|circa)\s*/i, "");
  const parts = cleaned.split(/\s*-\s*/);
  if (parts.length < 1 || parts.length > 2) return null;
  const read = parts.map((part) => {
    const m = DATE_PART_RE.exec(part);
    if (!m) return null;
    const era = m[1] ?? m[3] ?? null;
    return { year: Number(m[2]), bc: era ? ERA_BC.test(era) : null, explicit: era !== null };
  });
  if (read.some((r) => r === null)) return null;
  const [first, second] = read as { year: number; bc: boolean | null; explicit: boolean }[];
  if (!first) return null;
  if (!second) {
    const y = first.bc ? -first.year : first.year;
    return { from: y, to: y };
  }
  // "108-107 B.C.": the era of the second year carries back to the first.
  const firstBc = first.explicit ? first.bc === true : second.bc === true;
  const from = firstBc ? -first.year : first.year;
  const to = second.bc ? -second.year : second.year;
  if (from > to) return null;
  return { from, to };
}

const DATE_SHAPE_RE = /^(?:ca\.\s*)?(?:A\.?D\.?\s*)?\d{1,4}(?:\s*(?:B\.?C\.?|A\.?D\.?))?(?:\s*-\s*(?:A\.?D\.?\s*)?\d{1,4}(?:\s*(?:B\.?C\.?|A\.?D\.?))?)?$/i;

/** A segment shaped like a date, even one that does not read ("A.D. 33-A.D. 32"). */
function isDateSegment(segment: string): boolean {
  return DATE_SHAPE_RE.test(segment);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function cleanRuler(raw: string | null | undefined): string | null {
  const ruler = raw?.trim().replace(/\.$/, "") ?? "";
  if (!ruler || NO_RULER_RE.test(ruler)) return null;
  return ruler;
}

const EMPTY: Omit<ParsedCoin, "style"> = {
  metal: null,
  denomination: null,
  ruler: null,
  mint: null,
  dateText: null,
  dateRange: null,
  accessionNumber: null,
  reference: null,
};

function parsePas(title: string): ParsedCoin | null {
  const m = /^([A-Z]+-?[0-9A-F]+):\s+A coin (?:issued by (.+?)|with an unrecorded\/uncertain issuer)\.?$/.exec(title);
  if (!m) return null;
  const issuer = m[2]?.replace(PAS_QUALIFIER_RE, "") ?? null;
  return { ...EMPTY, style: "pas", accessionNumber: m[1] ?? null, ruler: cleanRuler(issuer) };
}

/** Splits "…body. 1944.100.123" into body and accession; accession tokens contain a digit. */
function splitAccession(title: string): { body: string; accession: string | null } {
  const m = /^(.*\S)\s+([A-Z0-9][A-Za-z0-9.\-/]*\d[A-Za-z0-9]*)\.?$/.exec(title.trim());
  if (!m || !m[1] || !m[2] || !m[1].endsWith(".")) return { body: title.trim(), accession: null };
  let body = m[1];
  // The sentence's full stop doubles as the abbreviation dot of "B.C." / "A.D.".
  if (!/(?:B\.C|A\.D)\.$/.test(body)) body = body.slice(0, -1);
  return { body, accession: m[2] };
}

function parseReference(body: string, accession: string | null): ParsedCoin | null {
  const base = { ...EMPTY, style: "reference" as const, accessionNumber: accession, reference: body };
  if (/^RRC \d+\/\d+[a-z]*$/.test(body)) return base;
  const ric = /^(RIC [IVX]+(?:, Part \d+)?(?: \([^)]*\))?) (.+?) (\d+[A-Za-z]*)(?: \(([a-z ]+)\))?$/.exec(body);
  if (!ric) return /^(RIC|RRC|RPC|BMC|SNG)\b/.test(body) ? base : null;
  return {
    ...base,
    ruler: cleanRuler(ric[2]),
    denomination: ric[4] ? capitalise(ric[4]) : null,
  };
}

function parseDescriptive(body: string, accession: string | null): ParsedCoin {
  const segments = body
    .split(/,\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  let dateText: string | null = null;
  const last = segments[segments.length - 1];
  if (segments.length > 1 && last !== undefined && isDateSegment(last)) {
    dateText = last;
    segments.pop();
  }
  const head = segments.shift() ?? "";
  let mint = segments.length > 0 ? segments.join(", ") : null;

  let metal: CoinMetal | null = null;
  let rest = head;
  for (let m = METAL_RE.exec(rest); m; m = METAL_RE.exec(rest)) {
    // "Billon Billon aspron trachy": the metal word can be repeated.
    metal = (m[1] ?? "").toLowerCase() as CoinMetal;
    rest = m[2] ?? "";
  }
  const ofAt = rest.indexOf(" of ");
  let denomination = (ofAt >= 0 ? rest.slice(0, ofAt) : rest).trim();
  let ruler = ofAt >= 0 ? cleanRuler(rest.slice(ofAt + 4)) : null;
  if (ruler && mint === null && MINT_NAMES.has(ruler)) {
    mint = ruler; // "Denarius of Rome, 111-110 B.C."
    ruler = null;
  }
  if (NOT_A_DENOMINATION.has(denomination.toLowerCase())) denomination = "";
  return {
    ...EMPTY,
    style: "descriptive",
    metal,
    denomination: denomination ? capitalise(denomination) : null,
    ruler,
    mint,
    dateText,
    dateRange: dateText ? parseCoinDate(dateText) : null,
    accessionNumber: accession,
  };
}

/** Parses one coin title; pure, never throws. */
export function parseCoinTitle(title: string): ParsedCoin {
  const text = title.trim().replace(/\s+/g, " ");
  if (!text) return { ...EMPTY, style: "unparsed" };
  const pas = parsePas(text);
  if (pas) return pas;
  const { body, accession } = splitAccession(text);
  const reference = parseReference(body, accession);
  if (reference) return reference;
  // A bare phrase ("Lot of assorted items") is no descriptive title: those have an accession
  // number, a mint or date after a comma, or a leading metal.
  if (!accession && !body.includes(",") && !METAL_RE.test(body)) {
    return { ...EMPTY, style: "unparsed", accessionNumber: accession };
  }
  return parseDescriptive(body, accession);
}
