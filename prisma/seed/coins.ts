/**
 * Demo section "Coins": 2,284 real coin records (ANS, PAS, The Fralin | UVa Art Museum; see
 * data/heritage/README.md for licences — the records built here are a derived database under
 * the ODbL) with fields parsed from their titles, and generated (not photographic) images.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DateRangeValue } from "../../lib/archive/field-definitions";
import {
  COIN_METAL_OPTIONS,
  COIN_PERIOD_OPTIONS,
  COIN_TYPOLOGY_OPTIONS,
  coinMetal,
  coinPeriod,
  coinTypology,
  findspotSummary,
  isImplausibleDate,
  type CoinPeriod,
  type GeoBounds,
} from "./coin-classify";
import { coinAuthorityLinks } from "./coin-authorities";
import { parseCoinTitle, type ParsedCoin } from "./coin-title";
import { renderCoinFace, type DemoObject, type DemoSection } from "./object-images";

export { parseCoinTitle, parseCoinDate, type ParsedCoin } from "./coin-title";
export { coinMetal, coinPeriod, coinTypology, findspotSummary } from "./coin-classify";
export { coinAuthorityLinks, crroType, nomismaDenomination, nomismaMaterial, nomismaMint, ocreType } from "./coin-authorities";

export const COINS_FILE = "coins-subset-2284.jsonl";

export const coinSection: DemoSection = {
  slug: "coins",
  name: "Coins",
  description:
    "Greek, Roman, Byzantine and medieval coins from the American Numismatic Society, the Portable " +
    "Antiquities Scheme (© The Trustees of the British Museum, CC BY 3.0) and The Fralin | UVa Art " +
    "Museum (ANS and UVa data ODbL 1.0). Metal, denomination, ruler and mint are parsed from the " +
    "catalogue titles; typology and period are assigned from them. The coin type (OCRE, CRRO) and the " +
    "Nomisma mint, denomination and material are linked where the title names them. The coin images are " +
    "generated drawings for the demo, not photographs.",
  fields: [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "metal", label: "Metal", type: "category", options: [...COIN_METAL_OPTIONS], listed: true },
    { key: "denomination", label: "Denomination", type: "text", listed: true },
    { key: "typology", label: "Typology", type: "category", options: [...COIN_TYPOLOGY_OPTIONS] },
    { key: "period", label: "Period", type: "category", options: [...COIN_PERIOD_OPTIONS] },
    { key: "ruler", label: "Ruler / issuer", type: "text" },
    { key: "mint", label: "Mint", type: "text", listed: true },
    { key: "date", label: "Date", type: "daterange" },
    { key: "accessionNumber", label: "Accession number", type: "text" },
    { key: "provider", label: "Provider", type: "text" },
    { key: "homepage", label: "Homepage", type: "text" },
    { key: "findspot", label: "Findspot (bounding box)", type: "text" },
    // Authority links derived from the title (coin-authorities.ts); the text fields above stay as written.
    { key: "coinType", label: "Coin type", type: "authority", authorities: ["ocre", "crro"] },
    { key: "mintNomisma", label: "Mint (Nomisma)", type: "authority", authorities: ["nomisma"], dublinCore: "coverage" },
    { key: "denominationNomisma", label: "Denomination (Nomisma)", type: "authority", authorities: ["nomisma"] },
    { key: "materialNomisma", label: "Material (Nomisma)", type: "authority", authorities: ["nomisma"] },
    { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
    { key: "reverse", label: "Reverse", type: "image", view: "reverse" },
  ],
};

/** One line of the jsonl file. */
export interface CoinSourceLine {
  title: string;
  temporal_bounds?: { from: number; to: number } | null;
  geo_bounds?: GeoBounds | null;
  image_urls?: string[];
  provider: string;
  homepage?: string | null;
}

const PROVIDER_CODES: Record<string, string> = {
  "American Numismatic Society": "ans",
  "finds.org.uk": "pas",
  "The Fralin | UVa Art Museum Numismatic Collection": "uva",
};

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function validBounds(b: CoinSourceLine["temporal_bounds"]): DateRangeValue | null {
  if (!b || !Number.isInteger(b.from) || !Number.isInteger(b.to) || b.from > b.to) return null;
  return { from: b.from, to: b.to };
}

export function readCoinLines(dataDir: string): CoinSourceLine[] {
  return readFileSync(join(dataDir, COINS_FILE), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as CoinSourceLine);
}

interface Prepared {
  line: CoinSourceLine;
  parsed: ParsedCoin;
  date: DateRangeValue | null;
}

/** Median of a list of numbers (the list is not empty). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Builds the coin records. The date is the line's temporal_bounds (the providers' structured
 * dates; the title's date text can differ by a few years), except where it cannot belong to
 * the coin (see isImplausibleDate): then the date is left out and the period comes from the
 * median date of the same ruler's other coins.
 */
export function buildCoins(lines: CoinSourceLine[]): DemoObject[] {
  const prepared: Prepared[] = lines.map((line) => {
    const parsed = parseCoinTitle(line.title);
    const bounds = validBounds(line.temporal_bounds);
    return { line, parsed, date: bounds && !isImplausibleDate(parsed, bounds) ? bounds : null };
  });
  const rulerMids = new Map<string, number[]>();
  for (const { parsed, date } of prepared) {
    if (parsed.ruler && date) rulerMids.set(parsed.ruler, [...(rulerMids.get(parsed.ruler) ?? []), (date.from + date.to) / 2]);
  }
  const seen = new Set<string>();
  return prepared.map(({ line, parsed, date }, index) => {
    const code = PROVIDER_CODES[line.provider] ?? slug(line.provider).slice(0, 12);
    let key = `coin-${code}-${slug(parsed.accessionNumber ?? String(index + 1))}`;
    if (seen.has(key)) key = `${key}-${index + 1}`;
    seen.add(key);
    const typology = coinTypology(parsed.denomination);
    let periodDate = date;
    const mids = !date && parsed.ruler ? rulerMids.get(parsed.ruler) : undefined;
    if (mids && mids.length > 0) periodDate = { from: Math.round(median(mids)), to: Math.round(median(mids)) };
    const period: CoinPeriod | null = coinPeriod(parsed, periodDate);
    const metal = coinMetal(parsed, typology, periodDate);
    const fields: Record<string, unknown> = { title: line.title, metal, typology };
    const links = coinAuthorityLinks(parsed, metal);
    const optional: Record<string, unknown> = {
      denomination: parsed.denomination,
      period,
      ruler: parsed.ruler,
      mint: parsed.mint,
      date,
      accessionNumber: parsed.accessionNumber,
      provider: line.provider,
      homepage: line.homepage,
      findspot: findspotSummary(line.geo_bounds),
      coinType: links.coinType,
      mintNomisma: links.mint,
      denominationNomisma: links.denomination,
      materialNomisma: links.material,
    };
    for (const [field, value] of Object.entries(optional)) if (value !== null && value !== undefined && value !== "") fields[field] = value;
    const face = (side: "obverse" | "reverse") => ({
      field: side,
      view: side,
      render: () => renderCoinFace({ key, face: side, metal, typology, period }),
    });
    return { key, title: line.title, fields, images: [face("obverse"), face("reverse")] };
  });
}

/** Reads coins-subset-2284.jsonl from dataDir (prisma/seed/data/heritage). */
export function loadCoins(dataDir: string): DemoObject[] {
  return buildCoins(readCoinLines(dataDir));
}
