/**
 * Generated coin faces for the demo (drawings built as SVG, not photographs of the coins).
 * Metal sets the colour and patina, typology the flan size and rim, period the motifs; the
 * record key seeds the small variations (position, flan shape, wear, legend).
 */
import { createRng, type Rng } from "./prng";
import { dotRing, grainFilter, jitter, legendRing, mix, n, shade, svgDocument, svgToWebp } from "./image-svg";

export interface CoinFaceOptions {
  /** Record key: seeds the variation. */
  key: string;
  face: "obverse" | "reverse";
  metal: string;
  typology: string;
  period: string | null;
}

interface MetalLook {
  base: string;
  light: string;
  dark: string;
  /** Colour of corrosion / toning blotches, and how many. */
  patina: string;
  patches: number;
}

const METALS: Record<string, MetalLook> = {
  gold: { base: "#d4a935", light: "#f7e08c", dark: "#8a6410", patina: "#b98a2a", patches: 0 },
  electrum: { base: "#c9b56c", light: "#ede0a8", dark: "#7d6a2e", patina: "#a89050", patches: 1 },
  silver: { base: "#aeb3ba", light: "#eef1f4", dark: "#5d636b", patina: "#8c8a94", patches: 2 },
  billon: { base: "#8d877b", light: "#c9c4b8", dark: "#4a463f", patina: "#5f6a58", patches: 3 },
  bronze: { base: "#8a5a32", light: "#c8945e", dark: "#3f2814", patina: "#4f7d5c", patches: 6 },
  orichalcum: { base: "#a9893f", light: "#dcc07a", dark: "#5a461a", patina: "#5d7e58", patches: 4 },
  copper: { base: "#a35a3a", light: "#d98e6c", dark: "#4e2416", patina: "#3f8a70", patches: 5 },
  unknown: { base: "#857565", light: "#bcae9c", dark: "#463b30", patina: "#5f6b55", patches: 3 },
};

/** Flan radius in px (of 256) and rim width by typology, roughly following real diameters. */
const FLAN: Record<string, [radius: number, rim: number]> = {
  decadrachm: [116, 0],
  tetradrachm: [104, 0],
  cistophorus: [102, 0],
  didrachm: [90, 0],
  stater: [82, 0],
  drachm: [74, 0],
  siglos: [68, 0],
  hemidrachm: [62, 0],
  obol: [50, 0],
  chalkous: [48, 0],
  unit: [66, 0],
  sestertius: [114, 7],
  dupondius: [98, 6],
  as: [92, 5],
  aureus: [72, 4],
  denarius: [70, 3],
  quinarius: [58, 3],
  antoninianus: [80, 3],
  nummus: [78, 4],
  follis: [100, 5],
  solidus: [80, 5],
  semissis: [66, 4],
  tremissis: [56, 3],
  miliaresion: [88, 6],
  histamenon: [94, 6],
  "aspron trachy": [104, 5],
  hyperpyron: [98, 5],
  other: [76, 2],
  unidentified: [86, 2],
};

const GREEK = new Set(["Archaic Greek", "Classical Greek", "Hellenistic", "Iron Age"]);

/** Profile head facing right, in a ±50 box; variant adds headgear. */
function profileHead(variant: string, rng: Rng): string {
  const s = rng.range(0.92, 1.08);
  const neck = `M-20 40C-22 20-30 5-28-12C-26-38 8-44 18-26L22-12L30-2L22 2L24 8L21 12L22 18C16 24 8 24 6 26L8 40Z`;
  const parts = [neck];
  if (variant === "bust" || variant === "radiate" || variant === "diadem-bust") parts.push("M-36 56C-32 38 20 36 32 52L32 58L-36 58Z");
  if (variant === "helmet") parts.push("M-32-8C-34-40 6-52 22-30L26-16L-8-14Z M-30-30C-40-52-20-62 4-56L0-46Z");
  if (variant === "lion") parts.push("M-34 30L-38 10L-42-4L-34-20L-36-36L-20-46L-4-50L12-44L20-36L10-30L-20-30L-26 0L-22 30Z");
  if (variant === "laurel" || variant === "bust") {
    for (let i = 0; i < 7; i++) {
      const a = -2.6 + i * 0.36;
      parts.push(`M${n(-8 + 30 * Math.cos(a))} ${n(-16 + 30 * Math.sin(a))}l${n(-6 * Math.sin(a))} ${n(6 * Math.cos(a))}l4 -2z`);
    }
  }
  if (variant === "radiate") {
    for (let i = 0; i < 7; i++) {
      const a = -2.7 + i * 0.34;
      const x = -6 + 26 * Math.cos(a),
        y = -16 + 26 * Math.sin(a);
      parts.push(`M${n(x - 3)} ${n(y)}L${n(x + 14 * Math.cos(a))} ${n(y + 14 * Math.sin(a))}L${n(x + 3)} ${n(y)}Z`);
    }
  }
  if (variant === "diadem" || variant === "diadem-bust") parts.push("M-28-16L18-22L18-18L-28-12Z M-28-14L-40 2L-36 4L-26-10Z");
  const eye = `<circle cx="14" cy="-14" r="2.4" fill="none" stroke-width="1.5"/>`;
  return `<g transform="scale(${n(s)})"><path d="${parts.join("")}"/>${eye}</g>`;
}

