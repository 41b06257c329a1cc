import { splitSentences } from "../chunk";
import { answerSettings } from "../config/settings";
import { foldWord, queryTerms } from "../search/highlight";
import { askingWords, asks, wordSet } from "../../language/language-data";
import type { SourcePassage } from "../../llm/generator";
import { joinLines, lineGlues, printedLines, sentenceEnd, startsLowercase } from "./unwrap-lines";

/**
 * What a source's sentences are, before any is chosen as an answer: who says it in a
 * transcript, whether it is the interviewer speaking or a question (which state nothing the
 * narrator said), and whether the passage is only labelled catalogue fields, which never
 * explain how or why anything happened. Pure.
 */
export type SentenceRole = "statement" | "interviewer" | "question" | "field";

export interface SourceSentence {
  source: number;
  text: string;
  /** The speaker of the transcript turn it belongs to. */
  speaker: string | null;
  role: SentenceRole;
  /** The line (turn or paragraph) of the source it is in, counted from 0. */
  line: number;
  /** For a narrator's turn: the line of the interviewer's turn just before it, which it answers. */
  answers: number | null;
  /** Its English translation, aligned from the passage's translation when one was given. */
  english: string | null;
}

export type PassageForm = NonNullable<SourcePassage["form"]>;

const minWords = answerSettings.minStatementWords.value;
const minAnswerWords = answerSettings.minReplyWords.value;
// A label may join two names ("Ruler / issuer", "Printer & publisher").
const labelledField = /^[\p{Lu}][\p{L}\p{N} ›'’()./&,-]{0,40}:\s+\S/u;
/** Whether a sentence or turn ends on a question mark (before any closing quote or bracket). */
export const isQuestion = (text: string) => /[?？]["”»)’]*\s*$/.test(text);
/** A turn's speaker label: a short name (no sentence punctuation) before ": ". */
const speakerLabel = /^([\p{Lu}][^:.!?\n]{0,60}?):\s+/u;

/**
 * A transcript's turns are "Speaker: text" lines; a catalogue fragment is a line or two of
 * labelled fields ("Findspot: …") or a bare value without a sentence ("Port de la Calma,
 * harbour dredging 1987, trench D"); anything else is running text.
 */
export function passageForm(text: string, timed: boolean): PassageForm {
  if (timed) return "transcript";
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return "text";
  if (lines.every((line) => labelledField.test(line))) return "fields";
  const words = text.split(/\s+/).filter(Boolean).length;
  if (words <= answerSettings.fieldsMaxWords.value && !lines.some((line) => sentenceEnd.test(line))) return "fields";
  return "text";
}

/** Splits a line into its speaker (known names first, then any short label) and what they say. */
function splitSpeaker(line: string, knownSpeakers: readonly string[]): { speaker: string | null; said: string } {
  const known = knownSpeakers.find((name) => line.startsWith(`${name}:`));
  if (known) return { speaker: known, said: line.slice(known.length + 1).trim() };
  const label = speakerLabel.exec(line);
  if (label && label[1]!.split(/\s+/).length <= answerSettings.speakerLabelMaxWords.value)
    return { speaker: label[1]!.trim(), said: line.slice(label[0].length).trim() };
  return { speaker: null, said: line };
}

/**
 * Who interviews, when the archive does not say: in a passage where one speaker asks most of
 * the questions and another answers, the asker. Null when that is not clear.
 */
function likelyInterviewer(turns: { speaker: string | null; said: string }[]): string | null {
  const speakers = [...new Set(turns.map((turn) => turn.speaker).filter((speaker): speaker is string => speaker !== null))];
  if (speakers.length < 2) return null;
  const askers = speakers.filter((speaker) => {
    const own = turns.filter((turn) => turn.speaker === speaker);
    return own.filter((turn) => isQuestion(turn.said)).length * 2 > own.length;
  });
  return askers.length === 1 ? askers[0]! : null;
}

const sentencesIn = (text: string) => splitSentences(text).map((range) => text.slice(range.start, range.end).trim());

/** A label that names the role, not the person ("Interviewer:", "Entrevistadora:", "Q:"): the asker's. */
const interviewerLabel = /^(?:interviewers?|entrevistador(?:a|s|es|as)?|pregunta|question|q)(?!\p{L})/iu;

/**
 * Who interviews in this passage: the archive's interviewers, a speaker labelled by the role, and
 * — when none of those speaks in it (the transcript labels the interviewer otherwise than the
 * archive names her) — the speaker who asks the questions.
 */
function passageInterviewers(turns: { speaker: string | null; said: string }[], named: readonly string[], transcript: boolean): Set<string> {
  const labels = turns.flatMap((turn) => (turn.speaker === null ? [] : [turn.speaker]));
  const byRole = labels.filter((label) => interviewerLabel.test(label));
  const present = named.some((name) => labels.includes(name)) || byRole.length > 0;
  const asker = transcript && !present ? likelyInterviewer(turns) : null;
  return new Set([...named, ...byRole, ...(asker === null ? [] : [asker])]);
}

/**
 * The source's sentences with their speaker and role, in reading order. Running text is read by
 * paragraph, its printed lines joined again (see unwrap-lines.ts), so a sentence the page wrapped
 * is quoted whole; a transcript by turn, one per line. Statements shorter than four words are left
 * out (fragments answer nothing) unless they reply to the interviewer; the interviewer's are kept
 * whatever their length, since a narrator's answer is read against the question it answers. Left
 * out too, as a quotation cut mid-sentence answers nothing, are the sentences the passage's cut
 * left incomplete: the last when it has no sentence end (in a passage that ends its other
 * sentences; an unpunctuated source shows no cut), and the first when it starts in lowercase,
 * going on from the passage before (in a transcript, only a first line without its speaker's
 * label). Catalogue fields and the interviewer's turns are never cut.
 */
export function sourceSentences(source: SourcePassage): SourceSentence[] {
  const form = source.form ?? passageForm(source.text, false);
  const speakers = source.interviewers ?? [];
  const printed = printedLines(source.text);
  const translatedPrinted = source.translation ? printedLines(source.translation) : [];
  // The bridge keeps lines (and so turns) apart: a line's sentences align when they count the same.
  const aligned = translatedPrinted.length === printed.length;
  if (form === "fields") return catalogueEntry(source, printed, aligned ? translatedPrinted : null);
  // A translation is joined by its original's glues, so its paragraphs stay aligned with the original's.
  const glues = form === "text" ? lineGlues(source.text, source.language) : null;
  const lines = glues ? joinLines(source.text, glues) : printed;
  const translatedLines = aligned && glues && source.translation ? joinLines(source.translation, glues) : translatedPrinted;
  const turns = lines.map((line) => {
    if (form === "transcript") return splitSpeaker(line, speakers);
    // Running text may still carry an interview's "Interviewer: …" lines.
    const label = speakerLabel.exec(line);
    return label && interviewerLabel.test(label[1]!) ? { speaker: label[1]!, said: line.slice(label[0].length).trim() } : { speaker: null, said: line };
  });
  const interviewers = passageInterviewers(turns, speakers, form === "transcript");
  const candidates: SourceSentence[] = [];
  let lastQuestion: number | null = null;
  let askedUnlabelled = false;
  turns.forEach((turn, line) => {
    // An unlabelled turn that ends on a question asks it: someone else's question is never the answer.
    const asksUnlabelled = form === "transcript" && turn.speaker === null && isQuestion(turn.said);
    const byInterviewer = (turn.speaker !== null && interviewers.has(turn.speaker)) || asksUnlabelled;
    const answers = byInterviewer ? null : lastQuestion;
    const parts = sentencesIn(turn.said);
    const translatedLine = aligned ? translatedLines[line]! : "";
    const translatedParts = aligned ? sentencesIn(turn.speaker !== null ? splitSpeaker(translatedLine, []).said : translatedLine) : [];
    parts.forEach((text, index) => {
      const role: SentenceRole = byInterviewer
        ? "interviewer"
        : isQuestion(text)
          ? "question"
          : form === "text" && labelledField.test(text)
            ? "field"
            : "statement";
      const english = translatedParts.length === parts.length ? translatedParts[index]! : null;
      candidates.push({ source: source.number, text, speaker: turn.speaker, role, line, answers, english });
    });
    if (byInterviewer) lastQuestion = line;
    else if (turn.speaker !== null || askedUnlabelled) lastQuestion = null;
    askedUnlabelled = asksUnlabelled;
  });
  // The interviewer's are kept even when cut: a passage that ends on the question is answered by the next.
  const first = candidates[0];
  const cutBefore =
    first !== undefined && first.line === 0 && first.role !== "interviewer" && (form === "text" || first.speaker === null) && startsLowercase(first.text);
  const last = candidates.at(-1);
  const cutAfter =
    last !== undefined && last.role === "statement" && !sentenceEnd.test(last.text) && candidates.some((sentence) => sentenceEnd.test(sentence.text));
  const whole = candidates.slice(cutBefore ? 1 : 0, cutAfter ? -1 : undefined);
  return whole.filter((sentence) => {
    if (sentence.role === "interviewer" || sentence.role === "question") return true;
    // A short reply ("The dolphins, especially.") is an answer when it follows the question.
    const answersAQuestion = sentence.answers !== null || (sentence.line === 0 && source.continues !== undefined);
    return sentence.text.split(" ").length >= (answersAQuestion ? minAnswerWords : minWords);
  });
}

const fieldLine = /^([^:\n]{1,40}):\s*(.*)$/u;
const sameText = (a: string, b: string) => a.normalize("NFC").trim().toLocaleLowerCase() === b.normalize("NFC").trim().toLocaleLowerCase();

/**
 * A catalogue entry answers as one unit: its fields together ("Artist: Frederic Remington;
 * Year made: 1895"), never one short line alone, and never the line that only repeats the
 * record's title — a question that names the record knows it already ("Who made The Bronco
 * Buster?" is not answered by "Title: The Bronco Buster"). An entry that is only its title
 * answers nothing.
 */
function catalogueEntry(source: SourcePassage, lines: string[], translatedLines: string[] | null): SourceSentence[] {
  const kept = lines.flatMap((line, index) => {
    const field = fieldLine.exec(line);
    return sameText(field ? field[2]! : line, source.title) ? [] : [index];
  });
  if (kept.length === 0) return [];
  const text = kept.map((index) => lines[index]!.replace(/[.;]\s*$/, "")).join("; ");
  const english = translatedLines ? kept.map((index) => translatedLines[index]!.replace(/[.;]\s*$/, "")).join("; ") : null;
  return [{ source: source.number, text, speaker: null, role: "field", line: 0, answers: null, english }];
}

// Question words (English, Spanish, Catalan) that ask for no content of their own.
const interrogatives = wordSet("interrogatives");

/** The question's content words: the search's terms without the words that only ask. */
export function questionTerms(question: string): string[] {
  const asking = new Set(askingWords(question));
  return queryTerms(question).filter((term) => !interrogatives.has(term) && !asking.has(term));
}

/** The question's capitalised content words after its first word: names of people, places, things. */
export function questionNames(question: string): string[] {
  const terms = new Set(questionTerms(question));
  const words = [...question.matchAll(/[\p{L}\p{N}]+/gu)];
  return [
    ...new Set(
      words
        .slice(1)
        .filter((match) => /^\p{Lu}/u.test(match[0]))
        .map((match) => foldWord(match[0])),
    ),
  ].filter((word) => terms.has(word));
}

/** Whether the question asks how or why something happened, which only running text explains. */
export function asksForExplanation(question: string): boolean {
  return asks(question, "why") || asks(question, "how") || asks(question, "happened");
}

/** Whether a sentence may answer: interviewers and questions never; catalogue fields not how or why. */
export function mayAnswer(sentence: Pick<SourceSentence, "role">, question: string): boolean {
  if (sentence.role === "interviewer" || sentence.role === "question") return false;
  return !(sentence.role === "field" && asksForExplanation(question));
}
