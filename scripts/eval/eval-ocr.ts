/**
 * `npm run eval:ocr`: character error of the OCR pipeline against known text. The opening page
 * of three demo publications (English, Spanish, Catalan) is set as a page image
 * (prisma/seed/scanned-pages.ts) in five looks, and each is read exactly as the index worker
 * reads a scan (lib/archive/ocr: page images, tesseract, a levelled second reading under the
 * confidence bar):
 *   clean      level, no speckle, PNG
 *   skewed     turned 1.5°, PNG
 *   noisy      turned 0.8°, 3% of pixels speckled, JPEG
 *   small      turned 1°, at 150 dpi (the enlarged second reading's case)
 *   pdf        turned 1°, light speckle, a JPEG inside a PDF, taken out with pdfimages
 * Character error rate = Levenshtein distance / known characters, over text with whitespace
 * runs made one space (accents and punctuation count). Prints one line per look and language,
 * then means per look with seconds per page — wall clock, and CPU seconds of this process and its
 * children (tesseract runs with OMP_THREAD_LIMIT=1), which a busy machine stretches far less.
 *
 *   npm run eval:ocr [-- --min-confidence 80] [--looks clean,noisy]
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { getConfig } from "../../lib/config";
import { openImage } from "../../lib/archive/image-limits";
import { pageImagesOf } from "../../lib/archive/ocr/page-images";
import { ocrMinConfidence, ocrPageTimeoutMs, recognisePage } from "../../lib/archive/ocr/recognise-page";
import { characterErrorRate, imagePdf, pageHeight, pageWidth, paginate, plainParagraphs, renderScannedPage } from "../../prisma/seed/scanned-pages";
import type { Publication } from "../../prisma/seed/text-collections";

function readArguments() {
  try {
    return parseArgs({ options: { "min-confidence": { type: "string" }, looks: { type: "string" } }, strict: true }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\nusage: npm run eval:ocr [-- --min-confidence 80] [--looks clean,noisy]`);
    process.exit(2);
  }
}
const flags = readArguments();
const config = getConfig();
const minConfidence = Number(flags["min-confidence"] ?? ocrMinConfidence);
const ocr = { languages: config.MNEMO_OCR_LANGUAGES, minConfidence, timeoutMs: ocrPageTimeoutMs };

const publications = JSON.parse(readFileSync(join(process.cwd(), "prisma", "seed", "data", "publications", "publications.json"), "utf8")) as Publication[];
const chosen = ["en", "es", "ca"].map((language) => publications.find((publication) => publication.language === language)).filter((item) => item !== undefined);

type Look = "clean" | "skewed" | "noisy" | "small" | "pdf";
const allLooks: Look[] = ["clean", "skewed", "noisy", "small", "pdf"];
const looks = flags.looks ? allLooks.filter((look) => flags.looks?.split(",").includes(look)) : allLooks;

/**
 * CPU seconds of this process and its waited-for children (tesseract, pdfimages): wall-clock
 * time on a shared machine stretches with the load, CPU time much less. Linux (/proc); null elsewhere.
 */
function cpuSeconds(): number | null {
  if (!existsSync("/proc/self/stat")) return null;
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime, stime, cutime, cstime: fields 14–17 of proc(5), in clock ticks (100 a second).
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  return ticks / 100;
}

async function pageFile(directory: string, look: Look, lines: string[], seed: string): Promise<{ path: string; mime: string }> {
  const settings = {
    clean: { angle: 0, noise: 0 },
    skewed: { angle: 1.5, noise: 0 },
    noisy: { angle: 0.8, noise: 0.03 },
    small: { angle: 1, noise: 0.002 },
    pdf: { angle: -1, noise: 0.004 },
  }[look];
  const format = look === "noisy" || look === "pdf" ? "jpeg" : "png";
  let bytes: Uint8Array = await renderScannedPage(lines, { ...settings, seed, format });
  let mime = format === "png" ? "image/png" : "image/jpeg";
  if (look === "small")
    bytes = await openImage(bytes)
      .resize(Math.round(pageWidth / 2), Math.round(pageHeight / 2))
      .withMetadata({ density: 150 })
      .png()
      .toBuffer();
  if (look === "pdf") [bytes, mime] = [imagePdf([{ jpeg: bytes, width: pageWidth, height: pageHeight }]), "application/pdf"];
  const path = join(directory, `${seed}.${mime === "application/pdf" ? "pdf" : format === "png" ? "png" : "jpg"}`);
  await writeFile(path, bytes);
  return { path, mime };
}

const directory = await mkdtemp(join(tmpdir(), "mnemo-eval-ocr-"));
const results: { look: Look; language: string; cer: number; seconds: number; cpu: number | null; retried: boolean; confidence: number }[] = [];
try {
  console.log(`tesseract ${ocr.languages}, second reading under mean confidence ${minConfidence}; ${chosen.length} pages × ${looks.length} looks\n`);
  console.log("look     lang   CER      s/page  CPU-s  confidence  second reading");
  for (const look of looks) {
    for (const publication of chosen) {
      const lines = paginate(plainParagraphs(publication.body))[0] ?? [];
      const file = await pageFile(directory, look, lines, `${look}-${publication.language}`);
      const started = performance.now();
      const cpuBefore = cpuSeconds();
      const pageDirectory = await mkdtemp(join(directory, "pages-"));
      const [image] = await pageImagesOf(file.path, file.mime, pageDirectory);
      if (!image) throw new Error(`no page image in ${file.path}`);
      const read = await recognisePage(image.path, ocr);
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = cpuSeconds();
      const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      const cer = characterErrorRate(lines.join("\n"), read.text);
      results.push({ look, language: publication.language, cer, seconds, cpu, retried: read.retried, confidence: read.meanConfidence });
      console.log(
        `${look.padEnd(8)} ${publication.language.padEnd(6)} ${(cer * 100).toFixed(2).padStart(5)}%  ${seconds.toFixed(1).padStart(6)}  ${(cpu?.toFixed(1) ?? "–").padStart(5)}  ${read.meanConfidence.toFixed(1).padStart(10)}  ${read.retried ? `yes${read.deskewAngle ? ` (turned ${read.deskewAngle}°)` : ", first kept"}` : "no"}`,
      );
    }
  }
  console.log("\nmean per look");
  for (const look of looks) {
    const rows = results.filter((row) => row.look === look);
    const mean = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
    console.log(
      `${look.padEnd(8)} CER ${(mean((row) => row.cer) * 100).toFixed(2)}%  ${mean((row) => row.seconds).toFixed(1)} s/page  ${mean((row) => row.cpu ?? Number.NaN).toFixed(1)} CPU-s/page`,
    );
  }
  const all = results.reduce((sum, row) => sum + row.cer, 0) / results.length;
  console.log(
    `\nload average at the end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")} (wall-clock seconds stretch with it)`,
  );
  console.log(
    `all ${results.length} pages: CER ${(all * 100).toFixed(2)}%, ${(results.reduce((sum, row) => sum + row.seconds, 0) / results.length).toFixed(1)} s/page, ${(results.reduce((sum, row) => sum + (row.cpu ?? Number.NaN), 0) / results.length).toFixed(1)} CPU-s/page`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}
