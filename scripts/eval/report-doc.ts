/**
 * The pure part of `npm run report` (scripts/eval/report.ts): find the generated regions in
 * docs/benchmarks.md and docs/quality.md, render a step's stored run, and splice it into its
 * region. A region is the text between two marker lines, each on a line of its own:
 *
 *   <!-- report:bench:load -->
 *   …the command, when it ran, how long it took, the figures…
 *   <!-- /report:bench:load -->
 *
 * Only the text between a step's markers is rewritten; everything else in the doc (headings,
 * summaries, links to decision records) is hand-written and kept byte for byte. Importing this
 * module does nothing; only updateDocs reads and writes files.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type DocName = "benchmarks" | "quality";

export const docFiles: Record<DocName, string> = {
  benchmarks: join("docs", "benchmarks.md"),
  quality: join("docs", "quality.md"),
};

export interface Step {
  name: string;
  /** The heading of the section appended when the doc has no markers for the step yet. */
  title: string;
  /** What the figures mean, in a sentence or two (written under that heading). */
  about: string;
  /** Speed, load, scale and safety go to benchmarks; search, answer and object quality to quality. */
  doc: DocName;
  command: string;
  env?: Record<string, string>;
  /** Keep only the lines that carry figures (default: every line that is not progress). */
  keep?: (line: string) => boolean;
}

export interface StepResult {
  name: string;
  command: string;
  env: Record<string, string>;
  startedAt: string;
  seconds: number;
  exitCode: number | null;
  output: string[];
  machine?: string;
}

export class ReportDocError extends Error {
  override name = "ReportDocError";
}

// Progress and runner chatter, not figures: log prefixes, npm banners, counters like
// "  32 / 5183 records, …" or "queries: 643 / 809, 275 s", and vitest's frame.
const progress =
  /^(\[(db|index|worker|seed|demo|bench:[\w-]+|eval|pglite|postgres|web\d*|report)\]|> |npm (warn|notice)|\s*$|\s*(queries: )?\d+ \/ \d+\b.*\d+ s$|.*RUN\s+v\d|.*Duration\s|.*Start at\s|.*Test Files\s|.*✓|.*stdout \|)/;

export function isProgress(line: string): boolean {
  return progress.test(line);
}

const marker = /^<!-- (\/?)report:([a-z0-9][a-z0-9:._-]*) -->\s*$/i;
// A line that means to be a marker but is not spelled as one: an error, not hand-written text.
const markerLike = /^\s*<!--\s*\/?\s*report:/i;

export function openMarker(name: string): string {
  return `<!-- report:${name} -->`;
}

export function closeMarker(name: string): string {
  return `<!-- /report:${name} -->`;
}

export interface Region {
  name: string;
  /** Line indices (0-based) of the open and close marker lines. */
  open: number;
  close: number;
}

/** The regions of a doc, in order. Throws a ReportDocError on a marker that does not pair up. */
export function parseRegions(text: string, file: string): Region[] {
  const lines = text.split("\n");
  const regions: Region[] = [];
  const seen = new Map<string, number>();
  let current: { name: string; open: number } | null = null;
  const where = (index: number) => `${file}:${index + 1}`;
  for (const [index, line] of lines.entries()) {
    const match = marker.exec(line);
    if (!match) {
      if (markerLike.test(line))
        throw new ReportDocError(`${where(index)}: not a marker line; write ${openMarker("<step>")} or ${closeMarker("<step>")} alone on its line`);
      continue;
    }
    const [, slash, name] = match as unknown as [string, string, string];
    if (slash === "") {
      if (current)
        throw new ReportDocError(
          `${where(index)}: ${openMarker(name)} opens inside the region of ${current.name} (opened at line ${current.open + 1}); close that one first`,
        );
      const first = seen.get(name);
      if (first !== undefined)
        throw new ReportDocError(`${where(index)}: a second region for ${name} (the first opens at line ${first + 1}); a step has one region`);
      seen.set(name, index);
      current = { name, open: index };
    } else {
      if (!current) throw new ReportDocError(`${where(index)}: ${closeMarker(name)} closes no open region`);
      if (current.name !== name)
        throw new ReportDocError(`${where(index)}: ${closeMarker(name)}, but the open region is ${current.name} (line ${current.open + 1})`);
      regions.push({ name, open: current.open, close: index });
      current = null;
    }
  }
  if (current) throw new ReportDocError(`${where(current.open)}: ${openMarker(current.name)} is never closed (${closeMarker(current.name)})`);
  return regions;
}

/** Consecutive table lines stay one markdown table; anything else is shown as printed. */
function blocksOf(lines: string[]): string[] {
  const runs: { table: boolean; lines: string[] }[] = [];
  for (const line of lines) {
    const table = line.trimStart().startsWith("|");
    const last = runs.at(-1);
    if (last && last.table === table) last.lines.push(line);
    else runs.push({ table, lines: [line] });
  }
  const blocks: string[] = [];
  for (const run of runs) {
    if (run.table) {
      blocks.push(run.lines.map((line) => line.trim()).join("\n"));
      continue;
    }
    // Blank lines at the edges go; the indentation that lines columns up stays.
    const first = run.lines.findIndex((line) => line.trim() !== "");
    if (first < 0) continue;
    const last = run.lines.findLastIndex((line) => line.trim() !== "");
    const body = run.lines.slice(first, last + 1).map((line) => line.trimEnd());
    const fence = body.some((line) => line.trimStart().startsWith("```")) ? "````" : "```";
    blocks.push([fence, ...body, fence].join("\n"));
  }
  return blocks;
}

