/**
 * Local, offline image descriptors for "similar objects by image": small vectors computed from
 * the pixels alone (no model, no network), so two object images can be compared by cosine.
 *
 * Kinds:
 *   - "colour":   HSV histogram (8 hue × 3 saturation × 3 value bins) of a 64×64 copy, leaving
 *                 out the pixels that match the image's background (the median border colour);
 *   - "edges":    histogram of gradient orientations weighted by magnitude (12 unsigned
 *                 orientation bins × a 2×2 spatial grid) of a 64×64 grayscale copy;
 *   - "phash":    DCT perceptual hash of a 32×32 grayscale copy: the 64 lowest-frequency
 *                 coefficients after the DC term, each +1 above their median and −1 otherwise;
 *   - "combined": the three above, each scaled by the square root of its weight and
 *                 concatenated (the weights sum to 1, so the result stays unit length).
 *
 * Histograms are square-rooted before normalising (the Hellinger mapping), so that cosine
 * compares distributions rather than being dominated by their largest bin. Every vector is
 * L2-normalised, so cosine similarity is the dot product. The computation is deterministic:
 * one sharp decode-and-resize, then plain arithmetic. The default combination weights were
 * chosen with scripts/eval/measure-image-descriptors.ts.
 */
import "server-only";
import { openImage } from "../../archive/image-limits";

export type DescriptorKind = "colour" | "edges" | "phash" | "combined";
export type PartKind = Exclude<DescriptorKind, "combined">;

export const COLOUR_HUE_BINS = 8;
export const COLOUR_SAT_BINS = 3;
export const COLOUR_VAL_BINS = 3;
export const COLOUR_DIMENSION = COLOUR_HUE_BINS * COLOUR_SAT_BINS * COLOUR_VAL_BINS;
export const EDGE_ORIENTATION_BINS = 12;
export const EDGE_GRID = 2;
export const EDGES_DIMENSION = EDGE_ORIENTATION_BINS * EDGE_GRID * EDGE_GRID;
export const PHASH_DIMENSION = 64;
export const COMBINED_DIMENSION = COLOUR_DIMENSION + EDGES_DIMENSION + PHASH_DIMENSION;

/** Vector length of each descriptor kind. */
export const DESCRIPTOR_DIMENSIONS: Record<DescriptorKind, number> = {
  colour: COLOUR_DIMENSION,
  edges: EDGES_DIMENSION,
  phash: PHASH_DIMENSION,
  combined: COMBINED_DIMENSION,
};

/** Relative weights of the parts in "combined" (normalised to sum 1 when used). */
export type CombinationWeights = Record<PartKind, number>;

/**
 * Default weights of "combined". On the demo's generated images every three-part weighting
 * tried (colour 0.3–0.5) scored within a few points of the others, and all beat each part
 * alone on the labels a part misses (see scripts/eval/measure-image-descriptors.ts); leaving
 * phash out cost up to 13 points of coin typology.
 */
export const DEFAULT_COMBINATION_WEIGHTS: CombinationWeights = { colour: 0.4, edges: 0.3, phash: 0.3 };

/** Side of the working copy every descriptor starts from. */
const WORK_SIDE = 64;
/** Side of the grayscale copy the perceptual hash is taken from. */
const PHASH_SIDE = 32;
/** RGB distance under which a pixel counts as background in the colour histogram. */
const BACKGROUND_DISTANCE = 30;
/** Below this share of foreground pixels the colour histogram uses every pixel. */
const MIN_FOREGROUND_SHARE = 0.05;

/** An RGB image as interleaved bytes. */
interface RgbImage {
  side: number;
  data: Uint8Array;
}

