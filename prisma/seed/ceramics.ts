/**
 * Demo section "Ceramics": a SYNTHETIC catalogue. Every record is generated here (seeded PRNG,
 * the same on every run): the sites "Port de la Calma" (a Mediterranean harbour) and
 * "Sant Romà de Vall" (a valley village drowned by a reservoir in 1962) are fictional, and so
 * are the finds, inventory numbers and descriptions. Only plausible combinations of period,
 * material and vessel type are produced (see COMBINATIONS); the images are generated drawings.
 */
import { createRng, type Rng } from "./prng";
import { ceramicDescription, ceramicTitle, formName } from "./ceramic-text";
import { renderCeramicProfile, type DemoObject, type DemoSection } from "./object-images";

export const CERAMIC_TYPOLOGIES = ["amphora", "bowl", "plate", "jug", "cup", "storage jar", "oil lamp", "cooking pot"] as const;
export const CERAMIC_PERIODS = ["Iberian", "Roman Republic", "Roman Imperial", "Late Antique", "Medieval", "Early Modern", "Modern"] as const;
export const CERAMIC_MATERIALS = [
  "coarse earthenware",
  "terra sigillata",
  "glazed earthenware",
  "tin-glazed earthenware (majolica)",
  "stoneware",
  "porcelain",
] as const;
export type CeramicTypology = (typeof CERAMIC_TYPOLOGIES)[number];
export type CeramicPeriod = (typeof CERAMIC_PERIODS)[number];
export type CeramicMaterial = (typeof CERAMIC_MATERIALS)[number];

export const CERAMIC_COUNT = 240;

/** Years each period covers here (local chronology of the Catalan coast). */
export const PERIOD_YEARS: Record<CeramicPeriod, [number, number]> = {
  Iberian: [-550, -50],
  "Roman Republic": [-218, -27],
  "Roman Imperial": [-27, 284],
  "Late Antique": [284, 711],
  Medieval: [711, 1492],
  "Early Modern": [1492, 1800],
  Modern: [1800, 1962],
};

interface Combination {
  material: CeramicMaterial;
  typologies: CeramicTypology[];
  weight: number;
  /** Earliest year for this material in the period (e.g. majolica from c. 1250). */
  from?: number;
}

/** The plausible material × typology combinations of each period. */
export const COMBINATIONS: Record<CeramicPeriod, Combination[]> = {
  Iberian: [{ material: "coarse earthenware", typologies: ["amphora", "bowl", "plate", "jug", "cup", "storage jar", "cooking pot"], weight: 1 }],
  "Roman Republic": [{ material: "coarse earthenware", typologies: ["amphora", "jug", "cooking pot", "storage jar", "oil lamp", "bowl", "plate"], weight: 1 }],
  "Roman Imperial": [
    { material: "coarse earthenware", typologies: ["amphora", "jug", "cooking pot", "storage jar", "oil lamp"], weight: 0.55 },
    { material: "terra sigillata", typologies: ["bowl", "plate", "cup"], weight: 0.45 },
  ],
  "Late Antique": [
    { material: "coarse earthenware", typologies: ["amphora", "cooking pot", "jug", "storage jar", "oil lamp"], weight: 0.6 },
    { material: "terra sigillata", typologies: ["bowl", "plate", "oil lamp"], weight: 0.4 },
  ],
  Medieval: [
    { material: "coarse earthenware", typologies: ["cooking pot", "jug", "storage jar"], weight: 0.4 },
    { material: "glazed earthenware", typologies: ["jug", "bowl", "plate", "oil lamp", "cooking pot"], weight: 0.35 },
    { material: "tin-glazed earthenware (majolica)", typologies: ["plate", "bowl", "jug"], weight: 0.25, from: 1250 },
  ],
  "Early Modern": [
    { material: "coarse earthenware", typologies: ["cooking pot", "storage jar", "jug"], weight: 0.2 },
    { material: "glazed earthenware", typologies: ["cooking pot", "bowl", "plate", "jug", "storage jar", "oil lamp"], weight: 0.3 },
    { material: "tin-glazed earthenware (majolica)", typologies: ["plate", "bowl", "jug", "cup", "storage jar"], weight: 0.3 },
    { material: "stoneware", typologies: ["jug"], weight: 0.08, from: 1520 },
    { material: "porcelain", typologies: ["cup", "bowl", "plate"], weight: 0.12, from: 1570 },
  ],
  Modern: [
    { material: "coarse earthenware", typologies: ["storage jar", "jug"], weight: 0.15 },
    { material: "glazed earthenware", typologies: ["cooking pot", "bowl", "plate", "jug", "storage jar"], weight: 0.3 },
    { material: "tin-glazed earthenware (majolica)", typologies: ["plate", "bowl", "cup", "jug"], weight: 0.2 },
    { material: "stoneware", typologies: ["jug", "storage jar", "cup"], weight: 0.15 },
    { material: "porcelain", typologies: ["cup", "plate", "bowl", "jug"], weight: 0.2 },
  ],
};

