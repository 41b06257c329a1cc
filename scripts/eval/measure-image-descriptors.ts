/**
 * `npx tsx --conditions=react-server scripts/eval/measure-image-descriptors.ts`: which local image
 * descriptor (lib/rag/embed/image-descriptor.ts) best predicts an object's labels from its
 * image, measured on the demo archive's generated object images.
 *
 * The demo renderers are called in-process (no database): 300 coins (obverse), the 240
 * synthetic ceramics (profile) and 200 museum objects (front), each with the labels its image
 * was drawn from. For every descriptor kind and label, each image's nearest neighbours by cosine
 * among the other images of its collection vote: top-1 is the share whose nearest neighbour has
 * the same label, top-5 the share whose five nearest give the label by majority (ties go to the
 * label of the nearer neighbour). "base" is the share of the most frequent label, i.e. what
 * always guessing it would score. "combined" is also measured with a few other weightings.
 *
 * The images are GENERATED FROM THEIR METADATA, so this measures the descriptors on synthetic
 * drawings whose colour and shape follow the labels, not on photographs.
 */
import { cpus, platform, arch } from "node:os";
import { join } from "node:path";
import { loadCoins } from "../../prisma/seed/coins";
import { generateCeramics } from "../../prisma/seed/ceramics";
import { loadMuseumObjects } from "../../prisma/seed/museum-objects";
import type { DemoObject } from "../../prisma/seed/object-images";
import {
  DEFAULT_COMBINATION_WEIGHTS,
  DESCRIPTOR_DIMENSIONS,
  combineDescriptors,
  describeImage,
  describeImageParts,
  descriptorSimilarity,
  type CombinationWeights,
  type DescriptorKind,
  type PartKind,
} from "../../lib/rag/embed/image-descriptor";

const COMMAND = "npx tsx --conditions=react-server scripts/eval/measure-image-descriptors.ts";
const HERITAGE_DIR = join(process.cwd(), "prisma", "seed", "data", "heritage");

interface Collection {
  name: string;
  view: string;
  labels: string[];
  objects: DemoObject[];
}

interface Sample {
  labels: Record<string, string>;
  bytes: Buffer;
  parts: Record<PartKind, Float32Array>;
}

/** Other weightings of "combined" measured beside the default. */
const WEIGHTINGS: [string, CombinationWeights][] = [
  ["combined", DEFAULT_COMBINATION_WEIGHTS],
  ["comb c.33/e.33/p.33", { colour: 1, edges: 1, phash: 1 }],
  ["comb c.5/e.35/p.15", { colour: 0.5, edges: 0.35, phash: 0.15 }],
  ["comb c.4/e.4/p.2", { colour: 0.4, edges: 0.4, phash: 0.2 }],
  ["comb c.5/e.5 (no p)", { colour: 0.5, edges: 0.5, phash: 0 }],
];

/** `count` objects spread evenly over the list (deterministic). */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)] as T);
}

/** The collections measured, with the view and the labels of each. */
function collections(): Collection[] {
  return [
    { name: "coins", view: "obverse", labels: ["typology", "metal", "period"], objects: spread(loadCoins(HERITAGE_DIR), 300) },
    { name: "ceramics", view: "profile", labels: ["typology", "material", "period"], objects: generateCeramics() },
    { name: "museum", view: "front", labels: ["typology", "material"], objects: spread(loadMuseumObjects(HERITAGE_DIR), 200) },
  ];
}

/** Renders each object's image of the view and computes its part descriptors. */
async function prepare(collection: Collection): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const object of collection.objects) {
    const image = object.images.find((i) => i.view === collection.view);
    if (!image) continue;
    const bytes = await image.render();
    const labels: Record<string, string> = {};
    for (const label of collection.labels) labels[label] = String(object.fields[label] ?? "(none)");
    samples.push({ labels, bytes, parts: await describeImageParts(bytes) });
  }
  return samples;
}

/** Indexes of the other samples, nearest first, for each sample. */
function neighbourLists(vectors: Float32Array[], k: number): number[][] {
  return vectors.map((v, i) => {
    const scored: [number, number][] = [];
    vectors.forEach((w, j) => {
      if (j !== i) scored.push([descriptorSimilarity(v, w), j]);
    });
    // Ties broken by index so the result is deterministic.
    scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    return scored.slice(0, k).map(([, j]) => j);
  });
}

