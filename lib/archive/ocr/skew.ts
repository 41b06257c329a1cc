import { openImage } from "../image-limits";

/**
 * A scan's skew, found the simple way: rotate a small greyscale copy by each candidate angle
 * and keep the one whose rows are most uneven (lines of text dark, the gaps between them
 * white) — the projection-profile method. A 1,000 px copy and 25 angles take about 0.2 s.
 */

/** Candidate angles in degrees: −3° to +3° by 0.25°. */
export const skewCandidates = Array.from({ length: 25 }, (_, index) => -3 + index * 0.25);

/** Width of the copy the angles are tried on. */
const probeWidth = 1000;

/**
 * How sharply a greyscale raster's rows alternate between ink and paper: the variance of the
 * per-row count of dark pixels. Text lines that lie level give tall peaks and empty gaps.
 */
export function rowProfileScore(pixels: Uint8Array, width: number, height: number, darkBelow = 128): number {
  if (height === 0 || width === 0) return 0;
  const counts = new Float64Array(height);
  for (let row = 0; row < height; row++) {
    let dark = 0;
    const start = row * width;
    for (let column = 0; column < width; column++) if ((pixels[start + column] ?? 255) < darkBelow) dark++;
    counts[row] = dark;
  }
  let mean = 0;
  for (const count of counts) mean += count;
  mean /= height;
  let variance = 0;
  for (const count of counts) variance += (count - mean) ** 2;
  return variance / height;
}

/**
 * The angle to keep among scored candidates: the best score, but level (0°) unless another
 * angle beats it by more than `margin` (2%) — a page that is already straight is not turned
 * by noise in the scores.
 */
export function chooseSkewAngle(scores: readonly { angle: number; score: number }[], margin = 0.02): number {
  const level = scores.find((item) => item.angle === 0);
  let best = level ?? scores[0];
  for (const item of scores) if (best && item.score > best.score) best = item;
  if (!best) return 0;
  if (level && best.score <= level.score * (1 + margin)) return 0;
  return best.angle;
}

/**
 * The rotation (degrees, clockwise positive as sharp turns) that levels the page: the text
 * leans by minus this angle.
 */
export async function estimateDeskewAngle(imagePath: string): Promise<number> {
  const { data, info } = await openImage(imagePath)
    .greyscale()
    .resize({ width: probeWidth, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const scores: { angle: number; score: number }[] = [];
  for (const angle of skewCandidates) {
    const rotated =
      angle === 0
        ? { data, info }
        : await openImage(data, { raw: { width: info.width, height: info.height, channels: 1 } })
            .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
            .greyscale()
            .raw()
            .toBuffer({ resolveWithObject: true });
    scores.push({ angle, score: rowProfileScore(new Uint8Array(rotated.data), rotated.info.width, rotated.info.height) });
  }
  return chooseSkewAngle(scores);
}
