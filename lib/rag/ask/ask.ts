import "server-only";
import { z } from "zod";
import { type Principal, mayLeaveHost } from "../../acl";
import { AppError, parseInput } from "../../errors";
import { questionTextSchema } from "../../query-length";
import { type Generator, GenerationError, defaultSystemPrompt, type SourcePassage } from "../../llm/generator";
import { countTokens } from "../chunk";
import { answerSettings } from "../config/settings";
import { EmbeddingError, errorMessage } from "../embed/embedder";
import { type SearchContext, type SearchHit, type SearchResult, searchArchive } from "../search/search-archive";
import type { FieldDefinition, TranscriptTurn } from "../../archive/field-definitions";
import type { SqlExecutor } from "../../db/sql-executor";
import { passageLocation, passageSpan } from "../../format";
import { passageForm } from "./answer-sentences";
import { answerContinuations, withContinuations } from "./answer-continuations";
import { assessEvidence, readQuestion } from "./assess-evidence";
import { readableTermWeights, unknownQuestionTerms } from "./unknown-terms";
import { createStreamingNumbering, renumberCitations } from "./number-citations";
import { transcriptInterviewers } from "./transcript-interviewers";
import { quotesByCitation, turnForQuote } from "./turn-timecodes";
import { type DroppedCitation, verifyCitations } from "./verify-citations";

/**
 * One question, answered only from passages the principal may read:
 * retrieve (ACL in SQL + gate) → refuse without calling a model when nothing is relevant →
 * rerank (in the search) → fit a token budget → egress per passage → generate with numbered
 * sources → verify citations → final answer. Yields events as it goes, so the answer streams.
 */
export const askRequestSchema = z.object({
  question: questionTextSchema,
  scope: z
    .object({
      sectionIds: z.array(z.string().min(1).max(64)).max(50).optional(),
      projectIds: z.array(z.string().min(1).max(64)).max(50).optional(),
      recordIds: z.array(z.string().min(1).max(64)).max(500).optional(),
    })
    .default({}),
});
export type AskRequest = z.output<typeof askRequestSchema>;

export interface AskSettings {
  /**
   * A passage is evidence when its cosine similarity to the question reaches `strongSimilarity`,
   * or reaches `minSimilarity` and it contains at least `minTermCoverage` of the question's
   * content words (in the original or its translation).
   */
  minSimilarity: number;
  strongSimilarity: number;
  minTermCoverage: number;
  /**
   * Refuse when a word of the question is in no record the principal may read (see
   * unknown-terms.ts): the records cannot answer what they never mention.
   */
  refuseUnknownTerms: boolean;
  /** Passages considered (answerSettings.candidates). */
  candidates: number;
  /** Tokens of source text given to the generator (answerSettings.tokenBudget). */
  tokenBudget: number;
  maxSources: number;
  systemPrompt: string;
  /** System prompt per section slug, overriding the default when every source is of that section. */
  sectionPrompts: Record<string, string>;
  temperature: number;
  maxTokens: number;
}

/** The defaults, from answerSettings (lib/rag/config/settings.ts); an admin's saved thresholds override the first three. */
export const defaultAskSettings: AskSettings = {
  minSimilarity: answerSettings.minSimilarity.value,
  strongSimilarity: answerSettings.strongSimilarity.value,
  minTermCoverage: answerSettings.minTermCoverage.value,
  refuseUnknownTerms: answerSettings.refuseUnknownTerms.value,
  candidates: answerSettings.candidates.value,
  tokenBudget: answerSettings.tokenBudget.value,
  maxSources: answerSettings.maxSources.value,
  systemPrompt: defaultSystemPrompt,
  sectionPrompts: {},
  temperature: answerSettings.temperature.value,
  maxTokens: answerSettings.maxTokens.value,
};

const evidenceCoverageWeight = answerSettings.evidenceCoverageWeight.value;

export interface AskContext extends SearchContext {
  generator: Generator;
  settings?: Partial<AskSettings>;
}