function frontalBust(crowned: boolean, shoulders: boolean): string {
  const head = `<circle cx="0" cy="-14" r="17"/><circle cx="-6" cy="-16" r="2.2" fill="none"/><circle cx="6" cy="-16" r="2.2" fill="none"/>`;
  const crown = crowned ? `<path d="M-18-24H18V-33H-18Z"/><path d="M0-33V-46M-6-41H6M-17-24V-8M17-24V-8" stroke-width="3" fill="none"/>` : "";
  const body = shoulders ? `<path d="M-38 50C-36 14-20 6 0 6C20 6 36 14 38 50Z"/><path d="M22 4V44M14 14H30" stroke-width="4"/>` : "";
  return head + crown + body;
}

function owl(): string {
  return (
    `<ellipse cx="0" cy="8" rx="24" ry="32"/><circle cx="-10" cy="-18" r="9"/><circle cx="10" cy="-18" r="9"/>` +
    `<path d="M-22-30L-14-20M22-30L14-20M-12 40L-16 50M12 40L16 50" stroke-width="4"/><path d="M28-34q14 10 6 26q-10-10-6-26z"/>`
  );
}

function standingFigure(rng: Rng): string {
  const lean = rng.range(-4, 4);
  return (
    `<circle cx="${n(lean)}" cy="-34" r="8"/><path d="M${n(lean - 8)}-24L${n(lean + 8)}-24L14 34L-14 34Z"/>` +
    `<path d="M${n(lean + 8)}-18L26-40M${n(lean - 8)}-16L-22 8M-40 40H40" stroke-width="4"/>`
  );
}

function wreath(rng: Rng): string {
  const leaves: string[] = [];
  const count = rng.int(14, 20);
  for (let i = 0; i < count; i++) {
    const a = (2 * Math.PI * i) / count;
    leaves.push(
      `<ellipse cx="${n(34 * Math.cos(a))}" cy="${n(34 * Math.sin(a))}" rx="7" ry="3" transform="rotate(${n((a * 180) / Math.PI + 60)} ${n(34 * Math.cos(a))} ${n(34 * Math.sin(a))})"/>`,
    );
  }
  return leaves.join("") + `<path d="M-14-8H14M-14 8H14M0-14V14" stroke-width="5"/>`;
}

function crossOnSteps(): string {
  return `<path d="M-6-46H6V-12H22V-2H6V22H-6V-2H-22V-12H-6Z"/><path d="M-20 26H20V32H-20ZM-28 34H28V40H-28ZM-36 42H36V48H-36Z"/>`;
}

function longCross(): string {
  const pellets: string[] = [];
  for (const [sx, sy] of [
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ] as const) {
    for (const [dx, dy] of [
      [14, 14],
      [24, 12],
      [12, 24],
    ] as const)
      pellets.push(`<circle cx="${sx * dx}" cy="${sy * dy}" r="4.5"/>`);
  }
  return `<path d="M-4-62H4V62H-4ZM-62-4H62V4H-62Z"/>${pellets.join("")}`;
}

function shield(): string {
  return (
    `<path d="M-34-40H34V4C34 30 0 46 0 46C0 46-34 30-34 4Z"/><path d="M0-40V44M-34 0H34" stroke-width="4" fill="none"/>` +
    `<path d="M-22-56L-12-48L0-60L12-48L22-56L18-44H-18Z"/>`
  );
}

