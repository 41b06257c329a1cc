/**
 * Generated vessel drawings for the demo ceramics (an SVG "profile drawing", not a photograph):
 * the silhouette follows the typology, the left half is shown in section as archaeological
 * drawings do, the surface colour and gloss follow the material and the painted, stamped or
 * glazed decoration follows period and material (ceramicDecorationStyle). The record key seeds proportions, colour and decoration details.
 */
import { createRng, type Rng } from "./prng";
import { grainFilter, jitter, mix, n, shade, svgDocument, svgToWebp } from "./image-svg";

export interface CeramicProfileOptions {
  key: string;
  typology: string;
  material: string;
  period: string;
}

/** Outline as [y, half-width] pairs, both as fractions of the vessel height; plus height in px. */
const SHAPES: Record<string, { height: number; points: [number, number][] }> = {
  amphora: {
    height: 224,
    points: [
      [0, 0.07],
      [0.03, 0.08],
      [0.06, 0.06],
      [0.2, 0.055],
      [0.3, 0.15],
      [0.45, 0.2],
      [0.62, 0.18],
      [0.8, 0.1],
      [0.93, 0.035],
      [1, 0.02],
    ],
  },
  "storage jar": {
    height: 196,
    points: [
      [0, 0.2],
      [0.04, 0.23],
      [0.09, 0.2],
      [0.3, 0.36],
      [0.55, 0.39],
      [0.8, 0.3],
      [0.97, 0.21],
      [1, 0.2],
    ],
  },
  jug: {
    height: 186,
    points: [
      [0, 0.12],
      [0.04, 0.13],
      [0.1, 0.095],
      [0.25, 0.1],
      [0.42, 0.26],
      [0.62, 0.28],
      [0.85, 0.2],
      [0.97, 0.15],
      [1, 0.15],
    ],
  },
  "cooking pot": {
    height: 150,
    points: [
      [0, 0.46],
      [0.05, 0.42],
      [0.12, 0.39],
      [0.4, 0.5],
      [0.7, 0.45],
      [0.9, 0.27],
      [1, 0.02],
    ],
  },
  cup: {
    height: 112,
    points: [
      [0, 0.62],
      [0.08, 0.6],
      [0.55, 0.55],
      [0.85, 0.38],
      [0.9, 0.3],
      [1, 0.32],
    ],
  },
  bowl: {
    height: 88,
    points: [
      [0, 1.2],
      [0.08, 1.18],
      [0.45, 1.02],
      [0.8, 0.62],
      [0.86, 0.42],
      [1, 0.45],
    ],
  },
  plate: {
    height: 40,
    points: [
      [0, 2.55],
      [0.15, 2.45],
      [0.35, 1.9],
      [0.6, 1.35],
      [0.8, 1.1],
      [1, 1.1],
    ],
  },
};

interface MaterialLook {
  colors: string[];
  gloss: number;
  grain: number;
}

const MATERIALS: Record<string, MaterialLook> = {
  "coarse earthenware": { colors: ["#d4aa7b", "#c08a5e", "#b5764e", "#cfae8c"], gloss: 0, grain: 0.55 },
  "terra sigillata": { colors: ["#b9462a", "#c2552f", "#a63d26"], gloss: 0.45, grain: 0.12 },
  "glazed earthenware": { colors: ["#b8862b", "#6f8b3a", "#8f6a26", "#a57a2e"], gloss: 0.5, grain: 0.15 },
  "tin-glazed earthenware (majolica)": { colors: ["#f1ece0", "#ece6d6"], gloss: 0.55, grain: 0.08 },
  stoneware: { colors: ["#8e9297", "#9a938a", "#7f8488"], gloss: 0.3, grain: 0.3 },
  porcelain: { colors: ["#f7f8fb", "#f1f4f8"], gloss: 0.6, grain: 0.03 },
};