export function isPlausibleCeramic(period: string, material: string, typology: string): boolean {
  const combos = COMBINATIONS[period as CeramicPeriod];
  return combos?.some((c) => c.material === material && (c.typologies as string[]).includes(typology)) ?? false;
}

export const SITES = { port: "Port de la Calma", vall: "Sant Romà de Vall" } as const;

interface FindContext {
  site: keyof typeof SITES;
  text: string;
  code: string;
  periods: CeramicPeriod[] | "all";
}

const CONTEXTS: FindContext[] = [
  { site: "port", text: "harbour dredging 1987, trench B", code: "87B", periods: "all" },
  { site: "port", text: "harbour dredging 1987, trench D", code: "87D", periods: "all" },
  { site: "port", text: "underwater survey 2003, wreck Calma 2", code: "03W2", periods: ["Roman Republic", "Roman Imperial"] },
  { site: "port", text: "underwater survey 2003, wreck Calma 5", code: "03W5", periods: ["Early Modern"] },
  { site: "port", text: "quay excavation 1995, sector C", code: "95C", periods: ["Roman Imperial", "Late Antique", "Medieval"] },
  { site: "port", text: "warehouse excavation 2011, room 3", code: "11R3", periods: ["Early Modern", "Modern"] },
  { site: "port", text: "Iberian settlement on the Puig de la Calma, excavation 1998, house 2", code: "98H2", periods: ["Iberian"] },
  { site: "vall", text: "reservoir drawdown survey 2008, house 4", code: "08H4", periods: ["Medieval", "Early Modern", "Modern"] },
  { site: "vall", text: "church of Sant Romà, excavation 1990, cemetery", code: "90CE", periods: ["Medieval", "Early Modern"] },
  { site: "vall", text: "Molí d'en Roca (mill), drawdown survey 2017", code: "17ML", periods: ["Early Modern", "Modern"] },
  { site: "vall", text: "Roman villa at les Feixes, excavation 2005, room 2", code: "05V2", periods: ["Roman Republic", "Roman Imperial", "Late Antique"] },
  { site: "vall", text: "el Castellot hillfort, excavation 2014, cistern", code: "14CT", periods: ["Iberian", "Roman Republic"] },
  { site: "vall", text: "valley-floor field walking 1999, transect 6", code: "99T6", periods: "all" },
];

const PERIOD_WEIGHTS: [CeramicPeriod, number][] = [
  ["Iberian", 0.12],
  ["Roman Republic", 0.12],
  ["Roman Imperial", 0.2],
  ["Late Antique", 0.12],
  ["Medieval", 0.16],
  ["Early Modern", 0.16],
  ["Modern", 0.12],
];

/** Dimensions by typology: [height range, diameter range] in cm. */
const SIZES: Record<CeramicTypology, [[number, number], [number, number]]> = {
  amphora: [
    [78, 115],
    [24, 38],
  ],
  "storage jar": [
    [38, 95],
    [30, 62],
  ],
  jug: [
    [17, 32],
    [11, 20],
  ],
  "cooking pot": [
    [12, 24],
    [14, 27],
  ],
  cup: [
    [5, 10],
    [7, 12],
  ],
  bowl: [
    [5, 11],
    [12, 26],
  ],
  plate: [
    [2.5, 5],
    [17, 32],
  ],
  "oil lamp": [
    [2.5, 4.5],
    [7, 10],
  ],
};

function dimensions(typology: CeramicTypology, form: string | null, rng: Rng): string {
  const [[h0, h1], [d0, d1]] = SIZES[typology];
  const scale = form === "dolium" ? 1.6 : 1;
  const h = (rng.range(h0, h1) * scale).toFixed(1).replace(/\.0$/, "");
  const tall = typology === "amphora" || typology === "jug" || typology === "storage jar";
  const d = (Math.min(rng.range(d0, d1), tall ? rng.range(h0, h1) * 0.7 : Infinity) * scale).toFixed(1).replace(/\.0$/, "");
  if (typology === "oil lamp") return `L. ${d} cm; H. ${h} cm`;
  if (rng.chance(0.25)) return `Rim fragment; est. rim diam. ${d} cm; wall th. ${rng.range(0.4, 1.4).toFixed(1)} cm`;
  const diameterKind = typology === "plate" || typology === "bowl" || typology === "cup" ? "rim diam." : "max. diam.";
  return `H. ${h} cm; ${diameterKind} ${d} cm`;
}

