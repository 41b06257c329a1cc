import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type DocName, ReportDocError, type Step, type StepResult, docFiles, parseRegions, planDoc, renderFigures, updateDocs } from "./report-doc";
import { steps as reportSteps } from "./report";

function step(name: string, doc: DocName = "benchmarks", extra: Partial<Step> = {}): Step {
  return { name, title: `Title of ${name}`, about: `What ${name} measures.`, doc, command: `npm run ${name}`, ...extra };
}

function result(name: string, output: string[], extra: Partial<StepResult> = {}): StepResult {
  return { name, command: `npm run ${name}`, env: {}, startedAt: "2026-12-06T09:30:12.000Z", seconds: 41, exitCode: 0, output, ...extra };
}

const benchA = step("bench:a");
const benchB = step("bench:b");
const evalC = step("eval:c", "quality");
const steps = [benchA, benchB, evalC];

// Hand-written text with what a careless rewrite would lose: trailing spaces, a blank-line run,
// unicode, a link, a table and a code block of its own.
const head = "# Benchmarks  \n\nHand-written — summary with a [decision](decisions/0004.md).\n\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## A\n\n";
const middle = "\n\n- **Read**: the figures mean this.\n\n```\nhand-pasted block\n```\n\n## B\n\n";
const tail = "\n\nClosing words, no newline at the end";
const regionA = "<!-- report:bench:a -->\n\n`npm run bench:a` — 2026-12-01 10:00 UTC, 5 s\n\n```\nold figures of a\n```\n\n<!-- /report:bench:a -->";
const regionB =
  "<!-- report:bench:b -->\n\n`npm run bench:b` — 2026-12-01 11:00 UTC, 7 s (hand note)\n\n```\nold figures of b\n```\n\n<!-- /report:bench:b -->";
const doc = head + regionA + middle + regionB + tail;