/** Catmull-Rom spline through the points, as cubic Bézier segments. */
function smooth(points: [number, number][]): string {
  let d = "";
  for (let i = 0; i < points.length - 1; i++) {
    const p0 = points[Math.max(0, i - 1)] as [number, number];
    const p1 = points[i] as [number, number];
    const p2 = points[i + 1] as [number, number];
    const p3 = points[Math.min(points.length - 1, i + 2)] as [number, number];
    const c1: [number, number] = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2: [number, number] = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${n(c1[0])} ${n(c1[1])} ${n(c2[0])} ${n(c2[1])} ${n(p2[0])} ${n(p2[1])}`;
  }
  return d;
}

export type DecorationStyle =
  "iberian-painted" | "grooves" | "ovolo" | "rilling" | "stamped" | "green-purple" | "glaze-drips" | "blue-floral" | "lines" | "plain";

/** The decoration a vessel of this period and material gets (shared with the descriptions). */
export function ceramicDecorationStyle(period: string, material: string): DecorationStyle {
  const sigillata = material === "terra sigillata";
  const fine = material === "tin-glazed earthenware (majolica)" || material === "porcelain";
  const glazed = material === "glazed earthenware";
  switch (period) {
    case "Iberian":
      return "iberian-painted";
    case "Roman Republic":
      return "grooves";
    case "Roman Imperial":
      return sigillata ? "ovolo" : "rilling";
    case "Late Antique":
      return sigillata ? "stamped" : "rilling";
    case "Medieval":
      return material === "tin-glazed earthenware (majolica)" ? "green-purple" : glazed ? "glaze-drips" : "grooves";
    case "Early Modern":
      return fine ? "blue-floral" : glazed ? "glaze-drips" : "plain";
    case "Modern":
      return fine || material === "stoneware" ? "lines" : glazed ? "glaze-drips" : "plain";
    default:
      return "plain";
  }
}

/** Painted, incised or stamped bands in the vessel's box (x0..x1, y0..y1). */
function decoration(style: DecorationStyle, base: string, rng: Rng, box: { x0: number; x1: number; y0: number; y1: number }): string {
  const { x0, x1, y0, y1 } = box;
  const h = y1 - y0;
  const band = (y: number, color: string, w: number): string => `<path d="M${n(x0)} ${n(y)}H${n(x1)}" stroke="${color}" stroke-width="${n(w)}"/>`;
  const out: string[] = [];
  if (style === "iberian-painted") {
    const paint = jitter("#7a2e17", rng, 12);
    for (let i = 0; i < rng.int(2, 4); i++) out.push(band(y0 + h * rng.range(0.15, 0.75), paint, rng.range(2, 5)));
    const yc = y0 + h * rng.range(0.35, 0.55);
    for (let k = 0; k < 3; k++) {
      const x = x0 + (x1 - x0) * (0.2 + 0.3 * k);
      for (const r of [4, 8, 12])
        out.push(`<path d="M${n(x - r)} ${n(yc)}A${r} ${r} 0 0 1 ${n(x + r)} ${n(yc)}" stroke="${paint}" stroke-width="1.6" fill="none"/>`);
    }
  } else if (style === "grooves") {
    for (let i = 0; i < rng.int(1, 3); i++) out.push(band(y0 + h * rng.range(0.2, 0.6), "rgba(0,0,0,0.35)", 1));
  } else if (style === "ovolo") {
    const y = y0 + h * 0.18;
    for (let x = x0 + 3; x < x1; x += 7) out.push(`<ellipse cx="${n(x)}" cy="${n(y)}" rx="2.6" ry="3.6" fill="none" stroke="#6e2212" stroke-width="1.2"/>`);
    for (let i = 0; i < rng.int(2, 4); i++)
      out.push(
        `<circle cx="${n(rng.range(x0 + 6, x1 - 6))}" cy="${n(y0 + h * rng.range(0.35, 0.6))}" r="${n(rng.range(3, 6))}" fill="none" stroke="#7a2815" stroke-width="1.4"/>`,
      );
  } else if (style === "rilling") {
    for (let y = y0 + h * 0.3; y < y0 + h * 0.8; y += rng.range(4, 7)) out.push(band(y, "rgba(0,0,0,0.18)", 0.8));
  } else if (style === "stamped") {
    const y = y0 + h * rng.range(0.25, 0.5);
    for (let x = x0 + 4; x < x1; x += 5) out.push(`<path d="M${n(x)} ${n(y - 2)}l2 4" stroke="rgba(0,0,0,0.35)" stroke-width="1"/>`);
    for (let i = 0; i < rng.int(1, 3); i++) {
      const cx = rng.range(x0 + 6, x1 - 6),
        cy = y0 + h * rng.range(0.55, 0.75);
      out.push(`<path d="M${n(cx - 4)} ${n(cy)}h8M${n(cx)} ${n(cy - 4)}v8" stroke="rgba(60,20,10,0.6)" stroke-width="1.6"/>`);
    }
  } else if (style === "green-purple") {
    const green = jitter("#2f6b2c", rng, 10),
      purple = jitter("#4a2a3f", rng, 10);
    out.push(band(y0 + h * 0.12, green, 3), band(y0 + h * 0.2, purple, 1.5));
    for (let x = x0 + 6; x < x1 - 4; x += rng.range(10, 16)) {
      out.push(`<path d="M${n(x)} ${n(y0 + h * 0.3)}q4 ${n(h * 0.15)} 0 ${n(h * 0.3)}" stroke="${purple}" stroke-width="1.6" fill="none"/>`);
      out.push(`<circle cx="${n(x + 5)}" cy="${n(y0 + h * 0.45)}" r="2.5" fill="${green}"/>`);
    }
  } else if (style === "glaze-drips") {
    const glaze = shade(base, -0.3);
    out.push(band(y0 + h * 0.05, glaze, 4));
    for (let x = x0 + 4; x < x1 - 2; x += rng.range(7, 13)) {
      out.push(
        `<path d="M${n(x)} ${n(y0)}q${n(rng.range(-3, 3))} ${n(h * 0.2)} 0 ${n(h * rng.range(0.15, 0.45))}" stroke="${glaze}" stroke-width="${n(rng.range(2, 4))}" stroke-linecap="round" fill="none" opacity="0.7"/>`,
      );
    }
  } else if (style === "blue-floral") {
    const blue = jitter("#23489a", rng, 14);
    out.push(band(y0 + h * 0.1, blue, 2.5));
    for (let i = 0; i < rng.int(2, 4); i++) {
      const cx = rng.range(x0 + 8, x1 - 8),
        cy = y0 + h * rng.range(0.3, 0.7),
        r = rng.range(4, 9);
      out.push(
        `<path d="M${n(cx)} ${n(cy)}c${n(r)} ${n(-r)} ${n(r * 2)} 0 ${n(r)} ${n(r)}c${n(-r)} ${n(r)} ${n(-r * 2)} 0 ${n(-r)} ${n(-r)}z" fill="${blue}" opacity="0.8"/>`,
      );
      out.push(
        `<path d="M${n(cx)} ${n(cy)}q${n(-r)} ${n(r)} ${n(-r * 1.5)} ${n(r * 2)}" stroke="${mix(blue, "#2e7d4f", 0.5)}" stroke-width="1.4" fill="none"/>`,
      );
    }
  } else if (style === "lines") {
    const c = rng.pick(["#1f5fa8", "#b23a3a", "#2b7a4b", "#333333"]);
    out.push(band(y0 + h * 0.06, c, 2), band(y0 + h * 0.1, c, 0.8));
  }
  return out.join("");
}

