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

/** A child process that did not succeed; `missing` when the command is not installed at all. */
export class ChildProcessError extends Error {
  constructor(
    message: string,
    readonly missing: boolean,
  ) {
    super(message);
    this.name = "ChildProcessError";
  }
}

export function runChild(command: string, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, OMP_THREAD_LIMIT: "1" }, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (error) {
          const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
          const reason = error.killed
            ? `timed out after ${Math.round(timeoutMs / 1000)} s`
            : missing
              ? "not installed"
              : stderr.trim().split("\n").at(-1) || error.message;
          reject(new ChildProcessError(`${command} failed: ${reason}`, missing));
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
export function ocrStatus(languages: string, probe: () => Promise<TesseractProbe> = probeTesseract): Promise<OcrStatus> {
  let status = statuses.get(languages);
  if (!status) {
    status = probe().then((found) => {
      // Only an answer is remembered: a probe that timed out on a busy machine is asked again.
      if (found.state === "unsure") statuses.delete(languages);
      const installed = found.state === "present" ? found.languages : [];
      const wanted = languages.split("+");
      const present = wanted.filter((language) => installed.includes(language));
      return {
        available: found.state === "present" && present.length === wanted.length,
        languages: present,
        missing: wanted.filter((language) => !present.includes(language)),
      };
    });
    statuses.set(languages, status);
  }
  return status;
}

/**
 * What `tesseract --list-langs` says: its languages; "missing" when the command is not installed;
 * "unsure" when it failed otherwise (timed out while the machine was busy starting the server and
 * the index worker: that says nothing about whether it is installed, and must not be remembered
 * as "not installed").
 */
export type TesseractProbe = { state: "present"; languages: string[] } | { state: "missing" } | { state: "unsure"; reason: string };

export async function probeTesseract(timeoutMs = 15_000, command = tesseractCommand): Promise<TesseractProbe> {
  try {
    const { stdout } = await runChild(command, ["--list-langs"], timeoutMs);
    return {
      state: "present",
      languages: stdout
        .split("\n")
        .slice(1)
        .map((line) => line.trim())
        .filter(Boolean),
    };
  } catch (error) {
    if (error instanceof ChildProcessError && error.missing) return { state: "missing" };
    return { state: "unsure", reason: error instanceof Error ? error.message : String(error) };
  }
}
