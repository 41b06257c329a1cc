import "server-only";
import { execFile } from "node:child_process";
import { parseTesseractTsv, type OcrPage } from "./tesseract-tsv";

/**
 * Tesseract as a child process: no shell, a time limit, and `OMP_THREAD_LIMIT=1` — its OpenMP
 * threads spin-wait on a shared machine (a page measured 66 s instead of 4 s on two busy cores).
 */
export interface TesseractOptions {
  /** Tesseract's language list, e.g. "spa+cat+eng". */
  languages: string;
  timeoutMs: number;
  /** Page segmentation mode; 3 is automatic layout. */
  pageSegmentation?: number;
  /** Resolution to assume when the image does not state one (tesseract warns and guesses otherwise). */
  dpi?: number;
}

export const tesseractCommand = "tesseract";

export function runChild(command: string, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, OMP_THREAD_LIMIT: "1" }, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (error) {
          const reason = error.killed ? `timed out after ${Math.round(timeoutMs / 1000)} s` : stderr.trim().split("\n").at(-1) || error.message;
          reject(new Error(`${command} failed: ${reason}`));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}

export async function runTesseract(imagePath: string, options: TesseractOptions): Promise<OcrPage> {
  const args = [imagePath, "stdout", "-l", options.languages, "--psm", String(options.pageSegmentation ?? 3)];
  if (options.dpi) args.push("--dpi", String(options.dpi));
  const { stdout } = await runChild(tesseractCommand, [...args, "tsv"], options.timeoutMs);
  return parseTesseractTsv(stdout);
}

export interface OcrStatus {
  available: boolean;
  /** The configured languages tesseract has data for, and those it lacks. */
  languages: string[];
  missing: string[];
}

/**
 * Whether scans can be read: tesseract installed with every configured language. Asked once per
 * process and command (the health endpoint is public; it must not start a process per request).
 */
const statuses = new Map<string, Promise<OcrStatus>>();
export function ocrStatus(languages: string): Promise<OcrStatus> {
  let status = statuses.get(languages);
  if (!status) {
    status = tesseractLanguages().then((installed) => {
      const wanted = languages.split("+");
      const present = wanted.filter((language) => installed?.includes(language));
      return { available: installed !== null && present.length === wanted.length, languages: present, missing: wanted.filter((language) => !present.includes(language)) };
    });
    statuses.set(languages, status);
  }
  return status;
}

/** The installed tesseract's languages (`--list-langs`), or null when tesseract is not there. */
export async function tesseractLanguages(timeoutMs = 5000): Promise<string[] | null> {
  try {
    const { stdout } = await runChild(tesseractCommand, ["--list-langs"], timeoutMs);
    return stdout.split("\n").slice(1).map((line) => line.trim()).filter(Boolean);
  } catch {
    return null;
  }
}