function horse(): string {
  return (
    `<ellipse cx="0" cy="0" rx="30" ry="14"/><path d="M24-6L40-30L48-26L34 2Z"/>` +
    `<path d="M-20 10L-28 40M-10 12L-8 40M14 12L10 40M24 8L30 40M-30-4Q-48 0-44 24" stroke-width="5" fill="none"/><circle cx="-4" cy="-34" r="6"/>`
  );
}

function cornEar(rng: Rng): string {
  const grains: string[] = [`<path d="M0 50V-50" stroke-width="4"/>`];
  for (let i = 0; i < 8; i++) {
    const y = -42 + i * 11 + rng.range(-1, 1);
    grains.push(
      `<ellipse cx="-9" cy="${n(y)}" rx="8" ry="4.5" transform="rotate(-30 -9 ${n(y)})"/><ellipse cx="9" cy="${n(y)}" rx="8" ry="4.5" transform="rotate(30 9 ${n(y)})"/>`,
    );
  }
  return grains.join("");
}

function bigM(): string {
  return `<path d="M-30 36V-36H-16L0-6L16-36H30V36H18V-14L4 12H-4L-18-14V36Z"/><path d="M-6 42H6" stroke-width="4"/>`;
}

/** The motif for one face, in a ±60 box centred on the flan. */
function motif(face: "obverse" | "reverse", period: string | null, typology: string, rng: Rng): string {
  const p = period ?? "";
  if (face === "obverse") {
    if (p === "Byzantine") return frontalBust(true, true);
    if (p === "Medieval" || p === "Early Medieval") return rng.chance(0.7) ? frontalBust(true, false) : longCross();
    if (p === "Early Modern") return rng.chance(0.5) ? frontalBust(true, true) : shield();
    if (p === "Iron Age") return rng.chance(0.5) ? cornEar(rng) : horse();
    if (p === "Roman Imperial") return profileHead(typology === "antoninianus" || typology === "dupondius" ? "radiate" : "bust", rng);
    if (p === "Late Roman") return profileHead("diadem-bust", rng);
    if (p === "Roman Republic") return profileHead(rng.chance(0.7) ? "helmet" : "laurel", rng);
    if (p === "Archaic Greek") return profileHead(rng.pick(["plain", "helmet"]), rng);
    if (p === "Classical Greek") return profileHead(rng.pick(["helmet", "lion", "laurel"]), rng);
    if (p === "Hellenistic") return profileHead(rng.pick(["diadem", "lion", "laurel"]), rng);
    return profileHead("plain", rng);
  }
  if (p === "Byzantine") return typology === "follis" || typology === "nummus" ? bigM() : rng.chance(0.6) ? crossOnSteps() : frontalBust(false, true);
  if (p === "Medieval" || p === "Early Medieval") return longCross();
  if (p === "Early Modern") return shield();
  if (p === "Iron Age") return horse();
  if (GREEK.has(p)) return rng.pick([owl(), standingFigure(rng), owl(), wreath(rng)]);
  return rng.chance(0.65) ? standingFigure(rng) : wreath(rng);
}

