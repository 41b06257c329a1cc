/**
 * Ranking and answering settings, in one place: every tuned number search and Ask use, named,
 * with its default and the one-line reason it has that value. Code reads `searchSettings.x.value`
 * or `answerSettings.x.value`; the admin spaces page lists both tables from here, so what an
 * admin reads is what the code runs. Figures that justify a value live in docs/quality.md (they
 * change with the archive); a reason here says what the number does, not the score it reached.
 *
 * A setting an admin may override per installation (Ask's refusal thresholds) or per index space
 * (fusion calibration) names where the override is stored in `overriddenBy`; the value here is the
 * default the override replaces.
 */

export interface Setting<Value extends number | string | boolean = number> {
  /** The value the code runs with (and the default an override replaces). */
  readonly value: Value;
  /** One line: what the number does and why it has this value. */
  readonly reason: string;
  /** Where an admin may replace it, if anywhere (e.g. "Admin → Ask thresholds"). */
  readonly overriddenBy?: string;
}

function setting<Value extends number | string | boolean>(value: Value, reason: string, overriddenBy?: string): Setting<Value> {
  return overriddenBy === undefined ? { value, reason } : { value, reason, overriddenBy };
}

/** Search: candidate pools, keyword scoring, fusion of the two legs, collapsing passages to records. */
export const searchSettings = {
  // How deep each leg reads (runSearchLegs): several passages of one record compete for one row, so collapsing looks deeper.
  recordPoolPerResult: setting(4, "Passages a leg reads per requested record: a record's passages crowd each other out of the leg's list."),
  recordPoolExtra: setting(20, "Passages a leg reads beyond that, so a short page still sees records whose passages rank just below it."),
  passagePoolPerResult: setting(2, "Passages a leg reads per requested passage: the other leg's finds and the gate take their share."),
  passagePoolExtra: setting(10, "Passages a leg reads beyond that, for a short page."),
  candidatePoolMax: setting(200, "The most passages a leg reads for one search, whatever the page size."),
  denseEfSearch: setting(
    1000,
    "The HNSW beam of a dense leg, pgvector's largest: near-duplicate catalogue vectors and a reader's narrow access need a wide beam (docs/decisions/0003).",
  ),
  denseWalkEfSearch: setting(
    400,
    "The beam when the meaning leg walks past it (MNEMO_DENSE_WALK): the walk finds the nearest, and a beam of 400 costs less than 1,000 for the same recall (docs/decisions/0011).",
  ),
  // Keyword scoring (retrieve-passages.ts, bm25.ts).
  bm25K1: setting(1.2, "BM25's term-frequency saturation, the usual value: a repeated word counts, with diminishing returns."),
  bm25B: setting(
    0.75,
    "BM25's length normalisation, the usual value; a space whose fusion is measured uses the b measured for the query's language.",
    "The index space's measured fusion (Admin → Spaces)",
  ),
  keywordCandidateBudget: setting(
    4000,
    "Passages the query's rarest words may bring in as candidates: a word in most passages would otherwise read most of the space.",
  ),
  // From passages to records (recordScores).
  passagesPerRecordByWords: setting(
    2,
    "By words a record scores its best passages, up to this many: a title in one passage and the matching sentence in another add up, forty passages sharing a common word do not.",
  ),
  secondPassageShare: setting(
    1,
    "What a record's second-best passage adds by words, as a share of its own (1: the sum of the two); a measured space uses its own share.",
    "The index space's measured fusion (Admin → Spaces)",
  ),
  // Fusion of the two legs (fuse-legs.ts) and the reranker's shortlist.
  unmeasuredMeaningShare: setting(
    0.5,
    "Hybrid search weighs meaning and words equally until the space's fusion is measured on a golden set.",
    "The index space's measured fusion (Admin → Spaces)",
  ),
  rerankDepth: setting(30, "How many fused candidates a reranker sees (at least the page): each one deeper is one more passage for the reranker to score."),
  localRerankSentences: setting(12, "The local reranker scores a passage by its best of this many first sentences: each one is embedded per query."),
  rrfK: setting(60, "Reciprocal-rank fusion's k (similar objects' views), the usual value: flattens the gap between neighbouring ranks."),
  // Calibration of a space's fusion on golden questions (calibrate-fusion.ts).
  calibrationShareSteps: setting(20, "Meaning shares tried between words only and meaning only: 0, 0.05, …, 1."),
  calibrationMinQuestionsPerLanguage: setting(6, "A language with fewer golden questions takes the overall choice: a handful of questions is noise."),
  calibrationSharePriorQuestions: setting(48, "Weight of the overall curve in a language's share, in questions; chosen held out (docs/decisions/0004)."),
  calibrationLengthPriorQuestions: setting(12, "Weight of the overall curve in a language's b, in questions."),
  calibrationSmoothing: setting(
    1,
    "Neighbouring shares each side a share's score is averaged with, so a lone spike beside a cliff does not win (docs/decisions/0004).",
  ),
  // Similar objects (lib/rag/objects).
  nearDuplicateFloor: setting(
    0.97,
    "Near-duplicate mode: the similarity a candidate needs on every view; the best separation of copies from different objects in eval:objects.",
    "Admin → section → Objects (per section)",
  ),
} as const;