describe("npm run report: generated regions in the docs", () => {
  it("keeps the hand-written text outside the markers byte for byte and replaces only the named region", () => {
    const plan = planDoc("benchmarks", doc, steps, new Map([["bench:a", result("bench:a", ["figure 1", "| x | y |", "|---|---|", "| 3 | 4 |"])]]));
    expect(plan.replaced).toEqual(["bench:a"]);
    expect(plan.after.startsWith(head + "<!-- report:bench:a -->\n\n`npm run bench:a` — 2026-12-06 09:30 UTC, 41 s\n\n```\nfigure 1\n```\n\n| x | y |")).toBe(
      true,
    );
    expect(plan.after.endsWith("<!-- /report:bench:a -->" + middle + regionB + tail)).toBe(true);
    expect(plan.after).not.toContain("old figures of a");
  });

  it("leaves a region as it is when its step has no stored result", () => {
    const plan = planDoc("benchmarks", doc, steps, new Map());
    expect(plan.after).toBe(doc);
    expect(plan.waiting).toEqual(["bench:a", "bench:b"]);
    expect(plan.replaced).toEqual([]);
  });

  it("appends a section with heading, about and markers for a step with a result and no markers, and replaces it in place next time", () => {
    const withoutB = head + regionA + tail;
    const first = planDoc("benchmarks", withoutB, steps, new Map([["bench:b", result("bench:b", ["figures of b"])]]));
    expect(first.appended).toEqual(["bench:b"]);
    expect(first.waiting).toEqual(["bench:a"]);
    expect(first.after).toBe(
      withoutB +
        "\n\n## Title of bench:b\n\nWhat bench:b measures.\n\n<!-- report:bench:b -->\n\n`npm run bench:b` — 2026-12-06 09:30 UTC, 41 s\n\n```\nfigures of b\n```\n\n<!-- /report:bench:b -->\n",
    );
    // The doc's own end is kept; one blank line separates it from the new section.
    for (const ending of ["", "\n", "\n\n"]) {
      expect(planDoc("benchmarks", `# T${ending}`, steps, new Map([["bench:b", result("bench:b", ["b"])]])).after).toMatch(/^# T\n\n## Title of bench:b\n/);
    }
    const again = planDoc("benchmarks", first.after, steps, new Map([["bench:b", result("bench:b", ["figures of b"])]]));
    expect(again.after).toBe(first.after);
    expect(again.same).toEqual(["bench:b"]);
    expect(again.appended).toEqual([]);
  });

  it("leaves markers that name no step, or a step of the other doc, as they are, with a warning", () => {
    const text = head + regionA.replaceAll("bench:a", "bench:gone") + middle + regionB.replaceAll("bench:b", "eval:c") + tail;
    const plan = planDoc(
      "benchmarks",
      text,
      steps,
      new Map([
        ["eval:c", result("eval:c", ["x"])],
        ["bench:gone", result("bench:gone", ["x"])],
      ]),
    );
    expect(plan.after).toBe(text);
    expect(plan.warnings).toEqual([
      expect.stringContaining("bench:gone, which names no step"),
      expect.stringContaining("eval:c, whose figures go to docs/quality.md"),
    ]);
  });

  it.each([
    ["an unclosed marker", head + "<!-- report:bench:a -->\n\nfigures\n" + tail, /bench:a --> is never closed/],
    ["a duplicate region", doc + "\n" + regionA, /a second region for bench:a/],
    ["a close without an open", head + "<!-- /report:bench:a -->\n" + tail, /closes no open region/],
    [
      "a region opened inside another",
      head + "<!-- report:bench:a -->\n<!-- report:bench:b -->\n<!-- /report:bench:b -->\n<!-- /report:bench:a -->\n",
      /opens inside the region of bench:a/,
    ],
    ["a close that names another region", head + "<!-- report:bench:a -->\n<!-- /report:bench:b -->\n", /but the open region is bench:a/],
    ["a misspelt marker", head + "<!--report:bench:a-->\n" + tail, /not a marker line/],
  ])("stops on %s", (_, text, message) => {
    expect(() => parseRegions(text, "docs/benchmarks.md")).toThrow(ReportDocError);
    expect(() => planDoc("benchmarks", text, steps, new Map([["bench:a", result("bench:a", ["x"])]]))).toThrow(message);
  });

  it("keeps markdown tables as tables, printed lines as code, and drops progress lines", () => {
    const output = [
      "> mnemo@0.1.0 bench:a",
      "> tsx scripts/bench-a.ts",
      "[index] 16 records indexed, 305 waiting",
      "[bench:a] building the app…",
      "[postgres] listening",
      "  32 / 5183 records, 12 s",
      "",
      "bench:a — 2 × AMD EPYC",
      "  | kind | p50 ms |  ",
      "|---|---|",
      "| page | 12 |",
      "latency (ms)",
      "                 p50     p95",
      "  semantic      21.9    35.9",
      "",
    ];
    expect(renderFigures(benchA, result("bench:a", output, { env: { BENCH_A_SECONDS: "15" } }))).toBe(
      [
        "`BENCH_A_SECONDS=15 npm run bench:a` — 2026-12-06 09:30 UTC, 41 s",
        "```\nbench:a — 2 × AMD EPYC\n```",
        "| kind | p50 ms |\n|---|---|\n| page | 12 |",
        "```\nlatency (ms)\n                 p50     p95\n  semantic      21.9    35.9\n```",
      ].join("\n\n"),
    );
  });

  it("writes a failed run as failed with the end of its output, progress included", () => {
    const output = Array.from({ length: 80 }, (_, index) => `[index] line ${index}`);
    const text = renderFigures(benchA, result("bench:a", output, { exitCode: 1 }));
    expect(text).toContain("**This run failed (exit 1); the end of its output follows.**");
    expect(text).toContain("[index] line 79");
    expect(text).toContain("[index] line 20");
    expect(text).not.toContain("[index] line 19\n");
  });

  it("uses a step's own filter when it has one", () => {
    const keepFigures = step("bench:a", "benchmarks", { keep: (line) => line.startsWith("acl-fuzz") });
    expect(renderFigures(keepFigures, result("bench:a", ["noise", "acl-fuzz: leaks=0", "more noise"]))).toBe(
      "`npm run bench:a` — 2026-12-06 09:30 UTC, 41 s\n\n```\nacl-fuzz: leaks=0\n```",
    );
  });
});

describe("npm run report: writing the docs", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function docsAt(texts: Record<DocName, string>) {
    root = mkdtempSync(join(tmpdir(), "mnemo-report-test-"));
    mkdirSync(join(root, "docs"));
    for (const [name, text] of Object.entries(texts)) writeFileSync(join(root, docFiles[name as DocName]), text);
  }
  const read = (name: DocName) => readFileSync(join(root, docFiles[name]), "utf8");
  const qualityDoc = "# Quality\n\n<!-- report:eval:c -->\n\nold c\n\n<!-- /report:eval:c -->\n";

  it("sends a quality step's figures to docs/quality.md and a benchmark's to docs/benchmarks.md", () => {
    docsAt({ benchmarks: doc, quality: qualityDoc });
    updateDocs(root, steps, new Map([["eval:c", result("eval:c", ["figures of c"])]]));
    expect(read("benchmarks")).toBe(doc);
    expect(read("quality")).toBe(
      "# Quality\n\n<!-- report:eval:c -->\n\n`npm run eval:c` — 2026-12-06 09:30 UTC, 41 s\n\n```\nfigures of c\n```\n\n<!-- /report:eval:c -->\n",
    );
    updateDocs(root, steps, new Map([["bench:b", result("bench:b", ["figures of b"])]]));
    expect(read("benchmarks")).toContain("figures of b");
    expect(read("quality")).not.toContain("figures of b");
    expect(readdirSync(join(root, "docs")).sort()).toEqual(["benchmarks.md", "quality.md"]);
  });

  it("writes neither doc when one has a malformed marker", () => {
    const broken = qualityDoc.replace("<!-- /report:eval:c -->\n", "");
    docsAt({ benchmarks: doc, quality: broken });
    const results = new Map([
      ["bench:a", result("bench:a", ["new a"])],
      ["eval:c", result("eval:c", ["new c"])],
    ]);
    expect(() => updateDocs(root, steps, results)).toThrow(/docs\/quality\.md:3: <!-- report:eval:c --> is never closed/);
    expect(read("benchmarks")).toBe(doc);
    expect(read("quality")).toBe(broken);
    expect(readdirSync(join(root, "docs")).sort()).toEqual(["benchmarks.md", "quality.md"]);
  });

  it("writes nothing on a dry run", () => {
    docsAt({ benchmarks: doc, quality: qualityDoc });
    const plans = updateDocs(root, steps, new Map([["bench:a", result("bench:a", ["new a"])]]), { dryRun: true });
    expect(plans.map((plan) => [plan.file, plan.replaced])).toEqual([
      ["docs/benchmarks.md", ["bench:a"]],
      ["docs/quality.md", []],
    ]);
    expect(read("benchmarks")).toBe(doc);
  });
});