export interface Citation {
  number: number;
  recordId: string;
  recordTitle: string;
  sectionSlug: string;
  chunkId: string;
  startOffset: number;
  endOffset: number;
  page: number | null;
  pageEnd: number | null;
  timeStart: number | null;
  timeEnd: number | null;
  /** Where in the record: group and heading path. */
  location: string;
}

export interface WithheldSource {
  recordId: string;
  recordTitle: string;
  chunkId: string;
  timeStart: number | null;
}

export type AskStatus = "answered" | "refused" | "restricted" | "failed";

export interface AskProvenance {
  thresholds: { minSimilarity: number; strongSimilarity: number; minTermCoverage: number };
  /** Words of the question no readable record contains (the question is then refused). */
  unknownTerms: string[];
  generator: string;
  /** `similarity` is the passage's; `sentenceSimilarity` its closest sentence's (see assess-evidence.ts). */
  retrieved: {
    chunkId: string;
    recordId: string;
    similarity: number | null;
    sentenceSimilarity: number | null;
    coverage: number;
    legs: string[];
    evidence: boolean;
  }[];
  nearMisses: { chunkId: string; recordId: string; similarity: number | null; sentenceSimilarity: number | null; coverage: number }[];
  withheld: WithheldSource[];
  dropped: DroppedCitation[];
  sourcesGiven: number;
  timings: { retrieveMs: number; generateMs: number };
}

export interface AskOutcome {
  status: AskStatus;
  /** The verified answer, or the message explaining a refusal, restriction or failure. */
  text: string;
  citations: Citation[];
  withheld: WithheldSource[];
  /**
   * The records whose text the passages given to the generator hold: whatever the answer says
   * came from them, so a saved answer is shown again only to readers of all of them.
   */
  sourceRecordIds: string[];
  provenance: AskProvenance;
}

/**
 * Events of one answer. `sources` comes just before the text that first cites them, numbered as
 * its [n] markers are: [1], [2]… in order of first citation, without gaps (the final outcome's
 * citations are numbered the same way, after verification).
 */
export type AskEvent = { type: "sources"; sources: Citation[] } | { type: "delta"; text: string } | { type: "final"; outcome: AskOutcome };

export const refusalMessage = "The records you can read do not answer this question.";
export const restrictedMessage =
  "The passages that answer this may not be sent to the configured answer model (their sections are local-only). You can open them yourself:";
export const failureMessage = "Generation failed";
export const askUnavailableMessage =
  "This question cannot be answered right now: finding the passages that answer it needs the embedding service, which is not working. Try again later.";

function emptyProvenance(settings: AskSettings, generator: Generator, retrieveMs: number): AskProvenance {
  return {
    thresholds: { minSimilarity: settings.minSimilarity, strongSimilarity: settings.strongSimilarity, minTermCoverage: settings.minTermCoverage },
    unknownTerms: [],
    generator: `${generator.name}/${generator.model}`,
    retrieved: [],
    nearMisses: [],
    withheld: [],
    dropped: [],
    sourcesGiven: 0,
    timings: { retrieveMs: Math.round(retrieveMs), generateMs: 0 },
  };
}

function citationOf(hit: SearchHit, number: number): Citation {
  const { passage } = hit;
  return {
    number,
    recordId: hit.recordId,
    recordTitle: hit.recordTitle,
    sectionSlug: hit.sectionSlug,
    chunkId: passage.chunkId,
    startOffset: passage.startOffset,
    endOffset: passage.endOffset,
    ...passageSpan(passage),
    location: passageLocation(passage.groupLabel, passage.headingPath),
  };
}

function locationText(citation: Citation): string {
  const parts = [citation.location];
  if (citation.page !== null) parts.push(`p. ${citation.page}`);
  if (citation.timeStart !== null) parts.push(`from ${Math.floor(citation.timeStart)} s`);
  return parts.filter(Boolean).join(", ");
}