/** Label chosen by majority of the neighbours; a tie goes to the label seen first (nearest). */
function majority(labels: string[]): string {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  let best = labels[0] as string;
  for (const label of labels) if ((counts.get(label) as number) > (counts.get(best) as number)) best = label;
  return best;
}

/** Leave-one-out top-1 and top-5-majority accuracy of one label. */
function accuracy(samples: Sample[], neighbours: number[][], label: string): { top1: number; top5: number } {
  let top1 = 0;
  let top5 = 0;
  samples.forEach((s, i) => {
    const near = (neighbours[i] as number[]).map((j) => (samples[j] as Sample).labels[label] as string);
    if (near[0] === s.labels[label]) top1++;
    if (majority(near.slice(0, 5)) === s.labels[label]) top5++;
  });
  return { top1: top1 / samples.length, top5: top5 / samples.length };
}

/** Share of the most frequent label (the score of always guessing it). */
function baseRate(samples: Sample[], label: string): number {
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(s.labels[label] as string, (counts.get(s.labels[label] as string) ?? 0) + 1);
  return Math.max(...counts.values()) / samples.length;
}

/** Median of a list of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median milliseconds per image of describeImage for each kind, over the given images. */
async function timePerImage(images: Buffer[]): Promise<Record<DescriptorKind, number>> {
  const kinds: DescriptorKind[] = ["colour", "edges", "phash", "combined"];
  for (const bytes of images.slice(0, 10)) for (const kind of kinds) await describeImage(bytes, kind); // warm-up
  const times = {} as Record<DescriptorKind, number>;
  for (const kind of kinds) {
    const durations: number[] = [];
    for (const bytes of images) {
      const start = performance.now();
      await describeImage(bytes, kind);
      durations.push(performance.now() - start);
    }
    times[kind] = median(durations);
  }
  return times;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}`.padStart(5);

async function main(): Promise<void> {
  const started = performance.now();
  console.log("Image descriptors: leave-one-out nearest-neighbour label prediction");
  console.log(`machine: ${cpus()[0]?.model ?? "unknown"} ×${cpus().length}, ${platform()}-${arch()}, node ${process.version}`);
  console.log(`command: ${COMMAND}`);
  console.log("NOTE: the demo images are generated from their metadata (colour and shape follow the labels);");
  console.log("      this measures the descriptors on synthetic drawings, not on photographs.");
  console.log("cells: top-1 / top-5-majority accuracy in %; base = share of the most frequent label\n");

  const allBytes: Buffer[] = [];
  for (const collection of collections()) {
    const samples = await prepare(collection);
    allBytes.push(...samples.map((s) => s.bytes));
    const rows: [string, Float32Array[]][] = [
      ...(["colour", "edges", "phash"] as const).map((kind): [string, Float32Array[]] => [kind, samples.map((s) => s.parts[kind])]),
      ...WEIGHTINGS.map(([name, weights]): [string, Float32Array[]] => [name, samples.map((s) => combineDescriptors(s.parts, weights))]),
    ];
    console.log(`${collection.name} (${collection.view}, n=${samples.length})`);
    console.log(["descriptor".padEnd(20), ...collection.labels.map((l) => l.padEnd(13))].join(" "));
    console.log(["base".padEnd(20), ...collection.labels.map((l) => `${pct(baseRate(samples, l))}`.padEnd(13))].join(" "));
    for (const [name, vectors] of rows) {
      const neighbours = neighbourLists(vectors, 5);
      const cells = collection.labels.map((l) => {
        const { top1, top5 } = accuracy(samples, neighbours, l);
        return `${pct(top1)} / ${pct(top5)}`.padEnd(13);
      });
      console.log([name.padEnd(20), ...cells].join(" "));
    }
    console.log("");
  }

  const times = await timePerImage(spread(allBytes, 120));
  console.log("time per 256×256 WebP image (decode + descriptor, median of 120, ms):");
  console.log((Object.keys(times) as DescriptorKind[]).map((k) => `${k} ${times[k].toFixed(2)} (dim ${DESCRIPTOR_DIMENSIONS[k]})`).join(", "));
  console.log(`default combined weights: ${JSON.stringify(DEFAULT_COMBINATION_WEIGHTS)}`);
  console.log(`total run time ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
