/**
 * Generated "framed cards" for the demo museum objects (SVG drawings, not photographs of the
 * works): the frame, mount and rendering style follow the typology, texture and palette the
 * material, the overall tone (a varnish-like warm veil, fading towards the present) the period,
 * and the composition is laid out from the record key.
 */
import { createRng, type Rng } from "./prng";
import { grainFilter, jitter, mix, n, shade, svgDocument, svgToWebp } from "./image-svg";

export interface MuseumObjectOptions {
  key: string;
  typology: string;
  material: string;
  period: string;
}

const PALETTES: Record<string, string[]> = {
  "oil paint": ["#2f4a3a", "#6b4a2b", "#a8742f", "#3e5c7a", "#8c2f25", "#d9c38f"],
  "acrylic paint": ["#e63946", "#1d70b8", "#f4c430", "#2a9d8f", "#111111", "#f1f1f1"],
  tempera: ["#b5894f", "#7f5b3a", "#c9a66b", "#5d6b4a", "#9a3d2b", "#e8d8b0"],
  watercolor: ["#9cc3d5", "#c9dfb2", "#f2d7a6", "#d7a6b3", "#a9b8c9", "#f5efe0"],
  gouache: ["#d1495b", "#edae49", "#00798c", "#30638e", "#003d5b", "#f3ead8"],
  pastel: ["#f4a7b9", "#a7c7e7", "#f9e79f", "#c39bd3", "#abebc6", "#f5eee6"],
};

/** Warm veil over the picture by period: older works look darker and yellower. */
const TONE: Record<string, number> = {
  "before 1800": 0.5,
  "1800–1849": 0.42,
  "1850–1899": 0.32,
  "1900–1945": 0.2,
  "1946–1979": 0.08,
  "1980 and later": 0,
  undated: 0.14,
};

type Box = { x: number; y: number; w: number; h: number };

function paintingScene(rng: Rng, box: Box, material: string, period: string): string {
  const palette = PALETTES[material] ?? (PALETTES["oil paint"] as string[]);
  const c = () => jitter(rng.pick(palette), rng, 12);
  const { x, y, w, h } = box;
  const modern = period === "1946–1979" || period === "1980 and later";
  const layout = modern ? rng.pick(["abstract", "abstract", "fields", "landscape"]) : rng.pick(["landscape", "landscape", "portrait", "still life"]);
  const out: string[] = [`<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${c()}"/>`];
  if (layout === "landscape") {
    const horizon = y + h * rng.range(0.35, 0.65);
    out.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(horizon - y)}" fill="${mix(c(), "#dfe8f0", 0.4)}"/>`);
    for (let i = 0; i < 3; i++) {
      const top = horizon - rng.range(5, 30);
      out.push(
        `<path d="M${n(x)} ${n(horizon + i * 8)}Q${n(x + w * rng.range(0.2, 0.8))} ${n(top + i * 10)} ${n(x + w)} ${n(horizon + i * 6)}V${n(y + h)}H${n(x)}Z" fill="${c()}" opacity="0.9"/>`,
      );
    }
    out.push(`<circle cx="${n(x + w * rng.range(0.15, 0.85))}" cy="${n(y + h * 0.18)}" r="${n(rng.range(5, 11))}" fill="#f3e6b0" opacity="0.8"/>`);
  } else if (layout === "portrait") {
    out.push(`<ellipse cx="${n(x + w / 2)}" cy="${n(y + h * 0.4)}" rx="${n(w * 0.16)}" ry="${n(h * 0.2)}" fill="${mix("#e0b48f", c(), 0.2)}"/>`);
    out.push(`<path d="M${n(x + w * 0.2)} ${n(y + h)}Q${n(x + w / 2)} ${n(y + h * 0.5)} ${n(x + w * 0.8)} ${n(y + h)}Z" fill="${c()}"/>`);
  } else if (layout === "still life") {
    out.push(`<rect x="${n(x)}" y="${n(y + h * 0.62)}" width="${n(w)}" height="${n(h * 0.38)}" fill="${c()}"/>`);
    for (let i = 0; i < rng.int(2, 4); i++)
      out.push(`<circle cx="${n(x + w * rng.range(0.2, 0.8))}" cy="${n(y + h * 0.58)}" r="${n(rng.range(8, 18))}" fill="${c()}"/>`);
  } else if (layout === "fields") {
    let top = y;
    while (top < y + h) {
      const band = rng.range(h * 0.2, h * 0.5);
      out.push(`<rect x="${n(x + 6)}" y="${n(top + 4)}" width="${n(w - 12)}" height="${n(Math.min(band, y + h - top) - 8)}" fill="${c()}" opacity="0.9"/>`);
      top += band;
    }
  } else {
    for (let i = 0; i < rng.int(5, 9); i++) {
      const px = x + rng.range(0, w * 0.8),
        py = y + rng.range(0, h * 0.8);
      out.push(
        rng.chance(0.5)
          ? `<rect x="${n(px)}" y="${n(py)}" width="${n(rng.range(10, w * 0.5))}" height="${n(rng.range(8, h * 0.4))}" fill="${c()}" transform="rotate(${n(rng.range(-15, 15))} ${n(px)} ${n(py)})"/>`
          : `<circle cx="${n(px)}" cy="${n(py)}" r="${n(rng.range(6, w * 0.2))}" fill="${c()}"/>`,
      );
    }
  }
  return out.join("");
}