function lampPath(cx: number, cy: number, s: number): string {
  return (
    `M${n(cx - 62 * s)} ${n(cy)}C${n(cx - 62 * s)} ${n(cy - 30 * s)} ${n(cx + 30 * s)} ${n(cy - 30 * s)} ${n(cx + 36 * s)} ${n(cy - 8 * s)}` +
    `L${n(cx + 78 * s)} ${n(cy - 10 * s)}C${n(cx + 86 * s)} ${n(cy - 6 * s)} ${n(cx + 86 * s)} ${n(cy + 8 * s)} ${n(cx + 78 * s)} ${n(cy + 10 * s)}` +
    `L${n(cx + 34 * s)} ${n(cy + 14 * s)}C${n(cx + 20 * s)} ${n(cy + 26 * s)} ${n(cx - 40 * s)} ${n(cy + 26 * s)} ${n(cx - 62 * s)} ${n(cy)}Z`
  );
}

export function ceramicProfileSvg(opts: CeramicProfileOptions): string {
  const rng = createRng(`${opts.key}|profile`);
  const look = MATERIALS[opts.material] ?? (MATERIALS["coarse earthenware"] as MaterialLook);
  const color = jitter(rng.pick(look.colors), rng, 10);
  const paper = jitter("#f3efe6", rng, 3);
  const cx = 128;
  const style = ceramicDecorationStyle(opts.period, opts.material);
  const defs: string[] = [grainFilter("grain", rng, 0.8, look.grain)];
  defs.push(
    `<linearGradient id="gloss" x1="0" x2="1" y1="0" y2="0"><stop offset="0" stop-color="${shade(color, -0.08)}"/>` +
      `<stop offset="${n(rng.range(0.25, 0.4))}" stop-color="${shade(color, 0.1 + look.gloss * 0.6)}"/>` +
      `<stop offset="0.7" stop-color="${color}"/><stop offset="1" stop-color="${shade(color, -0.35)}"/></linearGradient>`,
  );
  const body: string[] = [`<rect width="256" height="256" fill="${paper}"/>`];
  if (opts.typology === "oil lamp") {
    const s = rng.range(1.05, 1.3),
      cy = 138;
    const d = lampPath(cx - 10, cy, s);
    defs.push(`<clipPath id="v"><path d="${d}"/></clipPath>`);
    body.push(`<ellipse cx="${cx}" cy="${n(cy + 28 * s)}" rx="${n(70 * s)}" ry="5" fill="#000" opacity="0.12"/>`);
    body.push(`<path d="M${n(cx - 60 * s)} ${n(cy - 4)}c-22 -4 -22 -30 2 -28" stroke="${shade(color, -0.2)}" stroke-width="7" fill="none"/>`);
    body.push(`<g filter="url(#grain)"><path d="${d}" fill="url(#gloss)"/></g>`);
    body.push(
      `<g clip-path="url(#v)" fill="none">${decoration(style, color, rng, { x0: cx - 70 * s, x1: cx + 40 * s, y0: cy - 24 * s, y1: cy + 20 * s })}</g>`,
    );
    body.push(`<ellipse cx="${n(cx - 14 * s)}" cy="${n(cy - 16 * s)}" rx="${n(24 * s)}" ry="${n(5 * s)}" fill="${shade(color, -0.25)}"/>`);
    body.push(`<path d="${d}" fill="none" stroke="#2b2420" stroke-width="1.6"/>`);
    return svgDocument(body.join(""), defs.join(""));
  }
  const shape = SHAPES[opts.typology] ?? (SHAPES.jug as (typeof SHAPES)[string]);
  const height = shape.height * rng.range(0.92, 1.05);
  const widen = rng.range(0.9, 1.1);
  const top = 128 - height / 2;
  const pts = shape.points.map(([y, r]) => [top + y * height, Math.min(118, r * height * widen * (1 + rng.range(-0.03, 0.03)))] as [number, number]);
  const right = pts.map(([y, r]) => [cx + r, y] as [number, number]);
  const left = [...pts].reverse().map(([y, r]) => [cx - r, y] as [number, number]);
  const first = right[0] as [number, number];
  const lastR = right[right.length - 1] as [number, number];
  const firstL = left[0] as [number, number];
  const outline = `M${n(first[0])} ${n(first[1])}${smooth(right)}L${n(firstL[0])} ${n(firstL[1])}${smooth(left)}Z`;
  const wall = Math.max(2.5, height * 0.025);
  const inner = pts.slice(0, -1).map(([y, r]) => [cx - Math.max(0, r - wall), y + (y === top ? wall : 0)] as [number, number]);
  const innerStart = inner[0] as [number, number];
  const innerEnd = inner[inner.length - 1] as [number, number];
  const section = `M${cx} ${n(innerStart[1])}L${n(innerStart[0])} ${n(innerStart[1])}${smooth(inner)}L${cx} ${n(innerEnd[1])}Z`;
  defs.push(`<clipPath id="v"><path d="${outline}"/></clipPath>`);
  const maxR = Math.max(...pts.map(([, r]) => r));
  body.push(`<ellipse cx="${cx}" cy="${n(lastR[1] + 3)}" rx="${n(maxR * 0.9)}" ry="4" fill="#000" opacity="0.12"/>`);
  // Handles, drawn first so the body overlaps their roots.
  const handle = (side: 1 | -1, y1: number, y2: number, reach: number): string => {
    const p1 = pts.find(([y]) => y >= top + y1 * height) ?? (pts[0] as [number, number]);
    const p2 = pts.find(([y]) => y >= top + y2 * height) ?? (pts[0] as [number, number]);
    const x1 = cx + side * (p1[1] - 2),
      x2 = cx + side * (p2[1] - 2);
    return `<path d="M${n(x1)} ${n(p1[0])}C${n(x1 + side * reach)} ${n(p1[0] - 6)} ${n(x2 + side * reach)} ${n(p2[0] - 10)} ${n(x2)} ${n(p2[0])}" stroke="${shade(color, -0.3)}" stroke-width="${n(Math.max(5, height * 0.035))}" fill="none" stroke-linecap="round"/>`;
  };
  if (opts.typology === "amphora") body.push(handle(1, 0.06, 0.28, 26), handle(-1, 0.06, 0.28, 26));
  if (opts.typology === "jug") body.push(handle(1, 0.12, 0.45, 34));
  if (opts.typology === "cup" && (opts.period === "Modern" || opts.period === "Early Modern" || rng.chance(0.3))) body.push(handle(1, 0.15, 0.6, 22));
  if (opts.typology === "cooking pot" && rng.chance(0.6)) body.push(handle(1, 0.1, 0.3, 12), handle(-1, 0.1, 0.3, 12));
  if (opts.typology === "storage jar" && rng.chance(0.5)) body.push(handle(1, 0.2, 0.3, 10), handle(-1, 0.2, 0.3, 10));
  body.push(`<g filter="url(#grain)"><path d="${outline}" fill="url(#gloss)"/></g>`);
  body.push(`<g clip-path="url(#v)" fill="none">${decoration(style, color, rng, { x0: cx + 1, x1: cx + maxR, y0: top, y1: top + height })}</g>`);
  if (opts.typology === "jug")
    body.push(`<path d="M${n(cx - (pts[0]?.[1] ?? 10))} ${n(top + 2)}l-10 -5l4 8z" fill="${color}" stroke="#2b2420" stroke-width="1.2"/>`);
  // Section on the left half: the wall in black, the inner surface in a paler tone.
  body.push(`<g clip-path="url(#v)"><rect x="${n(cx - maxR - 2)}" y="0" width="${n(maxR + 2)}" height="256" fill="#1c1a18"/>`);
  body.push(`<path d="${section}" fill="${mix(color, paper, 0.45)}"/></g>`);
  body.push(
    `<path d="${outline}" fill="none" stroke="#2b2420" stroke-width="1.4"/><path d="M${cx} ${n(top - 8)}V${n(lastR[1] + 8)}" stroke="#2b2420" stroke-width="0.8" stroke-dasharray="6 3"/>`,
  );
  return svgDocument(body.join(""), defs.join(""));
}

/** A 256×256 WebP profile drawing of the vessel. */
export function renderCeramicProfile(opts: CeramicProfileOptions): Promise<Buffer> {
  return svgToWebp(ceramicProfileSvg(opts));
}
