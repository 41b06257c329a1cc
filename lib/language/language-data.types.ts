/** What a question asks for, as the answerer classifies it. */
export type QuestionKind = "when" | "where" | "who" | "howMany" | "howMuch" | "why" | "how" | "happened" | "name";

/**
 * One language's words, as written (accents and all); the loader (language-data.ts) folds them.
 * A question phrase may hold "…" for any words between its parts ("what did … do").
 */
export interface LanguageData {
  /** Phrases that ask for each kind of thing: at the question's start, except howMany, howMuch and happened, found anywhere. */
  questionPhrases: Record<QuestionKind, readonly string[]>;
  /**
   * Phrases that give a cause or a purpose ("because", "so that", "porque", "perquè", "after the…"):
   * a sentence holding one explains, and may answer a why-question; as written.
   */
  causeCues: readonly string[];
  /**
   * Phrases that give a cause when they open a sentence: what came before what it tells ("After the
   * mine closed, it lost half its people", "Tras el cierre…"); as written.
   */
  causeOpeners: readonly string[];
  /** Phrases that start like a how-question but ask for a measure or a word ("how many", "cómo se dice"): no explanation; those that ask a name are `questionPhrases.name`. */
  notHow: readonly string[];
  /** Prepositions a who- or where-word may follow ("¿A quién…?", "D'on…?"); one ending in an apostrophe is elided. */
  questionPrepositions: readonly string[];
  /** The verb "to be" in the forms a who-question asks a role with ("Who was the mayor?"). */
  copulas: readonly string[];
  /** Auxiliaries between a who-word and the action it asks who did ("Who did…", "Qui va trobar…", "¿Quién ha…"). */
  auxiliaries: readonly string[];
  /** Articles; one ending in an apostrophe is elided ("l'alcalde"). */
  articles: readonly string[];
  /** Words before a role that are not it: "the first mayor", "el primer alcalde". */
  roleQualifiers: readonly string[];
  /** Words that only ask, naming nothing the answer must hold ("what", "quin"). */
  interrogatives: readonly string[];
  /** The twelve months, January first. */
  months: readonly string[];
  /** The seven weekdays, Monday first. */
  weekdays: readonly string[];
  /** Words for the years of a decade before its tens ("los años noventa", "els anys noranta"), as written. */
  yearsWords: readonly string[];
  /** Tens that name a decade after a years-word ("noventa": 90), or alone when plural ("nineties": 90), as written. */
  tens: Readonly<Record<string, number>>;
  /** Units of time, and the words a question asking for a duration holds ("how long", "cuánto tiempo"); as written. */
  durationWords: readonly string[];
  /** Number words and their values (articles such as "un"/"una" left out: they count nothing). */
  numbers: Readonly<Record<string, number>>;
  /** Words too common to search for or mark. */
  stopWords: readonly string[];
  /** Words that join the parts of a name ("Port de la Calma", "Roser Cases i Mitjans"), "d" and "l" for d' and l'. */
  nameParticles: readonly string[];
  /** Function words that open a sentence without being a name ("El Port de la Calma" is "El" and a name), as written. */
  sentenceStarters: readonly string[];
  /** Common nouns capitalised as institutions, feasts or sacred names ("la Policía"), meant as the ordinary word; as written. */
  institutionNouns: readonly string[];
  /** Words only this one of Spanish and Catalan uses (none shared with English): they tell the two apart. */
  markerWords: readonly string[];
  /** Definite articles, as written; one ending in an apostrophe is elided ("l'església"). */
  definiteArticles: readonly string[];
  /** Indefinite articles, as written. */
  indefiniteArticles: readonly string[];
  /** Words that locate the name after them ("from Port de la Calma", "junto al río Segrell"), as written; a phrase may be several words. */
  placeNamePrepositions: readonly string[];
  /** Words that locate the common noun after them and an article ("in the cellar", "en los barracones"), as written. */
  placingPrepositions: readonly string[];
  /** The word for "of" joining a common noun to the name after it ("the port of Sóller", "el río de la Plata"), as written. */
  ofWords: readonly string[];
  /** Words that may join a person's two names ("Mercè Roig i Puig", "Pedro de Alba"), as written. */
  personNameJoiners: readonly string[];
  /** Capitalised words that name nothing (an opening article, pronoun or preposition); months and weekdays count too. */
  notNames: readonly string[];
  /** Words after which the number word for one is a pronoun, not a count ("the one who", "which one"). */
  pronounDeterminers: readonly string[];
  /** Function words: a vocabulary term spelt like one is not findable in text ("de", "the"). */
  functionWords: readonly string[];
}