/** What goes between a step's markers: its command, when it ran, how long, and its figures. */
export function renderFigures(step: Step, result: StepResult): string {
  const env = Object.entries(result.env)
    .map(([key, value]) => `${key}=${value} `)
    .join("");
  const heading = `\`${env}${result.command}\` — ${result.startedAt.slice(0, 16).replace("T", " ")} UTC, ${result.seconds} s`;
  if (result.exitCode !== 0) {
    const exit = result.exitCode === null ? "killed by a signal" : `exit ${result.exitCode}`;
    return [heading, `**This run failed (${exit}); the end of its output follows.**`, ...blocksOf(result.output.slice(-60))].join("\n\n");
  }
  const keep = step.keep ?? ((line: string) => !isProgress(line));
  return [heading, ...blocksOf(result.output.filter(keep))].join("\n\n");
}

/** A whole section, for a step whose doc has no markers for it yet. */
export function renderSection(step: Step, result: StepResult): string {
  return [`## ${step.title}`, step.about, openMarker(step.name), renderFigures(step, result), closeMarker(step.name)].join("\n\n") + "\n";
}

export interface DocPlan {
  file: string;
  before: string;
  after: string;
  /** Regions whose text changes. */
  replaced: string[];
  /** Regions rendered exactly as they already read. */
  same: string[];
  /** Regions kept as they are: their step has no stored result. */
  waiting: string[];
  /** Steps with a stored result and no markers in the doc: a new section at its end. */
  appended: string[];
  warnings: string[];
}

/**
 * The doc with each of its steps' regions rendered from the stored results. `steps` are every
 * step (a marker for a step of the other doc is left alone with a warning); a step with no
 * result keeps its region as it is.
 */
export function planDoc(doc: DocName, text: string, steps: Step[], results: ReadonlyMap<string, StepResult>, file = docFiles[doc]): DocPlan {
  const regions = parseRegions(text, file);
  const plan: DocPlan = { file, before: text, after: text, replaced: [], same: [], waiting: [], appended: [], warnings: [] };
  const lines = text.split("\n");
  const out: string[] = [];
  let next = 0;
  for (const region of regions) {
    const step = steps.find((candidate) => candidate.name === region.name);
    if (!step) {
      plan.warnings.push(`${file}:${region.open + 1}: markers for ${region.name}, which names no step; left as they are`);
      continue;
    }
    if (step.doc !== doc) {
      plan.warnings.push(`${file}:${region.open + 1}: markers for ${region.name}, whose figures go to ${docFiles[step.doc]}; left as they are`);
      continue;
    }
    const result = results.get(step.name);
    if (!result) {
      plan.waiting.push(step.name);
      continue;
    }
    const inner = ["", ...renderFigures(step, result).split("\n"), ""];
    const old = lines.slice(region.open + 1, region.close);
    if (inner.join("\n") === old.join("\n")) plan.same.push(step.name);
    else plan.replaced.push(step.name);
    out.push(...lines.slice(next, region.open + 1), ...inner);
    next = region.close;
  }
  out.push(...lines.slice(next));
  let after = out.join("\n");
  const marked = new Set(regions.map((region) => region.name));
  const sections: string[] = [];
  for (const step of steps) {
    const result = results.get(step.name);
    if (step.doc !== doc || marked.has(step.name) || !result) continue;
    sections.push(renderSection(step, result));
    plan.appended.push(step.name);
  }
  // The doc's own ending stays as it is; the new sections follow after one blank line.
  if (sections.length > 0) after += (after.endsWith("\n\n") ? "" : after.endsWith("\n") ? "\n" : "\n\n") + sections.join("\n");
  plan.after = after;
  return plan;
}

/**
 * Renders both docs under `root` and writes the ones that change (each through a temporary file
 * and a rename, so a reader never sees half a doc). Both are planned before either is written: a
 * malformed marker in one throws before anything is written.
 */
export function updateDocs(root: string, steps: Step[], results: ReadonlyMap<string, StepResult>, options: { dryRun?: boolean } = {}): DocPlan[] {
  const plans = (Object.keys(docFiles) as DocName[]).map((doc) => planDoc(doc, readFileSync(join(root, docFiles[doc]), "utf8"), steps, results));
  if (options.dryRun) return plans;
  for (const plan of plans) {
    if (plan.after === plan.before) continue;
    const path = join(root, plan.file);
    const temporary = `${path}.report-${process.pid}.tmp`;
    try {
      writeFileSync(temporary, plan.after);
      renameSync(temporary, path);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return plans;
}
