/**
 * Tatoeba English–Spanish through the product's search, for `npm run eval:retrieval`: the 1,000
 * English and 1,000 Spanish lines are records of two sections (one short text field, one passage
 * each), indexed by the real pipeline (language detection, the Apertium bridge, the configured
 * embedder) into a cached evaluation database; each line then searches the other side's section
 * with searchArchive, as the search page asks it, in keyword, semantic and hybrid mode, and
 * recall@1 counts the aligned line's record first. As an admin would before searching a new
 * space, the fusion (meaning share and BM25 b per query language) is first measured on golden
 * questions — here the even (dev) lines, each direction searching its target section — and the
 * odd (test) lines are the ones to quote. With `calibrate: false`, equal weights as before.
 */
import { systemPrincipal } from "../../lib/acl";
import { importRecords } from "../../lib/archive/import-records";
import { prepareForEmbedding } from "../../lib/rag/embed/bridge-text";
import { withQueryCache } from "../../lib/rag/embed/query-cache";
import { processTranslationBridge } from "../../lib/rag/embed/translate";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { type AlignedRecall, alignedRecallAt1 } from "../../lib/rag/search/retrieval-metrics";
import { measureFusion } from "../../lib/rag/search/measure-fusion";
import { maxSearchLimit, searchArchive, type SearchContext, type SearchMode } from "../../lib/rag/search/search-archive";
import { type CachedIndex, fileSignature, openCachedIndex } from "./eval-index-cache";
import { rememberingBridge } from "./remembering-bridge";

export interface TatoebaLines {
  english: string[];
  spanish: string[];
  /** The two files, for the cache's signature. */
  files: string[];
}

type SideLanguage = "en" | "es";

/**
 * One section per side. The field's label is in the side's language, so a record is wholly in
 * one language, as a Spanish collection catalogued in Spanish would be.
 */
const sides = [
  { language: "en", slug: "tatoeba-en", name: "Tatoeba English", label: "Sentence" },
  { language: "es", slug: "tatoeba-es", name: "Tatoeba Spanish", label: "Frase" },
] as const satisfies readonly { language: SideLanguage; slug: string; name: string; label: string }[];

/** The sentence is the record's title and its only embedded field; the line number maps results back. */
const fieldsOf = (label: string) => [
  { key: "sentence", label, type: "text", required: true },
  { key: "line", label: "Line", type: "text", maxLength: 20 },
];
const embedGroup = { slug: "sentence", label: "Sentence", fields: ["sentence"], chunking: "short", maxTokens: 256, minTokens: 1, overlap: 0 };
const modes = ["keyword", "semantic", "hybrid"] as const satisfies readonly SearchMode[];
/** Queries of Spanish lines checked against a per-query bridge run (each takes seconds). */
const bridgeSample = 10;

export interface TatoebaSearchDirection {
  name: string;
  modes: Record<(typeof modes)[number], AlignedRecall>;
  /** Hybrid misses: how many of them the semantic or the keyword mode had right. */
  hybridMisses: { total: number; semanticRight: number; keywordRight: number };
  examples: { query: string; aligned: string; first: string | null; ranks: Record<(typeof modes)[number], number | null> }[];
}

export interface TatoebaSearchResult {
  index: Pick<CachedIndex, "cacheDir" | "state" | "reused" | "rebuildReason">;
  sides: { slug: string; records: number; passages: number; detected: Record<string, number>; translated: number }[];
  fusion: string;
  bridgeCheck: { equal: number; total: number; firstDifference?: string };
  directions: TatoebaSearchDirection[];
  querySeconds: number;
}

