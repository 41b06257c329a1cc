/**
 * Classification of the Colby College Museum of Art records (data/heritage/colby_data.json):
 * the year_made text read as a date range, and typology, material and period derived from
 * the Getty AAT terms of media_AAT (falling back to the free-text media).
 */
import type { AuthorityLink } from "../../lib/archive/authorities";
import type { DateRangeValue } from "../../lib/archive/field-definitions";

export const MUSEUM_TYPOLOGIES = ["painting", "print", "drawing", "photograph", "sculpture", "textile", "decorative art", "other"] as const;
export type MuseumTypology = (typeof MUSEUM_TYPOLOGIES)[number];

export const MUSEUM_MATERIALS = [
  "oil paint",
  "acrylic paint",
  "tempera",
  "watercolor",
  "gouache",
  "pastel",
  "charcoal",
  "graphite",
  "chalk",
  "ink",
  "paper",
  "gelatin silver",
  "photographic print",
  "bronze",
  "marble",
  "stone",
  "wood",
  "metal",
  "silver",
  "glass",
  "textile",
  "other",
] as const;
export type MuseumMaterial = (typeof MUSEUM_MATERIALS)[number];

export const MUSEUM_PERIODS = ["before 1800", "1800–1849", "1850–1899", "1900–1945", "1946–1979", "1980 and later", "undated"] as const;
export type MuseumPeriod = (typeof MUSEUM_PERIODS)[number];

const MIN_YEAR = 1000;
const MAX_YEAR = 2030;

/**
 * Reads year_made: "1870", "ca. 1880" (±5 years), "1902-1905", "1971-72", "1940s", "early 1960s",
 * "19th century", "ca. late 1955-1959", "2004 (Printed 2005)", "modeled 1903; cast 1907",
 * "After 1893" / "1855 or after" (ten years on). The range spans every year named. Returns null
 * for empty or malformed text ("189-1880", "1879-11880").
 */
