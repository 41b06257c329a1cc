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

/**
 * English to Catalan, Apertium reads the "'s" after an irregular plural as "has": "half the
 * fishermen's wives" came out "mig els pescadorshan dones", "the children's school" "els nenshan
 * l'escola". Without the "'s" it reads a compound and says it as Catalan does ("les dones de
 * pescadors", "l'escola de nens"), so the "'s" is dropped there; "men's", "women's", a name's
 * ("Carmen's") and a regular plural's ("the boys'") it reads well and keeps. Lowercase words
 * only, and not the singular nouns that end in "men" ("the specimen's label").
 */
const irregularPossessive = /(?<![\p{L}\p{N}])(\p{Ll}+men|children|people)['’]s(?=\s+\p{L})/gu;
const singularMen = new Set([
  "women",
  "specimen",
  "regimen",
  "abdomen",
  "omen",
  "stamen",
  "hymen",
  "acumen",
  "albumen",
  "bitumen",
  "lumen",
  "semen",
  "cyclamen",
]);

export function rephraseEnglishForCatalan(english: string): string {
  return english.replace(irregularPossessive, (whole, word: string) => (singularMen.has(word) ? whole : word));
}