export async function evaluateTatoebaSearch(
  lines: TatoebaLines,
  options: { reindex: boolean; misses: number; calibrate: boolean },
): Promise<TatoebaSearchResult> {
  const linesOf: Record<SideLanguage, string[]> = { en: lines.english, es: lines.spanish };
  const index = await openCachedIndex(
    {
      name: "tatoeba-spa-eng",
      projectName: "Evaluation: Tatoeba spa-eng",
      signature: { files: lines.files.map(fileSignature), sections: sides.map((side) => ({ ...side, fields: fieldsOf(side.label) })), embedGroup },
      records: lines.english.length + lines.spanish.length,
      build: async (db, projectId) => {
        for (const side of sides) {
          await db.prisma.section.create({ data: { slug: side.slug, name: side.name, fields: fieldsOf(side.label) } });
          await saveEmbedGroup(db.prisma, db.sql, { sectionSlug: side.slug, group: embedGroup, requeue: false });
          await importRecords(db.prisma, {
            sectionSlug: side.slug,
            projectId,
            actorId: null,
            items: linesOf[side.language].map((sentence, line) => ({ values: { sentence, line: String(line) } })),
          });
        }
      },
    },
    { reindex: options.reindex },
  );
  try {
    const { sql } = index.db;
    const records = await sql.query<{ id: string; slug: string; section_id: string; line: string; sentence: string }>(
      `SELECT r.id, s.slug, s.id AS section_id, r."values"->>'line' AS line, r."values"->>'sentence' AS sentence
         FROM records r JOIN sections s ON s.id = r.section_id`,
    );
    const bySide = new Map(sides.map((side) => [side.language, records.filter((record) => record.slug === side.slug)]));
    const sideStats = await sql.query<{ slug: string; language: string; passages: number; translated: number }>(
      `SELECT s.slug, c.language, count(*)::int AS passages, count(c.translated_text)::int AS translated
         FROM chunks c JOIN sections s ON s.id = c.section_id
        WHERE c.index_space_id = $1 GROUP BY s.slug, c.language`,
      [index.space.id],
    );

    // The queries' translations: Spanish lines through the bridge in one run, then from memory.
    const bridge = rememberingBridge(processTranslationBridge);
    await prepareForEmbedding(
      lines.spanish.map((text) => ({ text })),
      index.embedder,
      { bridge },
    );
    const bridgeCheck: TatoebaSearchResult["bridgeCheck"] = { equal: 0, total: 0 };
    const step = Math.max(1, Math.floor(lines.spanish.length / bridgeSample));
    for (let line = 0; line < lines.spanish.length && bridgeCheck.total < bridgeSample; line += step) {
      const text = lines.spanish[line] ?? "";
      const [alone] = await prepareForEmbedding([{ text }], index.embedder);
      const [remembered] = await prepareForEmbedding([{ text }], index.embedder, { bridge });
      bridgeCheck.total++;
      if (alone?.embeddedText === remembered?.embeddedText && alone?.language === remembered?.language) bridgeCheck.equal++;
      else bridgeCheck.firstDifference ??= `"${text}": "${alone?.embeddedText}" alone, "${remembered?.embeddedText}" in the batch`;
    }

    // As the app builds it: the space's query model behind the process's query cache, no reranker
    // (MNEMO_RERANKER defaults to none), the default fusion constant.
    const context: SearchContext = { sql, embedder: withQueryCache(index.embedder), space: index.space, prepare: { bridge } };
    const directionPairs = [
      ["en", "es"],
      ["es", "en"],
    ] as const;
    const targetOf = (to: SideLanguage) => {
      const targets = bySide.get(to) ?? [];
      const sectionId = targets[0]?.section_id;
      if (!sectionId) throw new Error(`no records in the ${to} section`);
      const recordsWithText = new Map<string, Set<string>>();
      for (const record of targets) recordsWithText.set(record.sentence.trim(), (recordsWithText.get(record.sentence.trim()) ?? new Set()).add(record.id));
      // The aligned line's record, and any record of the same text (no ranking can tell them apart).
      const accepted = linesOf[to].map((text) => recordsWithText.get(text.trim()) ?? new Set<string>());
      return { targets, sectionId, accepted };
    };

    let fusion = "equal leg weights (not measured: --tatoeba-equal-weights)";
    let calibrationSeconds = 0;
    if (options.calibrate) {
      // The dev half as golden questions: even lines of both directions, each line's aligned record relevant.
      const calibrationStarted = performance.now();
      const questions = directionPairs.flatMap(([from, to]) => {
        const { sectionId, accepted } = targetOf(to);
        return linesOf[from].flatMap((query, line) =>
          line % 2 === 0 ? [{ query, sectionIds: [sectionId], judged: new Map([...(accepted[line] ?? [])].map((id) => [id, 1])) }] : [],
        );
      });
      const measured = await measureFusion(context, systemPrincipal, questions, `${questions.length} even (dev) Tatoeba lines, both directions`);
      context.space = { ...context.space!, fusion: measured };
      calibrationSeconds = (performance.now() - calibrationStarted) / 1000;
      const slices = (["en", "es", "all"] as const).filter((slice) => measured.figures[slice]);
      fusion =
        `measured on the dev half (${questions.length} even lines, both directions) in ${calibrationSeconds.toFixed(0)} s: ` +
        slices
          .map((slice) => {
            const figures = measured.figures[slice]!;
            return `${slice} meaning share ${measured.meaningShare[slice]?.toFixed(2)} (words ${figures.keyword.toFixed(3)}, meaning ${figures.semantic.toFixed(3)}, equal ${figures.equal.toFixed(3)} → ${figures.calibrated.toFixed(3)} nDCG@10), b ${measured.lengthNormalisation?.[slice] ?? "default"}`;
          })
          .join("; ");
    }

    const started = performance.now();
    let lastReport = started;
    const directions: TatoebaSearchDirection[] = [];
    for (const [from, to] of directionPairs) {
      const { targets, sectionId, accepted } = targetOf(to);
      const lineOf = new Map(targets.map((record) => [record.id, Number(record.line)]));
      const rankings = Object.fromEntries(modes.map((mode) => [mode, [] as string[][]])) as Record<(typeof modes)[number], string[][]>;
      for (const [line, query] of linesOf[from].entries()) {
        for (const mode of modes) {
          const result = await searchArchive(context, systemPrincipal, { query, mode, limit: maxSearchLimit, collapse: "record", sectionIds: [sectionId] });
          rankings[mode].push(result.hits.map((hit) => hit.recordId));
        }
        const now = performance.now();
        if (now - lastReport > 15_000) {
          lastReport = now;
          process.stderr.write(`  tatoeba search ${from}→${to}: ${line + 1} / ${linesOf[from].length} lines, ${((now - started) / 1000).toFixed(0)} s\n`);
        }
      }
      const firstRight = (mode: (typeof modes)[number], line: number) => accepted[line]?.has(rankings[mode][line]?.[0] ?? "") ?? false;
      const missed = linesOf[from].flatMap((_, line) => (firstRight("hybrid", line) ? [] : [line]));
      const rankOf = (mode: (typeof modes)[number], line: number) => {
        const at = (rankings[mode][line] ?? []).findIndex((id) => accepted[line]?.has(id));
        return at < 0 ? null : at + 1;
      };
      const textOf = new Map(targets.map((record) => [record.id, record.sentence]));
      directions.push({
        name: `${from}→${to}`,
        modes: Object.fromEntries(modes.map((mode) => [mode, alignedRecallAt1(rankings[mode], accepted)])) as TatoebaSearchDirection["modes"],
        hybridMisses: {
          total: missed.length,
          semanticRight: missed.filter((line) => firstRight("semantic", line)).length,
          keywordRight: missed.filter((line) => firstRight("keyword", line)).length,
        },
        // Dev-half (even) lines only: misses are where tuning would start, and the test half stays unread.
        examples: missed
          .filter((line) => line % 2 === 0)
          .slice(0, options.misses)
          .map((line) => {
            const first = rankings.hybrid[line]?.[0];
            return {
              query: linesOf[from][line] ?? "",
              aligned: linesOf[to][line] ?? "",
              first: first === undefined ? null : `${textOf.get(first) ?? ""} [line ${lineOf.get(first)}]`,
              ranks: { keyword: rankOf("keyword", line), semantic: rankOf("semantic", line), hybrid: rankOf("hybrid", line) },
            };
          }),
      });
    }
    return {
      index: { cacheDir: index.cacheDir, state: index.state, reused: index.reused, rebuildReason: index.rebuildReason },
      sides: sides.map((side) => {
        const rows = sideStats.filter((row) => row.slug === side.slug);
        return {
          slug: side.slug,
          records: bySide.get(side.language)?.length ?? 0,
          passages: rows.reduce((sum, row) => sum + row.passages, 0),
          detected: Object.fromEntries(rows.map((row) => [row.language, row.passages])),
          translated: rows.reduce((sum, row) => sum + row.translated, 0),
        };
      }),
      fusion,
      bridgeCheck,
      directions,
      querySeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await index.db.close();
  }
}
