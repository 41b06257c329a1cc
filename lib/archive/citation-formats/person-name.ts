import { foreignNameParticles, wordSet } from "../../language/language-data";
import type { CitationName } from "./citation-item";

/**
 * People's names as reference managers want them: family and given. Pure.
 *
 * The rule, in order:
 * 1. The person record's own fields win: `familyName`/`family`/`surname(s)` with
 *    `givenName`/`given`/`forename(s)` (personNameFields).
 * 2. A name written "Family, Given" is read as written ("Ortiz, Carmen").
 * 3. An organisation (a word such as Ajuntament, Universitat, Museum, Society, Inc.), a single
 *    word, a name with digits or one that does not end in a capitalised word stays literal.
 * 4. Particles (de, del, de la, dels, d', da, dos, van, von, der…) stay with the family name they
 *    precede ("Juan de la Cierva" → de la Cierva, Juan).
 * 5. Two family names joined by "i", "y" or "e" are kept whole in any language ("Josep Maria Puig i
 *    Cadafalch" → Puig i Cadafalch; "Francisco de Goya y Lucientes" → de Goya y Lucientes).
 * 6. For a Spanish or Catalan name (the citing record's language is es or ca), the last two
 *    family names are one family name when a given name is left before them ("Carmen Roldán
 *    Ortiz" → Roldán Ortiz, Carmen); otherwise (English, unknown) the last word is the family
 *    name ("Mary Ann Evans" → Evans, Mary Ann).
 *
 * Limits: the record's language stands for the person's, so a Spanish narrator cited from an
 * English record gets one family name, and an English name in a Catalan record two; a compound
 * given name with a single surname in es/ca ("María José García") splits as "José García, María";
 * suffixes (Jr., III) and mononyms stay literal; the particle list is European only.
 */

const conjunctions = new Set(["i", "y", "e"]);
/**
 * Lower-case words that belong to the family name after them: the archive's Spanish and Catalan
 * name particles and those of other languages it cites (lib/language), one word each; the
 * conjunctions join two family names instead, and an elided d' stays on its word ("d'Ors").
 */
export const nameParticles: ReadonlySet<string> = new Set(
  [...wordSet("nameParticles", ["es", "ca"]), ...foreignNameParticles].filter(
    (particle) => !particle.includes(" ") && particle.length > 1 && !conjunctions.has(particle),
  ),
);
const hispanicLanguages = new Set(["es", "ca", "spa", "cat", "spanish", "catalan", "español", "castellano", "català", "catalán"]);
const organisationWords =
  /\b(ajuntament|ayuntamiento|arxiu|archivo|archive|archives|associaci[óo]|asociaci[óo]n|association|biblioteca|library|church|iglesia|església|comit[ée]|committee|company|companyia|compañía|consell|consejo|council|cooperativa|cooperative|departament|departamento|department|diputaci[óo]n?|fundaci[óo]n?|foundation|generalitat|government|gobierno|govern|institut|instituto|institute|ministeri|ministerio|ministry|museu|museo|museum|partido|partit|party|sindicat|sindicato|sociedad|societat|society|uni[óo]n?|union|universitat|universidad|university|inc|ltd|llc|s\.a|s\.l)\b/iu;
const suffixes = /^(jr\.?|sr\.?|[ivx]+\.?)$/i;

function isCapitalised(word: string): boolean {
  return /^(d['’])?\p{Lu}/u.test(word);
}

function isParticle(word: string): boolean {
  return nameParticles.has(word.toLowerCase()) && !isCapitalised(word);
}

/** Whether a language value (a code or a name) is Spanish or Catalan. */
export function isHispanicLanguage(language: string | undefined): boolean {
  return language !== undefined && hispanicLanguages.has(language.trim().toLowerCase().split(/[-_]/)[0]!);
}

/**
 * The family/given parts a person record keeps in fields of its own, if it has them; a family
 * name alone is enough.
 */
const familyNameKeys = ["familyName", "family", "surname", "surnames", "lastName"] as const;
const givenNameKeys = ["givenName", "given", "forename", "forenames", "firstName"] as const;
/** The value keys personNameFields reads: a caller may load just these of a record's values. */
export const personNameKeys: readonly string[] = [...familyNameKeys, ...givenNameKeys];

export function personNameFields(values: Record<string, unknown>): { family: string; given?: string } | undefined {
  const text = (keys: readonly string[]) =>
    keys
      .map((key) => values[key])
      .find((value): value is string => typeof value === "string" && value.trim() !== "")
      ?.replace(/\s+/g, " ")
      .trim();
  const family = text(familyNameKeys);
  if (!family) return undefined;
  const given = text(givenNameKeys);
  return given ? { family, given } : { family };
}

/** Index of the first word of the family name unit ending at `end` (its particles included). */
function unitStart(words: readonly string[], end: number): number {
  let start = end;
  while (start > 0 && isParticle(words[start - 1]!)) start--;
  return start;
}

/** A name as family and given (see the rule above), or as written when it cannot be split. */
export function splitPersonName(written: string, options: { language?: string } = {}): CitationName {
  const name = written.replace(/\s+/g, " ").trim();
  const inverted = /^([^,]+),\s*([^,]+)$/.exec(name);
  if (inverted) return { family: inverted[1]!.trim(), given: inverted[2]!.trim() };
  const words = name.split(" ");
  const last = words.at(-1) ?? "";
  if (words.length < 2 || /\d/.test(name) || organisationWords.test(name) || suffixes.test(last) || !isCapitalised(last) || name.includes(",")) {
    return { literal: name };
  }
  let start = unitStart(words, words.length - 1);
  const beforeFirst = start - 1;
  if (beforeFirst >= 1 && conjunctions.has(words[beforeFirst]!)) {
    start = isCapitalised(words[beforeFirst - 1]!) ? unitStart(words, beforeFirst - 1) : 0;
  } else if (isHispanicLanguage(options.language) && start >= 2 && isCapitalised(words[start - 1]!) && !isParticle(words[start - 1]!)) {
    const second = unitStart(words, start - 1);
    if (second >= 1) start = second;
  }
  if (start < 1) return { literal: name };
  return { family: words.slice(start).join(" "), given: words.slice(0, start).join(" ") };
}