/** Hatched or drawn marks for prints and drawings, in one ink colour. */
function markScene(rng: Rng, box: Box, ink: string, kind: "etched" | "bold" | "soft"): string {
  const { x, y, w, h } = box;
  const horizon = y + h * rng.range(0.4, 0.7);
  const width = kind === "bold" ? 3.2 : kind === "soft" ? 2.2 : 0.9;
  const lines: string[] = [];
  const count = kind === "bold" ? 10 : 26;
  for (let i = 0; i < count; i++) {
    const yy = horizon + ((i % 3) - 1) * 4 + rng.range(-h * 0.35, h * 0.3);
    const x0 = x + rng.range(0, w * 0.5);
    const len = rng.range(w * 0.15, w * 0.5);
    lines.push(`M${n(x0)} ${n(yy)}l${n(len)} ${n(rng.range(-6, 6))}`);
  }
  const shapes =
    kind === "bold"
      ? `<path d="M${n(x)} ${n(horizon)}L${n(x + w * 0.3)} ${n(horizon - h * 0.3)}L${n(x + w * 0.55)} ${n(horizon)}Z" fill="${ink}"/>`
      : `<path d="M${n(x)} ${n(horizon)}Q${n(x + w / 2)} ${n(horizon - h * 0.2)} ${n(x + w)} ${n(horizon)}" stroke="${ink}" stroke-width="${n(width * 1.5)}" fill="none"/>`;
  return (
    shapes +
    `<path d="${lines.join("")}" stroke="${ink}" stroke-width="${n(width)}" stroke-linecap="round" opacity="${kind === "soft" ? 0.6 : 0.85}" fill="none"/>`
  );
}