/**
 * A citation of a recording opens where the quoted words are said: the turn of the record's
 * transcript that contains the citation's quotation, inside the passage's span. Citations whose
 * quotation cannot be placed keep the passage's times.
 */
async function placeInRecording(sql: SqlExecutor, citations: Citation[], answer: string, segmentsAreQuotes: boolean): Promise<Citation[]> {
  const timed = citations.filter((citation) => citation.timeStart !== null);
  if (timed.length === 0) return citations;
  const rows = await sql.query<{ id: string; values: Record<string, unknown>; fields: FieldDefinition[] }>(
    `SELECT r.id, r."values", s.fields FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = ANY($1::text[])`,
    [[...new Set(timed.map((citation) => citation.recordId))]],
  );
  const turnsOf = new Map(
    rows.map((row) => [
      row.id,
      row.fields
        .filter((field) => field.type === "transcript")
        .flatMap((field) => (Array.isArray(row.values[field.key]) ? (row.values[field.key] as TranscriptTurn[]) : [])),
    ]),
  );
  const quotes = quotesByCitation(answer, { segmentsAreQuotes });
  return citations.map((citation) => {
    if (citation.timeStart === null) return citation;
    const turns = turnsOf.get(citation.recordId) ?? [];
    for (const quote of quotes.get(citation.number) ?? []) {
      const turn = turnForQuote(quote, turns, citation.timeStart, citation.timeEnd ?? citation.timeStart);
      if (turn) return { ...citation, timeStart: turn.start, timeEnd: turn.end };
    }
    return citation;
  });
}

/** Passages per record before any record's next one: one long report must not fill every source. */
const passagesPerRecord = 2;

/** The hits in order, a record's third passage and later moved after every other record's first two. */
export function diverse<T extends { recordId: string }>(hits: T[]): T[] {
  const seen = new Map<string, number>();
  const first: T[] = [];
  const later: T[] = [];
  for (const hit of hits) {
    const count = (seen.get(hit.recordId) ?? 0) + 1;
    seen.set(hit.recordId, count);
    (count <= passagesPerRecord ? first : later).push(hit);
  }
  return [...first, ...later];
}

/** The passages given to the generator: in rank order, within the token budget. */
export function fitBudget<T extends { passage: { text: string } }>(hits: T[], tokenBudget: number, maxSources: number): T[] {
  const chosen: T[] = [];
  let used = 0;
  for (const hit of hits) {
    if (chosen.length >= maxSources) break;
    const tokens = countTokens(hit.passage.text);
    if (chosen.length > 0 && used + tokens > tokenBudget) continue;
    chosen.push(hit);
    used += tokens;
  }
  return chosen;
}