function dateRange(period: CeramicPeriod, from: number | undefined, rng: Rng): { from: number; to: number } {
  const [p0, p1] = PERIOD_YEARS[period];
  const start = Math.max(p0, from ?? p0);
  const step = period === "Modern" ? 5 : 25;
  const span = Math.min(p1 - start, rng.pick(period === "Modern" ? [10, 20, 30, 50] : [25, 50, 75, 100, 150]));
  const first = Math.ceil(start / step) * step;
  const last = Math.max(first, Math.floor((p1 - span) / step) * step);
  const a = first + step * rng.int(0, Math.max(0, Math.floor((last - first) / step)));
  return { from: Math.max(start, a), to: Math.min(p1, a + span) };
}

function yearText({ from, to }: { from: number; to: number }): string {
  const y = (v: number) => (v < 0 ? `${-v} BC` : `AD ${v}`);
  return from < 0 && to < 0 ? `${-from}–${-to} BC` : from >= 0 ? `AD ${from}–${to}` : `${y(from)} – ${y(to)}`;
}

export const ceramicsSection: DemoSection = {
  slug: "ceramics",
  name: "Ceramics",
  description:
    "SYNTHETIC demo catalogue: generated pottery finds from the fictional harbour site Port de la Calma and the " +
    "drowned valley of Sant Romà de Vall, from the Iberian period to the 20th century. Records, descriptions and " +
    "profile drawings are generated for the demo and describe no real objects.",
  fields: [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "typology", label: "Typology", type: "category", options: [...CERAMIC_TYPOLOGIES], listed: true },
    { key: "period", label: "Period", type: "category", options: [...CERAMIC_PERIODS], listed: true },
    { key: "material", label: "Material", type: "category", options: [...CERAMIC_MATERIALS], listed: true },
    { key: "date", label: "Date", type: "daterange" },
    { key: "findspot", label: "Findspot", type: "text" },
    { key: "inventoryNumber", label: "Inventory number", type: "text" },
    { key: "dimensions", label: "Dimensions", type: "text" },
    { key: "description", label: "Description", type: "longtext" },
    { key: "profile", label: "Profile drawing", type: "image", view: "profile" },
  ],
};

/** The 240 synthetic ceramics records; deterministic (seed "mnemo-ceramics-v1"). */
export function generateCeramics(count: number = CERAMIC_COUNT): DemoObject[] {
  const rng = createRng("mnemo-ceramics-v1");
  const serial: Record<string, number> = {};
  const objects: DemoObject[] = [];
  for (let i = 0; i < count; i++) {
    const period = rng.weighted(PERIOD_WEIGHTS);
    const combo = rng.weighted(COMBINATIONS[period].map((c) => [c, c.weight] as const));
    const typology = rng.pick(combo.typologies);
    const material = combo.material;
    const contexts = CONTEXTS.filter((c) => c.periods === "all" || c.periods.includes(period));
    // Ancient finds come mostly from the harbour, later ones mostly from the drowned village.
    const early = ["Iberian", "Roman Republic", "Roman Imperial", "Late Antique"].includes(period);
    const context = rng.weighted(contexts.map((c) => [c, (c.site === "port") === early ? 3 : 1] as const));
    const site = SITES[context.site];
    const date = dateRange(period, combo.from, rng);
    const form = formName(period, material, typology, rng);
    const title = ceramicTitle(material, typology, form);
    const prefix = context.site === "port" ? "PC" : "SRV";
    serial[prefix] = (serial[prefix] ?? 0) + 1;
    const inventoryNumber = `${prefix}-${context.code}-${String(serial[prefix]).padStart(4, "0")}`;
    const { text: description } = ceramicDescription({ typology, material, period, site, context: context.text, dateText: yearText(date) }, rng);
    const key = `ceramic-${inventoryNumber.toLowerCase()}`;
    objects.push({
      key,
      title,
      fields: {
        title,
        typology,
        period,
        material,
        date,
        findspot: `${site}, ${context.text}`,
        inventoryNumber,
        dimensions: dimensions(typology, form, rng),
        description,
      },
      images: [{ field: "profile", view: "profile", render: () => renderCeramicProfile({ key, typology, material, period }) }],
    });
  }
  return objects;
}