function photoScene(rng: Rng, box: Box, material: string): string {
  const sepia = material === "photographic print";
  const dark = sepia ? "#2e2116" : "#1b1b1b";
  const light = sepia ? "#d9c3a0" : "#e9e9e9";
  const { x, y, w, h } = box;
  const horizon = y + h * rng.range(0.35, 0.65);
  const out = [
    `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${mix(dark, light, rng.range(0.55, 0.85))}"/>`,
    `<rect x="${n(x)}" y="${n(horizon)}" width="${n(w)}" height="${n(y + h - horizon)}" fill="${mix(dark, light, rng.range(0.2, 0.45))}"/>`,
  ];
  for (let i = 0; i < rng.int(1, 3); i++) {
    const fx = x + w * rng.range(0.2, 0.8),
      fh = h * rng.range(0.25, 0.5);
    out.push(
      `<rect x="${n(fx - fh * 0.15)}" y="${n(horizon - fh * 0.8)}" width="${n(fh * 0.3)}" height="${n(fh)}" rx="${n(fh * 0.12)}" fill="${mix(dark, light, rng.range(0, 0.25))}"/>`,
    );
  }
  if (sepia) out.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="none" stroke="${dark}" stroke-width="14" opacity="0.45"/>`);
  return out.join("");
}

const OBJECT_COLORS: Record<string, string> = {
  bronze: "#5a4028",
  marble: "#ece8e0",
  stone: "#8f8a80",
  wood: "#8a5a34",
  metal: "#9aa3ad",
  silver: "#c8cdd3",
  glass: "#5fa8a0",
  textile: "#7a2f3a",
};

function objectScene(rng: Rng, typology: string, material: string): string {
  const color = jitter(OBJECT_COLORS[material] ?? "#8d8478", rng, 10);
  const out = [`<rect x="78" y="196" width="100" height="40" fill="#d8d4cc"/><rect x="78" y="196" width="100" height="5" fill="#c4bfb5"/>`];
  const cx = 128 + rng.range(-6, 6);
  if (typology === "decorative art") {
    out.push(
      `<path d="M${n(cx - 10)} 196L${n(cx - 16)} 150Q${n(cx - 46)} 120 ${n(cx - 20)} 80H${n(cx + 20)}Q${n(cx + 46)} 120 ${n(cx + 16)} 150L${n(cx + 10)} 196Z" fill="${color}"/>`,
    );
    out.push(`<path d="M${n(cx - 14)} 96Q${n(cx - 26)} 120 ${n(cx - 12)} 146" stroke="#ffffff" stroke-width="4" opacity="0.5" fill="none"/>`);
  } else if (typology === "textile") {
    for (let i = 0; i < 8; i++) out.push(`<rect x="${n(70 + i * 15)}" y="40" width="8" height="150" fill="${shade(color, i % 2 ? 0.2 : -0.1)}"/>`);
  } else {
    const hgt = rng.range(90, 150),
      wid = rng.range(30, 60);
    const form = rng.int(0, 2);
    const d =
      form === 0
        ? `M${n(cx - wid / 2)} 196L${n(cx - wid / 3)} ${n(196 - hgt * 0.6)}Q${n(cx)} ${n(196 - hgt * 1.1)} ${n(cx + wid / 3)} ${n(196 - hgt * 0.6)}L${n(cx + wid / 2)} 196Z`
        : form === 1
          ? `M${n(cx - wid / 2)} 196V${n(196 - hgt)}H${n(cx + wid / 2)}V196Z`
          : `M${n(cx - 8)} 196V${n(196 - hgt * 0.55)}A${n(wid / 2)} ${n(wid / 2)} 0 1 1 ${n(cx + 8)} ${n(196 - hgt * 0.55)}V196Z`;
    out.push(`<path d="${d}" fill="${color}"/><path d="${d}" fill="none" stroke="${shade(color, -0.4)}" stroke-width="2"/>`);
  }
  return out.join("");
}

export function museumObjectSvg(opts: MuseumObjectOptions): string {
  const rng = createRng(`${opts.key}|front`);
  const tone = TONE[opts.period] ?? 0.14;
  // The gallery wall, too, is warmer for older works.
  const wall = jitter(mix("#e6e4e0", "#d9c9a8", tone * 1.6), rng, 4);
  const defs = [grainFilter("grain", rng, opts.typology === "painting" ? 0.6 : 1.1, opts.typology === "painting" ? 0.5 : 0.3)];
  const body = [`<rect width="256" height="256" fill="${wall}"/>`];
  if (opts.typology === "sculpture" || opts.typology === "decorative art" || opts.typology === "textile") {
    body.push(`<g filter="url(#grain)">${objectScene(rng, opts.typology, opts.material)}</g>`);
    return svgDocument(body.join(""), defs.join(""));
  }
  const portrait = rng.chance(0.5);
  const fw = portrait ? rng.range(150, 180) : rng.range(200, 228);
  const fh = portrait ? rng.range(200, 228) : rng.range(150, 180);
  const fx = 128 - fw / 2,
    fy = 128 - fh / 2;
  const painting = opts.typology === "painting";
  const frameWidth = painting ? (tone > 0.2 ? 16 : tone > 0.1 ? 10 : 4) : 5;
  const drawing = opts.typology === "drawing";
  const frameColor = painting
    ? tone > 0.2
      ? jitter("#b08d3c", rng, 10)
      : tone > 0.1
        ? "#6b4a2e"
        : "#222222"
    : drawing
      ? jitter("#a0825a", rng, 8)
      : jitter("#3b3733", rng, 6);
  body.push(`<rect x="${n(fx + 3)}" y="${n(fy + 4)}" width="${n(fw)}" height="${n(fh)}" fill="#000" opacity="0.18"/>`);
  body.push(`<rect x="${n(fx)}" y="${n(fy)}" width="${n(fw)}" height="${n(fh)}" fill="${frameColor}"/>`);
  if (painting && tone > 0.2)
    body.push(
      `<rect x="${n(fx + 4)}" y="${n(fy + 4)}" width="${n(fw - 8)}" height="${n(fh - 8)}" fill="none" stroke="${shade(frameColor, 0.3)}" stroke-width="3"/>`,
    );
  const mat = painting ? 0 : opts.typology === "photograph" ? 10 : drawing ? 12 : 22;
  const inner: Box = { x: fx + frameWidth, y: fy + frameWidth, w: fw - 2 * frameWidth, h: fh - 2 * frameWidth };
  body.push(`<rect x="${n(inner.x)}" y="${n(inner.y)}" width="${n(inner.w)}" height="${n(inner.h)}" fill="#f7f4ec"/>`);
  const pic: Box = { x: inner.x + mat, y: inner.y + mat, w: inner.w - 2 * mat, h: inner.h - 2 * mat };
  const paper = jitter(drawing ? "#e6d6b4" : "#f4efe4", rng, 5);
  let scene: string;
  if (painting) scene = paintingScene(rng, pic, opts.material, opts.period);
  else if (opts.typology === "photograph") scene = photoScene(rng, pic, opts.material);
  else {
    const ink =
      opts.material === "graphite"
        ? "#55585c"
        : opts.material === "charcoal"
          ? "#1d1d1d"
          : opts.material === "pastel" || opts.material === "chalk"
            ? jitter("#b0564a", rng, 30)
            : jitter("#2a2420", rng, 8);
    const print = opts.typology === "print";
    const kind = print ? (rng.chance(0.35) ? "bold" : "etched") : "soft";
    // Prints show the plate mark: a pressed, slightly darker rectangle round the image.
    const plate: Box = print ? { x: pic.x + 8, y: pic.y + 8, w: pic.w - 16, h: pic.h - 16 } : pic;
    scene =
      `<rect x="${n(pic.x)}" y="${n(pic.y)}" width="${n(pic.w)}" height="${n(pic.h)}" fill="${paper}"/>` +
      (print
        ? `<rect x="${n(plate.x)}" y="${n(plate.y)}" width="${n(plate.w)}" height="${n(plate.h)}" fill="${shade(paper, -0.06)}" stroke="${shade(paper, -0.2)}" stroke-width="1.5"/>`
        : "") +
      markScene(rng, plate, ink, kind);
  }
  defs.push(`<clipPath id="p"><rect x="${n(pic.x)}" y="${n(pic.y)}" width="${n(pic.w)}" height="${n(pic.h)}"/></clipPath>`);
  body.push(
    `<g clip-path="url(#p)" filter="url(#grain)">${scene}` +
      (tone > 0 ? `<rect x="${n(pic.x)}" y="${n(pic.y)}" width="${n(pic.w)}" height="${n(pic.h)}" fill="#7a5a20" opacity="${n(tone)}"/>` : "") +
      `</g>`,
  );
  return svgDocument(body.join(""), defs.join(""));
}

/** A 256×256 WebP drawing of the object as a framed card (or on a plinth, for objects). */
export function renderMuseumObject(opts: MuseumObjectOptions): Promise<Buffer> {
  return svgToWebp(museumObjectSvg(opts));
}