export async function* ask(context: AskContext, principal: Principal, input: unknown): AsyncGenerator<AskEvent, AskOutcome> {
  const request = parseInput(askRequestSchema, input, { fieldErrors: false });
  const settings = { ...defaultAskSettings, ...context.settings };
  const generator = context.generator;

  const started = performance.now();
  // The question's readings (its English, its words in the archive's other language) are made while
  // the search runs; a failed reading is reported when it is awaited, after the search.
  const readingQuestion = readQuestion(request.question, context.embedder, context.prepare);
  readingQuestion.catch(() => undefined);
  let result: SearchResult;
  try {
    result = await searchArchive(context, principal, {
      query: request.question,
      mode: "hybrid",
      limit: settings.candidates,
      collapse: "passage",
      sectionIds: request.scope.sectionIds,
      projectIds: request.scope.projectIds,
      recordIds: request.scope.recordIds,
    });
  } catch (error) {
    // Without the embedding model there is no evidence test, so no answer: the question ends
    // as failed, with a reason, and the answer model is never called.
    if (!(error instanceof AppError && error.code === "unavailable" && error.cause instanceof EmbeddingError)) throw error;
    const outcome: AskOutcome = {
      status: "failed",
      text: askUnavailableMessage,
      citations: [],
      withheld: [],
      sourceRecordIds: [],
      provenance: emptyProvenance(settings, generator, performance.now() - started),
    };
    yield { type: "final", outcome };
    return outcome;
  }
  const retrieveMs = performance.now() - started;
  const transcripts = result.hits.filter((hit) => hit.passage.timeStart !== null).map((hit) => hit.recordId);
  const interviewers = await transcriptInterviewers(context.sql, principal, transcripts);
  const reading = await readingQuestion;
  // How rare each of the question's words is in what the principal may read (never in what they may not).
  const termWeights = context.space
    ? await readableTermWeights(context.sql, principal, context.space.id, [...reading.terms, ...reading.englishTerms, ...reading.translatedTerms.flat()])
    : undefined;
  const assessed = await assessEvidence(result.hits, request.question, {
    embedder: context.embedder,
    prepare: context.prepare,
    thresholds: settings,
    interviewers,
    reading,
    termWeights,
  });
  // A question about something no readable record mentions has no evidence, however close the rest of it comes.
  const unknownTerms =
    settings.refuseUnknownTerms && context.space
      ? await unknownQuestionTerms(
          context.sql,
          principal,
          context.space.id,
          reading,
          result.hits.map((hit) => hit.passage),
        )
      : [];
  if (unknownTerms.length > 0) for (const item of assessed) item.evidence = false;
  // The passages closest to the question come first: they are given first, and kept by the budget.
  const relevant = diverse(
    assessed
      .filter((item) => item.evidence)
      .sort((a, b) => b.similarity + evidenceCoverageWeight * b.weightedCoverage - (a.similarity + evidenceCoverageWeight * a.weightedCoverage))
      .map((item) => item.hit),
  );
  const rounded = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);
  const provenance: AskProvenance = {
    ...emptyProvenance(settings, generator, retrieveMs),
    unknownTerms,
    retrieved: assessed.map(({ hit, weightedCoverage: coverage, sentenceSimilarity, evidence }) => ({
      chunkId: hit.passage.chunkId,
      recordId: hit.recordId,
      similarity: hit.similarity,
      sentenceSimilarity: rounded(sentenceSimilarity),
      coverage: Math.round(coverage * 100) / 100,
      legs: hit.legs,
      evidence,
    })),
    nearMisses: assessed
      .filter((item) => !item.evidence)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 5)
      .map(({ hit, weightedCoverage: coverage, sentenceSimilarity }) => ({
        chunkId: hit.passage.chunkId,
        recordId: hit.recordId,
        similarity: hit.similarity,
        sentenceSimilarity: rounded(sentenceSimilarity),
        coverage: Math.round(coverage * 100) / 100,
      })),
  };
  let sourceRecordIds: string[] = [];
  const finish = (outcome: Omit<AskOutcome, "provenance" | "sourceRecordIds">): AskOutcome => ({ ...outcome, sourceRecordIds, provenance });

  // Refuse without any model call when nothing the principal may read is evidence.
  if (relevant.length === 0) {
    const outcome = finish({ status: "refused", text: refusalMessage, citations: [], withheld: [] });
    yield { type: "final", outcome };
    return outcome;
  }

  // A passage that ends on the interviewer's question is followed by the one that answers it.
  const continuations = await answerContinuations(context.sql, principal, context.space, relevant, interviewers);
  const { ordered: withAnswers, continues } = withContinuations(relevant, continuations);
  const budgeted = fitBudget(withAnswers, settings.tokenBudget, settings.maxSources);
  const allowed = budgeted.filter((hit) => mayLeaveHost(generator, hit.passage.externalAllowed));
  provenance.withheld = budgeted
    .filter((hit) => !allowed.includes(hit))
    .map((hit) => ({ recordId: hit.recordId, recordTitle: hit.recordTitle, chunkId: hit.passage.chunkId, timeStart: hit.passage.timeStart }));
  if (allowed.length === 0) {
    const outcome = finish({ status: "restricted", text: restrictedMessage, citations: [], withheld: provenance.withheld });
    yield { type: "final", outcome };
    return outcome;
  }

  // Sources are given numbered in order; the reader sees them renumbered as the answer cites them.
  const given = allowed.map((hit, index) => citationOf(hit, index + 1));
  sourceRecordIds = [...new Set(allowed.flatMap((hit) => hit.passage.sourceRecordIds))].sort();
  const formOf = new Map(assessed.map((item) => [item.hit.passage.chunkId, item.form]));
  const continuedFrom = (hit: SearchHit) => {
    const from = continues.get(hit.passage.chunkId);
    const index = from === undefined ? -1 : allowed.findIndex((other) => other.passage.chunkId === from);
    return index === -1 ? undefined : index + 1;
  };
  const sources: SourcePassage[] = allowed.map((hit, index) => ({
    number: index + 1,
    title: hit.recordTitle,
    text: hit.passage.text,
    location: locationText(given[index]!),
    language: hit.passage.language,
    translation: hit.passage.translatedText,
    form: formOf.get(hit.passage.chunkId) ?? passageForm(hit.passage.text, hit.passage.timeStart !== null),
    interviewers: interviewers.get(hit.recordId),
    continues: continuedFrom(hit),
    testimony: hit.passage.timeStart !== null || hit.passage.page !== null,
  }));
  const sectionIds = new Set(allowed.map((hit) => hit.sectionSlug));
  const sectionPrompt = sectionIds.size === 1 ? settings.sectionPrompts[[...sectionIds][0]!] : undefined;
  provenance.sourcesGiven = sources.length;

  const generationStarted = performance.now();
  const isGiven = (number: number) => number >= 1 && number <= given.length;
  const numbering = createStreamingNumbering(isGiven);
  const shown = (text: string, introduced: number[]): AskEvent[] => [
    ...(introduced.length > 0
      ? [{ type: "sources" as const, sources: introduced.map((number) => ({ ...given[number - 1]!, number: numbering.order.indexOf(number) + 1 })) }]
      : []),
    ...(text ? [{ type: "delta" as const, text }] : []),
  ];
  let answer = "";
  try {
    for await (const piece of generator.generate({
      question: request.question,
      sources,
      systemPrompt: sectionPrompt ?? settings.systemPrompt,
      maxTokens: settings.maxTokens,
      temperature: settings.temperature,
    })) {
      answer += piece;
      const { text, introduced } = numbering.push(piece);
      yield* shown(text, introduced);
    }
    const { text, introduced } = numbering.flush();
    yield* shown(text, introduced);
  } catch (error) {
    provenance.timings.generateMs = Math.round(performance.now() - generationStarted);
    const reason = error instanceof GenerationError ? error.message : errorMessage(error);
    const outcome = finish({ status: "failed", text: `${failureMessage}: ${reason}`, citations: [], withheld: provenance.withheld });
    yield { type: "final", outcome };
    return outcome;
  }
  provenance.timings.generateMs = Math.round(performance.now() - generationStarted);

  const verified = verifyCitations(answer, sources, { segmentsAreQuotes: generator.name === "extractive" });
  provenance.dropped = verified.dropped;
  if (verified.cited.length === 0) {
    // Nothing in the answer could be tied to a source: it is not shown as an answer.
    const outcome = finish({ status: "refused", text: refusalMessage, citations: [], withheld: provenance.withheld });
    yield { type: "final", outcome };
    return outcome;
  }
  // Numbered as the reader reads them: [1], [2]… in order of first citation, without gaps.
  const renumbered = renumberCitations(verified.text);
  const placed = await placeInRecording(
    context.sql,
    renumbered.order.map((number, index) => ({ ...given[number - 1]!, number: index + 1 })),
    renumbered.text,
    generator.name === "extractive",
  );
  const outcome = finish({
    status: "answered",
    text: renumbered.text.trim(),
    citations: placed,
    withheld: provenance.withheld,
  });
  yield { type: "final", outcome };
  return outcome;
}
