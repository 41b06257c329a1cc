/**
 * What the extractive answerer may say in its own words before it quotes: a sentence that frames
 * the quotations, not one of them. It cites nothing, so the checks that read each cited stretch
 * of an answer as a quotation (verify-citations.ts, turn-timecodes.ts) leave it out. Pure.
 */

/** Said first when a why-answer's sentences give a date and no cause, in the asker's language. */
export const whyNotSaid: Readonly<Record<string, string>> = {
  en: "The records do not say why; they say this:",
  es: "Los documentos no dicen por qué; dicen esto:",
  ca: "Els documents no diuen per què; diuen això:",
};

const prefaces = Object.values(whyNotSaid);

/** `text` without a preface at its start (the stretch of an answer before its first citation). */
export function withoutPreface(text: string): string {
  const start = text.trimStart();
  const preface = prefaces.find((one) => start.startsWith(one));
  return preface ? start.slice(preface.length) : text;
}
