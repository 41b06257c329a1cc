/**
 * Spanish "dejar de" before an infinitive means "stop doing", but Apertium reads "dejar" as
 * "leave": "Dejé de salar en 1967" came out "I left of salar in 1967", "dejaron de acudir" "left
 * to attend" — the opposite of what the narrator said. "parar de" it reads as "stop", so the verb
 * is swapped before translating ("Dejé de" → "Paré de", the same person and tense: both are
 * regular -ar verbs) and its English "stopped to work" is made "stopped working" after. Pure.
 */
const dejarDe =
  /(?<![\p{L}\p{N}])([Dd])ej(a|as|an|amos|o|ó|é|aste|asteis|aron|aba|abas|aban|ábamos|ado|ada|ar|ando|ará|arán|aría|arían|e|es|en)\s+de\s+(?=\p{L}+(?:ar|er|ir|ír)(?:se|lo|la|los|las|le|les)?(?![\p{L}\p{N}]))/gu;

/** The Spanish text with "dejar de" + infinitive said as "parar de"; other languages as they are. */
export function rephraseForBridge(text: string, language: string): string {
  if (language !== "es") return text;
  return text.replace(dejarDe, (_, d: string, ending: string) => `${d === "D" ? "P" : "p"}ar${ending} de `);
}

/**
 * Apertium's English of "parar de" + infinitive ("stopped to work", "stopped of *salar", its mark
 * kept before a word it did not know) as English says it: "stopped working", "stopped *salar".
 */
export function rephraseFromBridge(english: string): string {
  return english.replace(
    /(?<![\p{L}\p{N}])([Ss]top(?:s|ped|ping)?)\s+(?:to|of)\s+([*#@]*)(\p{L}+)/gu,
    (_, stop: string, mark: string, verb: string) => `${stop} ${mark}${/[*@]/.test(mark) ? verb : gerund(verb)}`,
  );
}

/** An English verb's -ing form: "work" → "working", "make" → "making", "stop" → "stopping", "die" → "dying". */
export function gerund(verb: string): string {
  if (/ie$/.test(verb)) return `${verb.slice(0, -2)}ying`;
  if (/[^aeiou]e$/.test(verb) && verb.length > 2) return `${verb.slice(0, -1)}ing`;
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(verb)) return `${verb}${verb.slice(-1)}ing`;
  return `${verb}ing`;
}
