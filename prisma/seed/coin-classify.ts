/**
 * Classification of parsed coin titles into the category values of the Coins section:
 * metal (title first, else a safe inference from the denomination), typology (normalised
 * denomination class) and period (from the dates and the context of the title).
 *
 * The typology options are derived from the data: each occurs in coins-subset-2284.jsonl (the
 * tests check that every typology option is used and every record's value is an option).
 * Denominations that occur fewer than three times, and fractions, fall in "other"; titles that
 * name no denomination (RRC/most RIC references, PAS finds, "Bronze Coin") are "unidentified".
 */
import type { DateRangeValue } from "../../lib/archive/field-definitions";
import type { CoinMetal, ParsedCoin } from "./coin-title";

/** Every metal the title parser knows (copper, brass and lead occur in no title of this
 * subset but do in the wider aggregation), plus "unknown". */
export const COIN_METAL_OPTIONS = ["gold", "silver", "bronze", "copper", "billon", "electrum", "brass", "lead", "orichalcum", "unknown"] as const;
export type CoinMetalOption = (typeof COIN_METAL_OPTIONS)[number];

export const COIN_TYPOLOGY_OPTIONS = [
  "decadrachm",
  "tetradrachm",
  "didrachm",
  "drachm",
  "hemidrachm",
  "obol",
  "stater",
  "siglos",
  "cistophorus",
  "chalkous",
  "unit",
  "aureus",
  "denarius",
  "quinarius",
  "antoninianus",
  "sestertius",
  "dupondius",
  "as",
  "nummus",
  "follis",
  "solidus",
  "semissis",
  "tremissis",
  "miliaresion",
  "histamenon",
  "aspron trachy",
  "hyperpyron",
  "other",
  "unidentified",
] as const;
export type CoinTypology = (typeof COIN_TYPOLOGY_OPTIONS)[number];

export const COIN_PERIOD_OPTIONS = [
  "Archaic Greek",
  "Classical Greek",
  "Hellenistic",
  "Iron Age",
  "Roman Republic",
  "Roman Imperial",
  "Late Roman",
  "Byzantine",
  "Early Medieval",
  "Medieval",
  "Early Modern",
  "Modern",
] as const;
export type CoinPeriod = (typeof COIN_PERIOD_OPTIONS)[number];

/** Denomination words (lower case, as in titles) → typology; fractions of a class are "other". */
const TYPOLOGY_BY_WORD: Record<string, CoinTypology> = {
  "10 drachm (decadrachm)": "decadrachm",
  decadrachm: "decadrachm",
  "4 drachm (tetradrachm)": "tetradrachm",
  tetradrachm: "tetradrachm",
  "2 drachm (didrachm)": "didrachm",
  didrachm: "didrachm",
  drachm: "drachm",
  hemidrachm: "hemidrachm",
  // the obol and its multiples and fractions
  obol: "obol",
  diobol: "obol",
  triobol: "obol",
  tetrobol: "obol",
  hemiobol: "obol",
  stater: "stater",
  siglos: "siglos",
  cistophorus: "cistophorus",
  chalkous: "chalkous",
  unit: "unit",
  aureus: "aureus",
  denarius: "denarius",
  quinarius: "quinarius",
  antoninianus: "antoninianus",
  sestertius: "sestertius",
  dupondius: "dupondius",
  as: "as",
  nummus: "nummus",
  follis: "follis",
  solidus: "solidus",
  semissis: "semissis",
  tremissis: "tremissis",
  miliaresion: "miliaresion",
  histamenon: "histamenon",
  "aspron trachy": "aspron trachy",
  hyperpyron: "hyperpyron",
};

export function coinTypology(denomination: string | null): CoinTypology {
  if (!denomination) return "unidentified";
  return TYPOLOGY_BY_WORD[denomination.toLowerCase()] ?? "other";
}

const ALWAYS_GOLD = new Set<CoinTypology>(["aureus", "solidus", "semissis", "tremissis", "hyperpyron"]);
const ALWAYS_SILVER = new Set<CoinTypology>(["denarius", "quinarius", "siglos", "cistophorus", "miliaresion"]);
const ALWAYS_BRONZE = new Set<CoinTypology>(["as", "nummus", "follis", "chalkous"]);
/** Greek silver denominations: silver when struck before the Roman period (bronze and billon
 * drachms and tetradrachms of Roman Egypt keep "unknown" unless the title says). */
const GREEK_SILVER = new Set<CoinTypology>(["decadrachm", "tetradrachm", "didrachm", "drachm", "hemidrachm", "obol"]);

/**
 * The metal the title states, else one the denomination fixes (aureus → gold, denarius →
 * silver, sestertius → orichalcum, antoninianus → silver before AD 250 and billon after),
 * else "unknown".
 */
export function coinMetal(parsed: ParsedCoin, typology: CoinTypology, date: DateRangeValue | null): CoinMetalOption {
  const stated: CoinMetal | null = parsed.metal;
  if (stated) return stated;
  const mid = date ? (date.from + date.to) / 2 : null;
  if (ALWAYS_GOLD.has(typology)) return "gold";
  if (ALWAYS_SILVER.has(typology)) return "silver";
  if (ALWAYS_BRONZE.has(typology)) return "bronze";
  if (typology === "sestertius" || typology === "dupondius") return "orichalcum";
  if (typology === "antoninianus" && mid !== null) return mid < 250 ? "silver" : "billon";
  if (GREEK_SILVER.has(typology) && mid !== null && date && date.to < -31) return "silver";
  return "unknown";
}