/** Decodes any sharp-readable image to a WORK_SIDE² RGB copy (transparency flattened on white). */
async function decode(bytes: Uint8Array | Buffer): Promise<RgbImage> {
  const data = await openImage(bytes)
    .flatten({ background: "#ffffff" })
    .resize(WORK_SIDE, WORK_SIDE, { fit: "fill", kernel: "cubic" })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer();
  return { side: WORK_SIDE, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Scales a vector in place to unit length (a zero vector stays zero). */
function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}

/** Square-roots a histogram and normalises it (Hellinger mapping). */
function hellinger(histogram: Float32Array): Float32Array {
  for (let i = 0; i < histogram.length; i++) histogram[i] = Math.sqrt(histogram[i] as number);
  return normalise(histogram);
}

/** Rec. 601 luma of each pixel, 0–255. */
function grayscale(image: RgbImage): Float32Array {
  const gray = new Float32Array(image.side * image.side);
  for (let p = 0; p < gray.length; p++) {
    const i = p * 3;
    gray[p] = 0.299 * (image.data[i] as number) + 0.587 * (image.data[i + 1] as number) + 0.114 * (image.data[i + 2] as number);
  }
  return gray;
}

/** Median of each channel over the border pixels: the image's background colour. */
function borderColour(image: RgbImage): [number, number, number] {
  const channels: number[][] = [[], [], []];
  const last = image.side - 1;
  for (let y = 0; y < image.side; y++) {
    for (let x = 0; x < image.side; x++) {
      if (x !== 0 && y !== 0 && x !== last && y !== last) continue;
      const i = (y * image.side + x) * 3;
      for (let c = 0; c < 3; c++) (channels[c] as number[]).push(image.data[i + c] as number);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] as number;
  return [median(channels[0] as number[]), median(channels[1] as number[]), median(channels[2] as number[])];
}

/** Histogram bin of one RGB pixel in HSV space. */
function hsvBin(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  let hue = 0;
  if (delta > 0) {
    if (max === r) hue = ((g - b) / delta + 6) % 6;
    else if (max === g) hue = (b - r) / delta + 2;
    else hue = (r - g) / delta + 4;
  }
  const saturation = max === 0 ? 0 : delta / max;
  const value = max / 255;
  const h = Math.min(COLOUR_HUE_BINS - 1, Math.floor((hue / 6) * COLOUR_HUE_BINS));
  const s = Math.min(COLOUR_SAT_BINS - 1, Math.floor(saturation * COLOUR_SAT_BINS));
  const v = Math.min(COLOUR_VAL_BINS - 1, Math.floor(value * COLOUR_VAL_BINS));
  return (h * COLOUR_SAT_BINS + s) * COLOUR_VAL_BINS + v;
}

/** HSV histogram of the foreground pixels (all pixels if almost none differ from the border). */
function colourDescriptor(image: RgbImage): Float32Array {
  const [br, bg, bb] = borderColour(image);
  const all = new Float32Array(COLOUR_DIMENSION);
  const foreground = new Float32Array(COLOUR_DIMENSION);
  let foregroundCount = 0;
  const pixels = image.side * image.side;
  for (let p = 0; p < pixels; p++) {
    const r = image.data[p * 3] as number;
    const g = image.data[p * 3 + 1] as number;
    const b = image.data[p * 3 + 2] as number;
    const bin = hsvBin(r, g, b);
    all[bin] = (all[bin] as number) + 1;
    if (Math.hypot(r - br, g - bg, b - bb) >= BACKGROUND_DISTANCE) {
      foreground[bin] = (foreground[bin] as number) + 1;
      foregroundCount++;
    }
  }
  return hellinger(foregroundCount >= pixels * MIN_FOREGROUND_SHARE ? foreground : all);
}

/** Magnitude-weighted histogram of Sobel gradient orientations (unsigned) per grid cell. */
function edgesDescriptor(image: RgbImage): Float32Array {
  const side = image.side;
  const gray = grayscale(image);
  const histogram = new Float32Array(EDGES_DIMENSION);
  const at = (x: number, y: number) => gray[y * side + x] as number;
  const cell = side / EDGE_GRID;
  for (let y = 1; y < side - 1; y++) {
    for (let x = 1; x < side - 1; x++) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const magnitude = Math.hypot(gx, gy);
      if (magnitude === 0) continue;
      const angle = (Math.atan2(gy, gx) + Math.PI) % Math.PI;
      const bin = Math.min(EDGE_ORIENTATION_BINS - 1, Math.floor((angle / Math.PI) * EDGE_ORIENTATION_BINS));
      const index = (Math.floor(y / cell) * EDGE_GRID + Math.floor(x / cell)) * EDGE_ORIENTATION_BINS + bin;
      histogram[index] = (histogram[index] as number) + magnitude;
    }
  }
  return hellinger(histogram);
}

/** Averages 2×2 blocks of a square grayscale image down to `side`². */
function halve(gray: Float32Array, from: number, side: number): Float32Array {
  const out = new Float32Array(side * side);
  const f = from / side;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      let sum = 0;
      for (let dy = 0; dy < f; dy++) for (let dx = 0; dx < f; dx++) sum += gray[(y * f + dy) * from + x * f + dx] as number;
      out[y * side + x] = sum / (f * f);
    }
  }
  return out;
}

