/**
 * SVG helpers for the generated demo images (see object-images.ts): colour mixing, number
 * formatting, pseudo-lettering, noise filters and the SVG → WebP conversion with sharp.
 */
import { openImage } from "../../lib/archive/image-limits";
import type { Rng } from "./prng";

export const IMAGE_SIZE = 256;
export const MAX_IMAGE_BYTES = 12 * 1024;

/** Rounds for compact, stable SVG text. */
export function n(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

function parseHex(hex: string): [number, number, number] {
  const v = hex.replace("#", "");
  return [parseInt(v.slice(0, 2), 16), parseInt(v.slice(2, 4), 16), parseInt(v.slice(4, 6), 16)];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb
    .map((c) =>
      Math.max(0, Math.min(255, Math.round(c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** Linear mix of two #rrggbb colours; t = 0 gives a, 1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const ca = parseHex(a);
  const cb = parseHex(b);
  return toHex(ca.map((c, i) => c + ((cb[i] ?? 0) - c) * t));
}

/** Lighter (amount > 0) or darker (amount < 0) version of a colour. */
export function shade(color: string, amount: number): string {
  return amount >= 0 ? mix(color, "#ffffff", amount) : mix(color, "#000000", -amount);
}

/** Small per-record variation of a colour: each channel moved by up to ±spread. */
export function jitter(color: string, rng: Rng, spread: number): string {
  return toHex(parseHex(color).map((c) => c + rng.range(-spread, spread)));
}

/**
 * A grain filter: fractal noise turned grey and laid over the source at the given opacity.
 * Apply it to a shape to give it a cast, worn, or paper-like surface.
 */
export function grainFilter(id: string, rng: Rng, frequency: number, opacity: number): string {
  return (
    `<filter id="${id}" x="0" y="0" width="100%" height="100%">` +
    `<feTurbulence type="fractalNoise" baseFrequency="${frequency.toFixed(3)}" numOctaves="2" seed="${rng.int(1, 9999)}"/>` +
    `<feColorMatrix type="matrix" values="1 0 0 0 0  1 0 0 0 0  1 0 0 0 0  0 0 0 0 ${opacity.toFixed(2)}"/>` +
    `<feBlend in2="SourceGraphic" mode="overlay"/>` +
    `<feComposite in2="SourceGraphic" operator="in"/>` +
    `</filter>`
  );
}

/**
 * Letter-like glyphs set round a circle (coin legends): each glyph is one to three strokes in
 * a small box, so no font is needed and the output is the same on every machine.
 */
export function legendRing(
  rng: Rng,
  cx: number,
  cy: number,
  radius: number,
  opts: { count: number; height: number; color: string; width: number; startDeg?: number; spanDeg?: number },
): string {
  const start = opts.startDeg ?? -150;
  const span = opts.spanDeg ?? 300;
  const h = opts.height;
  const w = h * 0.6;
  const strokes: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const angle = start + (span * (i + 0.5)) / opts.count;
    const kind = rng.int(0, 5);
    let d: string;
    switch (kind) {
      case 0:
        d = `M0 ${n(-h / 2)}V${n(h / 2)}`;
        break; // I
      case 1:
        d = `M${n(-w / 2)} ${n(h / 2)}L0 ${n(-h / 2)}L${n(w / 2)} ${n(h / 2)}`;
        break; // A
      case 2:
        d = `M${n(-w / 2)} ${n(h / 2)}V${n(-h / 2)}L${n(w / 2)} ${n(h / 2)}V${n(-h / 2)}`;
        break; // N
      case 3:
        d = `M${n(w / 2)} ${n(-h / 2)}H${n(-w / 2)}V${n(h / 2)}H${n(w / 2)}M${n(-w / 2)} 0H${n(w / 3)}`;
        break; // E
      case 4:
        d = `M${n(w / 2)} ${n(-h / 3)}A${n(w / 2)} ${n(h / 2)} 0 1 0 ${n(w / 2)} ${n(h / 3)}`;
        break; // C
      default:
        d = `M${n(-w / 2)} ${n(-h / 2)}V${n(h / 2)}M${n(-w / 2)} ${n(-h / 2)}H${n(w / 3)}V0H${n(-w / 2)}`;
        break; // P
    }
    strokes.push(`<path transform="rotate(${n(angle)} ${n(cx)} ${n(cy)}) translate(${n(cx)} ${n(cy - radius)})" d="${d}"/>`);
  }
  return `<g fill="none" stroke="${opts.color}" stroke-width="${n(opts.width)}" stroke-linecap="round">${strokes.join("")}</g>`;
}

/** A ring of dots (beaded border). */
export function dotRing(cx: number, cy: number, radius: number, count: number, dotRadius: number, color: string): string {
  const dots: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = (2 * Math.PI * i) / count;
    dots.push(`<circle cx="${n(cx + radius * Math.cos(a))}" cy="${n(cy + radius * Math.sin(a))}" r="${n(dotRadius)}"/>`);
  }
  return `<g fill="${color}">${dots.join("")}</g>`;
}

export function svgDocument(body: string, defs = ""): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}" viewBox="0 0 ${IMAGE_SIZE} ${IMAGE_SIZE}">` +
    (defs ? `<defs>${defs}</defs>` : "") +
    body +
    `</svg>`
  );
}

/**
 * Renders an SVG to a 256×256 WebP at quality 70, stepping the quality down when the result
 * would exceed 12 KB, so every demo image stays within the budget.
 */
export async function svgToWebp(svg: string): Promise<Buffer> {
  let last: Buffer | null = null;
  for (const quality of [70, 60, 50, 40, 30]) {
    last = await openImage(Buffer.from(svg), { density: 72 }).resize(IMAGE_SIZE, IMAGE_SIZE, { fit: "fill" }).webp({ quality, effort: 4 }).toBuffer();
    if (last.length <= MAX_IMAGE_BYTES) return last;
  }
  if (!last) throw new Error("WebP encoding produced nothing");
  return last;
}