describe("npm run report: its steps", () => {
  it("sends the evaluations to docs/quality.md and speed, load, scale and safety to docs/benchmarks.md", () => {
    const names = (doc: DocName) => reportSteps.filter((candidate) => candidate.doc === doc).map((candidate) => candidate.name);
    expect(names("quality").every((name) => name.startsWith("eval:"))).toBe(true);
    expect(names("benchmarks").every((name) => name.startsWith("bench:") || name.startsWith("test:"))).toBe(true);
    expect(names("quality")).toEqual(
      expect.arrayContaining(["eval:archive", "eval:retrieval", "eval:ask", "eval:objects", "eval:image-descriptors", "eval:ocr", "eval:segmentation"]),
    );
    expect(names("benchmarks")).toEqual(expect.arrayContaining(["bench:load", "bench:scale", "bench:record-page", "bench:bridge", "test:acl-fuzz"]));
    expect(new Set(reportSteps.map((candidate) => candidate.name)).size).toBe(reportSteps.length);
  });

  it("has a region in its doc for every step, and no region the steps do not know", () => {
    for (const doc of Object.keys(docFiles) as DocName[]) {
      const regions = parseRegions(readFileSync(docFiles[doc], "utf8"), docFiles[doc]).map((region) => region.name);
      const ownSteps = reportSteps.filter((candidate) => candidate.doc === doc).map((candidate) => candidate.name);
      expect(regions.sort()).toEqual(ownSteps.sort());
    }
  });
});
