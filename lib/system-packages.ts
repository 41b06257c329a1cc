import { ffmpegInstalled } from "./archive/audio-intake";
import { type OcrStatus, ocrStatus, runChild } from "./archive/ocr/run-tesseract";
import { getConfig } from "./config";
import { type BridgeStatus, processTranslationBridge } from "./rag/embed/translate";

/**
 * The Debian packages that make the difference between a demo and the product (README), what
 * each costs a reader when it is missing, and how to install what is missing. `npm run demo`
 * installs them when it can (scripts/system-packages.ts); the app tells administrators on every
 * page and everyone on the search page until they are there (components/system-notice.tsx);
 * GET /api/health reports the same checks.
 */
export interface SystemCheck {
  bridge: Pick<BridgeStatus, "available" | "pairs">;
  ocr: Pick<OcrStatus, "available" | "missing">;
  /** tesseract itself runs (the OCR status alone cannot tell a missing program from a missing language). */
  tesseract: boolean;
  pdfimages: boolean;
  ffmpeg: boolean;
}

export interface MissingCapability {
  /** What it is, for an administrator: "Spanish translation (Apertium)". */
  name: string;
  /** What it costs everyone while it is missing, in a reader's terms. */
  cost: string;
  packages: string[];
}

/** What is missing, in the order the README lists it; empty when everything is installed. */
export function missingCapabilities(check: SystemCheck): MissingCapability[] {
  const missing: MissingCapability[] = [];
  const apertium = check.bridge.pairs.es || check.bridge.pairs.ca ? [] : ["apertium"];
  if (!check.bridge.pairs.es) {
    missing.push({
      name: "Spanish translation (Apertium)",
      cost: "Spanish text is searched by its words only, not by meaning, and is not translated for readers.",
      packages: [...apertium, "apertium-eng-spa"],
    });
  }
  if (!check.bridge.pairs.ca) {
    missing.push({
      name: "Catalan translation (Apertium)",
      cost: "Catalan text is searched by its words only, not by meaning, and is not translated for readers.",
      packages: [...apertium, "apertium-eng-cat"],
    });
  }
  if (!check.ocr.available) {
    const languages = check.tesseract ? check.ocr.missing : check.ocr.missing.length > 0 ? check.ocr.missing : ["spa", "cat", "eng"];
    missing.push({
      name: "reading scans (tesseract)",
      cost: "Scanned pages are kept unread, so their text cannot be searched or cited.",
      packages: [...(check.tesseract ? [] : ["tesseract-ocr"]), ...languages.map((language) => `tesseract-ocr-${language}`)],
    });
  }
  if (!check.pdfimages) {
    missing.push({
      name: "reading scanned PDFs (poppler)",
      cost: "Scanned PDFs are kept unread, so their text cannot be searched or cited.",
      packages: ["poppler-utils"],
    });
  }
  if (!check.ffmpeg) {
    missing.push({
      name: "reading recordings (ffmpeg)",
      cost: "Uploaded recordings stay pending: no length, waveform, streamable copy or draft transcript.",
      packages: ["ffmpeg"],
    });
  }
  return missing;
}

/** Every package to install, once each, in order. */
export function packagesToInstall(missing: readonly MissingCapability[]): string[] {
  return [...new Set(missing.flatMap((capability) => capability.packages))];
}

export interface InstallContext {
  /** The process's user id (0 is root); null where there is none (not POSIX). */
  uid: number | null;
  /** apt-get is on PATH (Debian, Ubuntu). */
  apt: boolean;
  /** `sudo -n true` succeeds: sudo without a password prompt. */
  sudo: boolean;
}

export type InstallPlan =
  /** Nothing is missing. */
  | { action: "none" }
  /** Run these commands (as root, or with sudo -n), in order. */
  | { action: "install"; commands: string[][] }
  /** This process cannot install: the person runs `command` (or goes on without). */
  | { action: "ask"; command: string; reason: string };

/** How to install what is missing here: by itself as root or with password-less sudo on Debian/Ubuntu, else the command to run. */
export function installPlan(packages: readonly string[], context: InstallContext): InstallPlan {
  if (packages.length === 0) return { action: "none" };
  const install = ["apt-get", "install", "-y", "--no-install-recommends", ...packages];
  const command = `sudo apt-get install -y ${packages.join(" ")}`;
  if (!context.apt) return { action: "ask", command, reason: "this system has no apt-get: install the same packages with its package manager" };
  const update = ["apt-get", "update"];
  if (context.uid === 0) return { action: "install", commands: [update, install] };
  if (context.sudo)
    return {
      action: "install",
      commands: [
        ["sudo", "-n", ...update],
        ["sudo", "-n", ...install],
      ],
    };
  return { action: "ask", command, reason: "installing needs root (run as root, or with sudo that does not ask for a password)" };
}

/** Whether a program runs (its version flag exits 0 within 10 s). */
async function runs(command: string, args: string[]): Promise<boolean> {
  return runChild(command, args, 10_000).then(
    () => true,
    () => false,
  );
}

/** The checks behind missingCapabilities, on this machine (each asked once per process). */
export async function checkSystem(): Promise<SystemCheck> {
  const [bridge, ocr, tesseract, pdfimages, ffmpeg] = await Promise.all([
    processTranslationBridge.status(),
    ocrStatus(getConfig().MNEMO_OCR_LANGUAGES),
    (tesseractRuns ??= runs("tesseract", ["--version"])),
    (pdfimagesRuns ??= runs("pdfimages", ["-v"])),
    ffmpegInstalled(),
  ]);
  return { bridge, ocr, tesseract, pdfimages, ffmpeg };
}
let tesseractRuns: Promise<boolean> | undefined;
let pdfimagesRuns: Promise<boolean> | undefined;