/** The flan outline: struck Greek flans are irregular, later ones close to round. */
function flanPath(cx: number, cy: number, r: number, irregular: boolean, rng: Rng): string {
  const steps = 24;
  const wobble = irregular ? 0.05 : 0.012;
  const phase = rng.range(0, Math.PI * 2);
  const pts: [number, number][] = [];
  for (let i = 0; i < steps; i++) {
    const a = (2 * Math.PI * i) / steps;
    const rr = r * (1 + wobble * Math.sin(a * 2 + phase) + rng.range(-wobble, wobble) * 0.5);
    pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  // Smooth closed curve: quadratic segments through the midpoints of the polygon's sides.
  const mid = (i: number): [number, number] => {
    const a = pts[i % steps] as [number, number];
    const b = pts[(i + 1) % steps] as [number, number];
    return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  };
  const start = mid(steps - 1);
  let d = `M${n(start[0])} ${n(start[1])}`;
  for (let i = 0; i < steps; i++) {
    const p = pts[i] as [number, number];
    const m = mid(i);
    d += `Q${n(p[0])} ${n(p[1])} ${n(m[0])} ${n(m[1])}`;
  }
  return `${d}Z`;
}

export function coinFaceSvg(opts: CoinFaceOptions): string {
  const rng = createRng(`${opts.key}|${opts.face}`);
  const look = METALS[opts.metal] ?? (METALS.unknown as MetalLook);
  const [baseRadius, rim] = FLAN[opts.typology] ?? [80, 2];
  const greek = GREEK.has(opts.period ?? "");
  const r = baseRadius * rng.range(0.96, 1.04);
  const cx = 128 + rng.range(-3, 3);
  const cy = 128 + rng.range(-3, 3);
  const base = jitter(look.base, rng, 8);
  const flan = flanPath(cx, cy, r, greek, rng);
  // Greek dies were often struck off centre.
  const off = greek ? rng.range(-0.12, 0.12) * r : rng.range(-0.03, 0.03) * r;
  const scale = (r * 0.78) / 60;
  const mx = cx + off;
  const my = cy + (greek ? rng.range(-0.1, 0.1) * r : 0);
  const art = motif(opts.face, opts.period, opts.typology, rng);
  const wear = rng.range(0.3, 1.3);
  const defs =
    `<radialGradient id="g" cx="0.38" cy="0.34" r="0.75"><stop offset="0" stop-color="${shade(base, 0.35)}"/>` +
    `<stop offset="0.6" stop-color="${base}"/><stop offset="1" stop-color="${shade(base, -0.35)}"/></radialGradient>` +
    `<clipPath id="c"><path d="${flan}"/></clipPath>` +
    grainFilter("grain", rng, 0.9, 0.45) +
    `<filter id="w"><feGaussianBlur stdDeviation="${n(wear)}"/></filter><filter id="b"><feGaussianBlur stdDeviation="5"/></filter>`;
  const relief = (fill: string, dx: number, dy: number): string =>
    `<g transform="translate(${n(mx + dx)} ${n(my + dy)}) scale(${n(scale)})" fill="${fill}" stroke="${fill}" filter="url(#w)">${art}</g>`;
  const patches: string[] = [];
  for (let i = 0; i < look.patches + rng.int(0, 2); i++) {
    const a = rng.range(0, Math.PI * 2),
      d = rng.range(0, r * 0.9);
    patches.push(
      `<ellipse cx="${n(cx + d * Math.cos(a))}" cy="${n(cy + d * Math.sin(a))}" rx="${n(rng.range(6, r * 0.35))}" ry="${n(rng.range(5, r * 0.25))}" fill="${jitter(look.patina, rng, 10)}" opacity="${n(rng.range(0.35, 0.7))}"/>`,
    );
  }
  const roman = !greek && (opts.period ?? "") !== "";
  const ring = roman
    ? legendRing(rng, cx, cy, r - rim - 12, { count: rng.int(16, 26), height: Math.max(7, r * 0.11), color: shade(base, -0.45), width: 1.6 }) +
      (rim > 0 ? dotRing(cx, cy, r - rim - 3, Math.round(r * 0.9), 1.3, shade(base, -0.4)) : "")
    : legendRing(rng, mx + r * 0.45, my - r * 0.1, 8, { count: 3, height: 8, color: shade(base, -0.45), width: 1.5, startDeg: 60, spanDeg: 60 });
  const body =
    `<rect width="256" height="256" fill="${mix("#26262b", base, 0.08)}"/>` +
    `<path d="${flan}" fill="#000" opacity="0.5" transform="translate(4 5)" filter="url(#b)"/>` +
    `<g clip-path="url(#c)" filter="url(#grain)"><path d="${flan}" fill="url(#g)"/>${patches.join("")}` +
    relief(shade(base, -0.5), 1.6, 1.8) +
    relief(shade(look.light, 0.05), -0.8, -0.9) +
    relief(base, 0, 0) +
    ring +
    (rim > 0 ? `<path d="${flan}" fill="none" stroke="${shade(base, 0.2)}" stroke-width="${rim}"/>` : "") +
    `</g>` +
    `<path d="${flan}" fill="none" stroke="${shade(base, -0.55)}" stroke-width="1.5"/>`;
  return svgDocument(body, defs);
}

/** A 256×256 WebP drawing of one face of the coin. */
export function renderCoinFace(opts: CoinFaceOptions): Promise<Buffer> {
  return svgToWebp(coinFaceSvg(opts));
}