export function parseYearMade(text: string | null | undefined): DateRangeValue | null {
  if (!text || !text.trim()) return null;
  const t = text.toLowerCase().replace(/\s+/g, " ").trim();
  // Every run of digits must be a year, a two-digit range end, a decade or a century ordinal.
  for (const m of t.matchAll(/\d+/g)) {
    const run = m[0];
    const at = m.index ?? 0;
    const before = t.slice(0, at);
    const after = t.slice(at + run.length);
    const ok = run.length === 4 || (run.length === 2 && /\d{4}\s*-\s*$/.test(before)) || (run.length <= 2 && /^(st|nd|rd|th) century/.test(after));
    if (!ok) return null;
  }
  const years: number[] = [];
  let circa = /\b(ca\.?|c\s?\.|circa)\s?/.test(t);
  const century = /(\d{1,2})(?:st|nd|rd|th) century/.exec(t);
  if (century) {
    const start = (Number(century[1]) - 1) * 100;
    years.push(start, start + 99);
    circa = false;
  }
  for (const m of t.matchAll(/(early|mid|late)?[ -]?(\d{3}0)'?s\b/g)) {
    const d = Number(m[2]);
    const [a, b] = m[1] === "early" ? [0, 3] : m[1] === "mid" ? [3, 6] : m[1] === "late" ? [6, 9] : [0, 9];
    years.push(d + a, d + b);
    circa = false;
  }
  for (const m of t.matchAll(/(\d{4})\s*-\s*(\d{2})(?!\d)/g)) {
    const from = Number(m[1]);
    let to = Math.floor(from / 100) * 100 + Number(m[2]);
    if (to < from) to += 100;
    years.push(from, to);
  }
  for (const m of t.matchAll(/(?<!\d)(\d{4})(?!\d|'?s\b)/g)) years.push(Number(m[1]));
  if (years.length === 0) return null;
  let from = Math.min(...years);
  let to = Math.max(...years);
  if (/\bafter\b/.test(t) && from === to) to = from + 10;
  else if (circa && from === to) {
    from -= 5;
    to += 5;
  }
  if (from < MIN_YEAR || to > MAX_YEAR || from > to || to - from > 150) return null;
  return { from, to };
}

export function museumPeriod(date: DateRangeValue | null): MuseumPeriod {
  if (!date) return "undated";
  const mid = Math.floor((date.from + date.to) / 2);
  if (mid < 1800) return "before 1800";
  if (mid < 1850) return "1800–1849";
  if (mid < 1900) return "1850–1899";
  if (mid < 1946) return "1900–1945";
  if (mid < 1980) return "1946–1979";
  return "1980 and later";
}

/** The AAT term names of media_AAT ("oil paint (paint) AAT:(300015050), canvas AAT:(…)"), lower case. */
export function aatTerms(mediaAat: string | null | undefined): string[] {
  if (!mediaAat) return [];
  return [...mediaAat.matchAll(/\s*,?\s*([^,]+?)\s+AAT:\(\d+\)/g)].map((m) => (m[1] ?? "").trim().toLowerCase());
}

/**
 * media_AAT as Getty AAT links labelled with the catalogue's own terms, in its order, each
 * concept once: "oil paint (paint) AAT:(300015050), canvas AAT:(300014078)" →
 * http://vocab.getty.edu/aat/300015050 "oil paint (paint)", http://vocab.getty.edu/aat/300014078 "canvas".
 */
export function aatLinks(mediaAat: string | null | undefined): AuthorityLink[] {
  if (!mediaAat) return [];
  const links = new Map<string, AuthorityLink>();
  for (const m of mediaAat.matchAll(/\s*,?\s*([^,]+?)\s+AAT:\((\d+)\)/g)) {
    const uri = `http://vocab.getty.edu/aat/${m[2] ?? ""}`;
    if (!links.has(uri)) links.set(uri, { uri, label: (m[1] ?? "").replace(/\s+/g, " ").trim() });
  }
  return [...links.values()];
}

const PHOTO = /gelatin silver prints|tintypes|albumen prints|platinum prints|chromogenic|photographs/;
const PRINT =
  /etchings|drypoints|aquatints|lithographs|lithotints|screen prints|woodcuts|linocuts|engravings|monoprints|photogravures|prints \(visual works\)|digital prints|stats \(copies\)|posters|intaglio/;
const PAINT = /oil paint|acrylic paint|tempera|watercolors|watercolor \(paint\)|gouache|^pigment/;
const DRAW = /graphite|charcoal|chalk|pastels|crayons|pencils|markers|felt-tip pens|^ink$|wash \(material\)|scratchboard/;
const DECOR = /^silver|sterling silver|glass/;
const SCULPT = /bronze|marble|granite|stone|slate|wood|steel|aluminum|copper|nickel|metal|chromium|assemblages|polyester|fiberglass|cement|welding|plexiglas/;
const TEXTILE = /yarn|cloth|linen \(material\)|textile|acrylic \(fiber\)/;

/** Typology from the AAT terms: photograph, print, painting, drawing, decorative art, sculpture, textile. */
export function museumTypology(terms: string[], media: string | null): MuseumTypology {
  const any = (re: RegExp) => terms.some((t) => re.test(t));
  const text = (media ?? "").toLowerCase();
  if (any(PHOTO) || /photograph/.test(text)) return "photograph";
  if (any(PRINT) || /\b(etching|lithograph|woodcut|engraving|screenprint|silkscreen|intaglios?)\b/.test(text)) return "print";
  if (any(PAINT) || /\b(oil|acrylic|watercolou?r|tempera|gouache) on\b/.test(text)) return "painting";
  if (any(DRAW) || /silverpoint/.test(text)) return "drawing";
  // Silver and glass objects, unless they are part of an assemblage of wood, paper or paint.
  if (any(DECOR) && !any(/wood|paper|paint/)) return "decorative art";
  if (any(SCULPT)) return "sculpture";
  if (any(TEXTILE)) return "textile";
  return "other";
}

const MATERIAL_RULES: [RegExp, MuseumMaterial][] = [
  [/gelatin silver prints/, "gelatin silver"],
  [/tintypes|albumen prints|platinum prints|chromogenic/, "photographic print"],
  [/oil paint|^pigment/, "oil paint"],
  [/acrylic paint/, "acrylic paint"],
  [/tempera/, "tempera"],
  [/watercolors|watercolor \(paint\)/, "watercolor"],
  [/gouache/, "gouache"],
  [/pastels/, "pastel"],
  [/charcoal/, "charcoal"],
  [/graphite|pencils/, "graphite"],
  [/chalk/, "chalk"],
  [PRINT, "ink"],
  [/^ink$|markers|felt-tip pens|wash \(material\)/, "ink"],
  [/^silver|sterling silver/, "silver"],
  [/bronze/, "bronze"],
  [/marble/, "marble"],
  [/granite|stone|slate/, "stone"],
  [/glass/, "glass"],
  [/wood|panels \(wood\)/, "wood"],
  [/steel|aluminum|copper|nickel|metal|chromium/, "metal"],
  [TEXTILE, "textile"],
  [/paper|collages/, "paper"],
];

/**
 * The principal material: the first rule that any AAT term meets, in the order above (image
 * process, then paint, drawing media, printing ink, then the substance of objects; glass first
 * for decorative art).
 */
export function museumMaterial(terms: string[], typology?: MuseumTypology): MuseumMaterial {
  // A lamp of leaded glass on a bronze base is first of all glass.
  const rules: [RegExp, MuseumMaterial][] = typology === "decorative art" ? [[/glass/, "glass"], ...MATERIAL_RULES] : MATERIAL_RULES;
  for (const [re, material] of rules) if (terms.some((t) => re.test(t))) return material;
  return "other";
}