/** Indexes (u, v) of the 2-D DCT in zig-zag order, lowest frequencies first, DC left out. */
function zigzag(count: number): [number, number][] {
  const order: [number, number][] = [];
  for (let s = 1; order.length < count; s++) {
    for (let i = 0; i <= s && order.length < count; i++) order.push(s % 2 === 0 ? [s - i, i] : [i, s - i]);
  }
  return order;
}

const PHASH_ORDER = zigzag(PHASH_DIMENSION);
const PHASH_MAX_FREQUENCY = Math.max(...PHASH_ORDER.map(([u, v]) => Math.max(u, v))) + 1;
/** cos((2x + 1)uπ / 2N) for the frequencies the hash uses. */
const DCT_COSINES = Array.from({ length: PHASH_MAX_FREQUENCY }, (_, u) =>
  Float64Array.from({ length: PHASH_SIDE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * PHASH_SIDE))),
);

/** DCT perceptual hash as a ±1 vector (already unit length after scaling by 1/8). */
function phashDescriptor(image: RgbImage): Float32Array {
  const gray = halve(grayscale(image), image.side, PHASH_SIDE);
  // Rows first: rowDct[y][u] = Σx gray[y][x]·cos_u(x), for the low frequencies only.
  const rowDct = new Float64Array(PHASH_SIDE * PHASH_MAX_FREQUENCY);
  for (let y = 0; y < PHASH_SIDE; y++) {
    for (let u = 0; u < PHASH_MAX_FREQUENCY; u++) {
      const cos = DCT_COSINES[u] as Float64Array;
      let sum = 0;
      for (let x = 0; x < PHASH_SIDE; x++) sum += (gray[y * PHASH_SIDE + x] as number) * (cos[x] as number);
      rowDct[y * PHASH_MAX_FREQUENCY + u] = sum;
    }
  }
  const coefficients = PHASH_ORDER.map(([u, v]) => {
    const cos = DCT_COSINES[v] as Float64Array;
    let sum = 0;
    for (let y = 0; y < PHASH_SIDE; y++) sum += (rowDct[y * PHASH_MAX_FREQUENCY + u] as number) * (cos[y] as number);
    return sum;
  });
  const sorted = [...coefficients].sort((a, b) => a - b);
  const median = ((sorted[PHASH_DIMENSION / 2 - 1] as number) + (sorted[PHASH_DIMENSION / 2] as number)) / 2;
  const scale = 1 / Math.sqrt(PHASH_DIMENSION);
  return Float32Array.from(coefficients, (c) => (c > median ? scale : -scale));
}

/**
 * Concatenates unit-length parts, each scaled by √(weight / Σweights), so the result has unit
 * length too and its dot product is the weighted sum of the parts' cosines.
 */
export function combineDescriptors(parts: Record<PartKind, Float32Array>, weights: CombinationWeights = DEFAULT_COMBINATION_WEIGHTS): Float32Array {
  const total = weights.colour + weights.edges + weights.phash;
  if (!(total > 0)) throw new Error("combination weights must sum to more than 0");
  const out = new Float32Array(COMBINED_DIMENSION);
  let offset = 0;
  for (const kind of ["colour", "edges", "phash"] as const) {
    const scale = Math.sqrt(weights[kind] / total);
    const part = parts[kind];
    for (let i = 0; i < part.length; i++) out[offset + i] = (part[i] as number) * scale;
    offset += part.length;
  }
  return out;
}

/** All three part descriptors of one image, from a single decode. */
export async function describeImageParts(bytes: Uint8Array | Buffer): Promise<Record<PartKind, Float32Array>> {
  const image = await decode(bytes);
  return { colour: colourDescriptor(image), edges: edgesDescriptor(image), phash: phashDescriptor(image) };
}

/** The unit-length descriptor of the given kind for an encoded image (any format sharp reads). */
export async function describeImage(bytes: Uint8Array | Buffer, kind: DescriptorKind): Promise<Float32Array> {
  const image = await decode(bytes);
  switch (kind) {
    case "colour":
      return colourDescriptor(image);
    case "edges":
      return edgesDescriptor(image);
    case "phash":
      return phashDescriptor(image);
    case "combined":
      return combineDescriptors({ colour: colourDescriptor(image), edges: edgesDescriptor(image), phash: phashDescriptor(image) });
  }
}

/** Cosine similarity of two unit-length descriptors (their dot product). */
export function descriptorSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ: ${a.length} vs ${b.length}`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}