/** Ask: which passages may support an answer, and how the extractive answer picks its sentences. */
export const answerSettings = {
  // Evidence: which retrieved passages may ground an answer (assess-evidence.ts); below the bar Ask refuses without a model call.
  minSimilarity: setting(
    0.25,
    "A passage this similar to the question is evidence when it also holds minTermCoverage of the question's words.",
    "Admin → Ask thresholds",
  ),
  strongSimilarity: setting(0.7, "A passage this similar is evidence on its own, given one of the question's words.", "Admin → Ask thresholds"),
  minTermCoverage: setting(
    0.5,
    "Half the question's words: passages near in meaning sharing only one or two words answered questions the archive cannot answer.",
    "Admin → Ask thresholds",
  ),
  refuseUnknownTerms: setting(true, "Refuse when a word of the question is in no readable record: the records cannot answer what they never mention."),
  evidenceCoverageWeight: setting(
    0.1,
    "Evidence is given in order of similarity plus this share of its weighted coverage: similarity leads, shared words break near-ties.",
  ),
  // What the generator is given (ask.ts).
  candidates: setting(24, "Passages retrieved for each question and tested as evidence."),
  tokenBudget: setting(1800, "Tokens of source text given to the generator; the closest passages are kept first."),
  maxSources: setting(8, "At most this many passages are given to the generator."),
  temperature: setting(0.1, "A model answers close to its sources, varying little between runs."),
  maxTokens: setting(600, "The longest answer a model may write, in tokens."),
  // The extractive answerer: which source sentences it quotes (extractive-generator.ts).
  maxSentences: setting(3, "At most this many quoted sentences in an extractive answer."),
  minSentenceScore: setting(0.25, "A sentence scoring below this is not quoted, however it ranks."),
  sentenceWindow: setting(0.08, "Only sentences within this of the best sentence's score are quoted beside it."),
  sentencesPerSource: setting(60, "Sentences read from each source, each one embedded: bounds the work per question."),
  lexicalWeight: setting(0.2, "How much the share of the question's words a sentence holds (weighted by rarity) adds to its similarity."),
  retrievalPrior: setting(0.03, "The most a sentence gains from its source's retrieval rank: a slight prior, never decisive."),
  answerTypeBonus: setting(0.12, "What a sentence gains by giving the kind of thing asked for: a date for when, a count for how many, a new place or name."),
  fieldNameBonus: setting(0.12, 'What a catalogue field gains when the question asks for it by its label ("Which mint…?" → "Mint: Antioch").'),
  fieldPenalty: setting(0.08, "What any other catalogue field loses: it answers only when no running text comes close."),
  titleBonus: setting(0.05, "What a sentence gains when the question names its source's title."),
  inheritedAnswerMargin: setting(
    0.05,
    "A narrator's reply is as close as the interviewer's question it answers less this (twice this after its first sentence).",
  ),
  sameQuestionSimilarity: setting(0.5, "Only an interviewer's question this similar to the asker's passes its closeness to the reply."),
  sameQuestionShare: setting(0.6, "An interviewer's question whose content words are this share the asker's (in the interview's language) asks the same."),
  sameQuestionWords: setting(0.75, "The closeness an interviewer's question that asks the asker's question in its own words passes to the reply."),
  nearDuplicateSentence: setting(0.85, "A sentence this similar to one already quoted is a near-repeat and is left out."),
  kindWindow: setting(
    0.25,
    "When the best sentences give no date, count, place or name the question asks for, the best one that does is quoted if within this of them.",
  ),
  disagreementWindow: setting(0.15, "Another record's different date or count is quoted beside the answer when within this of the best sentence."),
  testimonyBonus: setting(
    0.06,
    "What a sentence heard in a recording or read on a document's page gains over a description written about it (a biography, a catalogue text).",
  ),
  causeBonus: setting(0.08, "What a sentence that gives a cause (because, porque, perquè…) or replies to a why-question gains, for a why-question."),
  dateForWhyPenalty: setting(0.12, "What a sentence that gives a date and no cause loses for a why-question: when is no answer to why."),
  restatedNewWords: setting(
    0.25,
    "A why- or how-answer is not led by a sentence at most this share of whose content words are not the question's: it restates the question.",
  ),
  restatedSimilarity: setting(
    0.6,
    "A why- or how-answer is not led by a sentence this close to the question (cosine) that gives no cause: it paraphrases the question.",
  ),
  explanationSentences: setting(4, "A why- or how-answer quotes the explaining sentence and those after it in its turn or paragraph, this many at most."),
  countWordDistance: setting(4, "A number counts what the question names when one of the question's words follows within this many words."),
  // Source sentences (answer-sentences.ts).
  minStatementWords: setting(4, "A statement shorter than this many words is a fragment and answers nothing."),
  minReplyWords: setting(2, 'A reply to the interviewer\'s question may be this short ("The dolphins, especially.").'),
  fieldsMaxWords: setting(25, "A passage of at most this many words without a sentence end is a catalogue entry, not running text."),
  speakerLabelMaxWords: setting(6, "A transcript line's label before \": \" is a speaker's name only when it has at most this many words."),
} as const;

type SettingTable = Readonly<Record<string, Setting<number | string | boolean>>>;

/** Both tables as rows for a page: section, name, value, reason, override. */
export function settingRows(): { table: "search" | "answer"; name: string; value: number | string | boolean; reason: string; overriddenBy?: string }[] {
  const rows = (table: "search" | "answer", settings: SettingTable) =>
    Object.entries(settings).map(([name, entry]) => ({
      table,
      name,
      value: entry.value,
      reason: entry.reason,
      ...(entry.overriddenBy ? { overriddenBy: entry.overriddenBy } : {}),
    }));
  return [...rows("search", searchSettings), ...rows("answer", answerSettings)];
}
