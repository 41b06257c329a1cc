/**
 * Demo section "Museum objects": the 1,952 objects of the Colby College Museum of Art open data
 * release (CC0 1.0; see data/heritage/README.md). Date, typology, material and period are
 * derived from year_made and the AAT media terms; the images are generated drawings ("framed
 * cards" whose look follows those labels), not photographs of the works.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  MUSEUM_MATERIALS,
  MUSEUM_PERIODS,
  MUSEUM_TYPOLOGIES,
  aatLinks,
  aatTerms,
  museumMaterial,
  museumPeriod,
  museumTypology,
  parseYearMade,
} from "./museum-classify";
import { renderMuseumObject, type DemoObject, type DemoSection } from "./object-images";

export { parseYearMade, museumMaterial, museumPeriod, museumTypology, aatLinks, aatTerms } from "./museum-classify";

export const COLBY_FILE = "colby_data.json";

export interface ColbyObject {
  artist: string | null;
  title: string | null;
  year_made: string | null;
  year_acqd: string | null;
  media: string | null;
  media_AAT: string | null;
  dimensions: string | null;
  printer: string | null;
  label: string | null;
  credit_line: string | null;
  notes: string | null;
  accession_num: string | null;
  embark_ID: string | null;
}

export const museumObjectSection: DemoSection = {
  slug: "museum-objects",
  name: "Museum objects",
  description:
    "Paintings, prints, drawings, photographs and sculpture from the Colby College Museum of Art open data " +
    "release (2016, CC0 1.0). Typology, material and period are derived from the catalogue's media (Getty AAT " +
    "terms, also kept as links) and dates. The images are generated drawings for the demo, not photographs of the works.",
  fields: [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "artist", label: "Artist", type: "text", listed: true },
    { key: "yearMade", label: "Year made", type: "text", listed: true },
    { key: "date", label: "Date", type: "daterange" },
    { key: "typology", label: "Typology", type: "category", options: [...MUSEUM_TYPOLOGIES], listed: true },
    { key: "material", label: "Material", type: "category", options: [...MUSEUM_MATERIALS] },
    { key: "period", label: "Period", type: "category", options: [...MUSEUM_PERIODS] },
    { key: "medium", label: "Medium", type: "text" },
    // The catalogue's media_AAT terms as Getty AAT links; Medium above keeps the catalogue's text.
    { key: "materialsAat", label: "Materials (AAT)", type: "authority", authorities: ["aat"], multiple: true },
    { key: "dimensions", label: "Dimensions", type: "text" },
    { key: "creditLine", label: "Credit line", type: "text" },
    { key: "accessionNumber", label: "Accession number", type: "text" },
    { key: "front", label: "Front", type: "image", view: "front" },
  ],
};

function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}

export function buildMuseumObjects(source: ColbyObject[]): DemoObject[] {
  const seen = new Set<string>();
  return source.map((o, index) => {
    const accession = clean(o.accession_num);
    let key = `museum-${(accession ?? `n${index + 1}`)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")}`;
    if (seen.has(key)) key = `${key}-${index + 1}`;
    seen.add(key);
    const title = clean(o.title) ?? "Untitled";
    const date = parseYearMade(o.year_made);
    const terms = aatTerms(o.media_AAT);
    const typology = museumTypology(terms, o.media);
    const material = museumMaterial(terms, typology);
    const period = museumPeriod(date);
    const materials = aatLinks(o.media_AAT);
    const fields: Record<string, unknown> = { title, typology, material, period };
    const optional: Record<string, unknown> = {
      artist: clean(o.artist),
      yearMade: clean(o.year_made),
      date,
      medium: clean(o.media),
      materialsAat: materials.length > 0 ? materials : null,
      dimensions: clean(o.dimensions),
      creditLine: clean(o.credit_line),
      accessionNumber: accession,
    };
    for (const [field, value] of Object.entries(optional)) if (value !== null) fields[field] = value;
    return {
      key,
      title,
      fields,
      images: [{ field: "front", view: "front", render: () => renderMuseumObject({ key, typology, material, period }) }],
    };
  });
}

/** Reads colby_data.json from dataDir (prisma/seed/data/heritage). */
export function loadMuseumObjects(dataDir: string): DemoObject[] {
  const data = JSON.parse(readFileSync(join(dataDir, COLBY_FILE), "utf8")) as { objects: ColbyObject[] };
  return buildMuseumObjects(data.objects);
}
