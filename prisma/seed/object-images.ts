/**
 * Shared types of the demo-data modules and the image renderers they use.
 *
 * The images are GENERATED FOR THE DEMO: drawings that sharp renders from an SVG built here,
 * not photographs of the objects. Their look follows the record's labels (typology, period,
 * material or metal) so that image-similarity search can be evaluated against those labels,
 * and a PRNG seeded with the record key varies each one, so no two records share an image
 * and the same key always gives the same bytes. Every image is a 256×256 WebP of at most 12 KB.
 */
import type { FieldDefinition } from "../../lib/archive/field-definitions";

export interface DemoImage {
  /** Key of the image field the picture belongs to. */
  field: string;
  /** The field's view, e.g. "obverse". */
  view: string;
  /** Renders the WebP bytes (lazily: seeding renders only what it stores). */
  render: () => Promise<Buffer>;
}

export interface DemoObject {
  key: string;
  title: string;
  /** Field values by field key; image fields are left out (see images). */
  fields: Record<string, unknown>;
  images: DemoImage[];
}

export interface DemoSection {
  slug: string;
  name: string;
  description: string;
  fields: FieldDefinition[];
}

export { renderCoinFace, coinFaceSvg, type CoinFaceOptions } from "./render-coin";
export { renderCeramicProfile, ceramicProfileSvg, type CeramicProfileOptions } from "./render-ceramic";
export { renderMuseumObject, museumObjectSvg, type MuseumObjectOptions } from "./render-museum";
export { IMAGE_SIZE, MAX_IMAGE_BYTES } from "./image-svg";