const ROMAN_TYPOLOGIES = new Set<CoinTypology>(["aureus", "denarius", "quinarius", "antoninianus", "sestertius", "dupondius", "as"]);
const WESTERN_MEDIEVAL_RE = /\bof (England|Mercia|Scotland|Wessex|Northumbria|East Anglia)$/;
const IRON_AGE_RULERS = new Set(["Cunobelin", "Tasciovanus", "Verica", "Epaticcus", "Addedomarus"]);

/** True when the issuer belongs to medieval or later western coinage (PAS finds). */
export function isWesternMedievalIssuer(ruler: string | null): boolean {
  return ruler !== null && WESTERN_MEDIEVAL_RE.test(ruler);
}

/**
 * Period from the middle of the date range and the title's context: BCE coins are Roman
 * Republic when the title is Roman (RRC reference, Roman denomination, Roman mint, PAS find),
 * else Greek by the conventional breaks (480 BC, 323 BC, 31 BC); CE coins are Roman Imperial
 * to AD 284, Late Roman to 491, then Byzantine — unless the issuer is a medieval English or
 * Mercian king or the coin a post-Roman PAS find (Early Medieval to 1066, Medieval to 1500,
 * Early Modern to 1800), or the issuer a British Iron Age ruler.
 */
export function coinPeriod(parsed: ParsedCoin, date: DateRangeValue | null): CoinPeriod | null {
  if (!date) return null;
  const mid = (date.from + date.to) / 2;
  if (parsed.ruler && IRON_AGE_RULERS.has(parsed.ruler)) return "Iron Age";
  // English and Mercian kings, and PAS finds (from England and Wales) after the Roman period.
  if (isWesternMedievalIssuer(parsed.ruler) || (parsed.style === "pas" && mid >= 491)) {
    if (mid < 1066) return "Early Medieval";
    if (mid < 1500) return "Medieval";
    return mid < 1800 ? "Early Modern" : "Modern";
  }
  if (mid < -27) {
    const roman =
      parsed.reference?.startsWith("RRC") === true ||
      ROMAN_TYPOLOGIES.has(coinTypology(parsed.denomination)) ||
      parsed.mint === "Rome" ||
      parsed.mint === "Hispania" ||
      parsed.style === "pas";
    if (roman) return "Roman Republic";
    if (mid < -480) return "Archaic Greek";
    if (mid < -323) return "Classical Greek";
    return mid < -31 ? "Hellenistic" : "Roman Imperial";
  }
  if (mid < 284) return "Roman Imperial";
  if (mid < 491) return "Late Roman";
  if (mid < 1453) return "Byzantine";
  return mid < 1800 ? "Early Modern" : "Modern";
}

/**
 * A date range that cannot belong to the coin: a PAS find whose named issuer is no medieval
 * king (so a Roman emperor or empress) dated after AD 700, as one line ("Caracalla",
 * 1980–2010) is.
 */
export function isImplausibleDate(parsed: ParsedCoin, date: DateRangeValue): boolean {
  return parsed.style === "pas" && parsed.ruler !== null && !isWesternMedievalIssuer(parsed.ruler) && date.from > 700;
}

export interface GeoBounds {
  min_lon: number;
  max_lon: number;
  min_lat: number;
  max_lat: number;
}

function coord(value: number, positive: string, negative: string, digits: number): string {
  return `${Math.abs(value).toFixed(digits)}° ${value < 0 ? negative : positive}`;
}

/** "37.9717° N, 23.7265° E" for a point, "37.92–41.89° N, 12.48–16.57° E (area)" for a box. */
export function findspotSummary(bounds: GeoBounds | null | undefined): string | null {
  if (!bounds || [bounds.min_lat, bounds.max_lat, bounds.min_lon, bounds.max_lon].some((v) => typeof v !== "number")) {
    return null;
  }
  const { min_lat, max_lat, min_lon, max_lon } = bounds;
  if (min_lat === max_lat && min_lon === max_lon) {
    return `${coord(min_lat, "N", "S", 4)}, ${coord(min_lon, "E", "W", 4)}`;
  }
  const lat = `${Math.abs(min_lat).toFixed(2)}–${coord(max_lat, "N", "S", 2)}`;
  const lon = `${Math.abs(min_lon).toFixed(2)}–${coord(max_lon, "E", "W", 2)}`;
  const sameHemisphere = Math.sign(min_lat) === Math.sign(max_lat) && Math.sign(min_lon) === Math.sign(max_lon);
  if (sameHemisphere) return `${lat}, ${lon} (area)`;
  return `${coord(min_lat, "N", "S", 2)} to ${coord(max_lat, "N", "S", 2)}, ${coord(min_lon, "E", "W", 2)} to ${coord(max_lon, "E", "W", 2)} (area)`;
}
