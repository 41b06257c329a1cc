import { describe, expect, it } from "vitest";
import { foldAccents } from "./fold-accents";
import {
  type DataLanguage,
  type QuestionKind,
  askedRolePatterns,
  asks,
  dataLanguages,
  decadeTerms,
  foldText,
  foldedWords,
  foreignNameParticles,
  givesCause,
  languageData,
  monthNumbers,
  namePatterns,
  notNameWords,
  numberWords,
  questionLanguages,
  wordSet,
} from "./language-data";

const kindsOf = (question: string) =>
  (["when", "where", "who", "howMany", "howMuch", "why", "how", "happened", "name"] as QuestionKind[]).filter((kind) => asks(question, kind));

const languageNames = { en: "English", es: "Spanish", ca: "Catalan" } as const satisfies Record<DataLanguage, string>;
/** One table of cases per language, as rows of it.each named by their language: ["Spanish", …case]. */
const byLanguage = <Case extends unknown[]>(cases: Record<DataLanguage, Case[]>) =>
  dataLanguages.flatMap((language) => cases[language].map((row) => [languageNames[language], ...row] as const));

const questionKinds: Record<DataLanguage, [string, QuestionKind[]][]> = {
  en: [
    ["When did the mine close?", ["when"]],
    ["In what year was the bell cast?", ["when"]],
    ["In which year did the café close down?", ["when"]],
    ["On what date were the bells lowered?", ["when"]],
    ["Where did the family live?", ["where"]],
    ["Who was the mayor in 1965?", ["who"]],
    ["To whom did she write?", ["who"]],
    ["How many bells were lowered?", ["howMany"]],
    ["How heavy was the bell?", ["howMuch", "how"]],
    ["How often did the river flood?", []],
    ["Why did the village empty?", ["why"]],
    // What made or led someone do something asks why.
    ["What made Tony Llorens go to the mines in Wales?", ["why"]],
    ["What was the jug made of?", []],
    ["How did the village empty?", ["how"]],
    // The means asked for is a manner: "with what", "in what way".
    ["With what did he clean the coin?", ["how"]],
    ["In what way did the women feed the miners?", ["how"]],
    ["What price did a box of sardines fetch?", ["howMuch"]],
    ["What did the mayor do after the flood?", ["happened"]],
    ["What was the name of the engineer who designed the dam?", ["name"]],
    ["What was the mule called?", ["name"]],
  ],
  es: [
    ["¿Cuándo se cerró la mina?", ["when"]],
    ["¿En qué año se inundó el pueblo?", ["when"]],
    ["En qué año se fundió la campana", ["when"]],
    ["¿Qué fecha tiene la carta?", ["when"]],
    ["¿Dónde vivía la familia?", ["where"]],
    ["¿De dónde venían los mineros?", ["where"]],
    ["¿Quién era el médico?", ["who"]],
    ["¿Con quién vivía?", ["who"]],
    ["¿Cuántos mineros había?", ["howMany"]],
    ["¿Cuánto pesaba la campana?", ["howMuch"]],
    ["¿Por qué se fueron?", ["why"]],
    ["¿Qué llevaba a las vendedoras a pedirse préstamos?", ["why"]],
    ["¿Cómo se inundó el pueblo?", ["how"]],
    ["¿De qué manera se pagaba a las rederas?", ["how"]],
    ["¿Qué precio tenía la sardina?", ["howMuch"]],
    ["¿Y qué pasó después?", ["happened"]],
  ],
  ca: [
    ["Quan es va tancar la mina?", ["when"]],
    ["Quin any va arribar el pantà?", ["when"]],
    ["En quina data van baixar les campanes?", ["when"]],
    ["En quin any es va fondre la campana?", ["when"]],
    ["On vivia la família Farré?", ["where"]],
    ["D'on venien els miners?", ["where"]],
    ["Qui era l'alcalde?", ["who"]],
    ["Amb qui vivia?", ["who"]],
    ["Quants habitants té el poble?", ["howMany"]],
    ["Quantes campanes hi havia?", ["howMany"]],
    ["Quant pesava la campana?", ["howMuch"]],
    ["Per què van marxar?", ["why"]],
    ["Què va portar a la Montserrat a marxar a Manchester?", ["why"]],
    // What someone brought is no why.
    ["Què va portar la Montserrat a Manchester?", []],
    ["Com es va inundar el poble?", ["how"]],
    ["Amb què va netejar la moneda?", ["how"]],
    ["De quina manera van portar les campanes?", ["how"]],
    ["Quin preu tenia la sardina?", ["howMuch"]],
    ["Com es deia la mula que va portar els mobles?", ["name"]],
    ["¿Cómo se llamaba la mula?", ["name"]],
    ["How it said  the *mula that took the fixtures?", []],
    ["Què va passar amb el molí?", ["happened"]],
  ],
};

describe("question classification", () => {
  it.each(byLanguage(questionKinds))("%s: %s", (_language, question, kinds) => {
    expect(kindsOf(question)).toEqual(kinds);
  });

  it("counts a question word only in its own language when another language uses it too", () => {
    // "On" is Catalan for where, and an English preposition.
    expect(asks("On the night of the flood, who rang the bells?", "where")).toBe(false);
    expect(asks("On an ordinary day in the 1950s, how many lots were sold?", "where")).toBe(false);
    expect(asks("On an ordinary day in the 1950s, how many lots were sold?", "howMany")).toBe(true);
    expect(asks("On és el molí de la Vall?", "where")).toBe(true);
    // A word no other language uses counts whatever the rest: a name's particles do not hide "who".
    expect(asks("Who was Roser Cases i Mitjans de la Vall d'en Bas?", "who")).toBe(true);
  });

  it("guesses the question's languages from its stop words and question words", () => {
    expect(questionLanguages("On the night of the flood, who rang the bells?")).toEqual(["en"]);
    expect(questionLanguages("¿Quién era el alcalde del pueblo?")).toEqual(["es"]);
    expect(questionLanguages("Qui era l'alcalde del poble?")).toEqual(["ca"]);
    expect(questionLanguages("Sant Romà")).toEqual(["en", "es", "ca"]);
  });
});

describe("roles asked for", () => {
  it.each([
    ["Who was the first mayor of Sant Romà?", ["first", "mayor"]],
    ["¿Quién era el médico del pueblo?", ["medico", "del"]],
    ["Qui va ser l’alcaldessa?", ["alcaldessa", undefined]],
  ])("%s", (question, words) => {
    const match = askedRolePatterns.map((pattern) => pattern.exec(foldText(question))).find(Boolean);
    expect([match?.[1], match?.[2]]).toEqual(words);
  });

  it("knows the words before a role that are not it", () => {
    expect(["first", "ultimo", "darrer"].every((word) => wordSet("roleQualifiers").has(word))).toBe(true);
  });
});

describe("decades a question names", () => {
  it.each([
    [
      ["anos", "noventa"],
      [
        ["anos", 1990],
        ["noventa", 1990],
      ],
    ],
    [["ordinary", "day", "1950s"], [["1950s", 1950]]],
    [
      ["90s", "nineties"],
      [
        ["90s", 1990],
        ["nineties", 1990],
      ],
    ],
    [
      ["anys", "cinquanta"],
      [
        ["anys", 1950],
        ["cinquanta", 1950],
      ],
    ],
    // A count of years is no decade.
    [["twenty", "years"], []],
    [["vint", "anys"], []],
  ])("%j", (terms, expected) => {
    expect([...decadeTerms(terms)]).toEqual(expected);
  });
});

describe("sentences that give a cause", () => {
  it.each([
    ["We left because the water was coming.", true],
    ["Se fueron porque el agua subía.", true],
    ["Ho vam deixar perquè les xarxes venien adobades de la fàbrica.", true],
    ["Ya que no había trabajo, me fui.", true],
    ["The factory closed in 1978.", false],
    ["La fábrica cerró en 1978, y sus naves fueron demolidas en 1996.", false],
    // A cue is a whole word or phrase: "aftermath" and "sincere" give no cause.
    ["In the aftermath we were sincere.", false],
    // What came before, when it opens the sentence; not "after" anywhere.
    ["After the mine closed in 1993 it lost almost half of its population.", true],
    ["Después del cierre, los jóvenes se fueron a Zaragoza.", true],
    ["She came in 1952 after the wedding.", false],
    // A request, a protest or a reason named as such gives the cause too.
    ["These objects were left where they lay, at the request of the former residents.", true],
    ["Thirty-eight miners locked themselves in at level two in protest at the closure plan.", true],
    ["Els objectes es van deixar on eren, a petició dels antics veïns.", true],
    ["Por esta razón la cofradía construyó la lonja.", true],
    ["La subasta empezaba a las cinco de la tarde.", false],
  ])("%s", (sentence, expected) => {
    expect(givesCause(sentence)).toBe(expected);
  });
});

describe("months, numbers, stop words, particles", () => {
  it("knows each language's months, accents or not", () => {
    const monthOf = (word: string) => monthNumbers.get(foldText(word)) ?? null;
    expect([monthOf("March"), monthOf("marzo"), monthOf("març"), monthOf("Marc")]).toEqual([3, 3, 3, 3]);
    expect([monthOf("August"), monthOf("agosto"), monthOf("agost")]).toEqual([8, 8, 8]);
    expect([monthOf("diciembre"), monthOf("desembre"), monthOf("gener")]).toEqual([12, 12, 1]);
    expect(monthOf("mina")).toBeNull();
    expect(wordSet("months").size).toBe(34);
  });

  it("knows number words in three languages, Catalan's feminine two included", () => {
    expect(["twelve", "doce", "dotze"].map((word) => numberWords.get(word))).toEqual([12, 12, 12]);
    expect(["two", "dos", "dues"].map((word) => numberWords.get(word))).toEqual([2, 2, 2]);
    expect(numberWords.get("dieciseis")).toBe(16);
    // Articles count nothing.
    expect(["un", "una", "uno"].some((word) => numberWords.has(word))).toBe(false);
  });

  it("keeps stop words per language", () => {
    expect(wordSet("stopWords", ["en"]).has("the")).toBe(true);
    expect(wordSet("stopWords", ["es"]).has("los")).toBe(true);
    expect(wordSet("stopWords", ["ca"]).has("amb")).toBe(true);
    expect(wordSet("stopWords", ["ca"]).has("the")).toBe(false);
    expect(wordSet("stopWords").has("mina")).toBe(false);
  });

  it("keeps name particles per language", () => {
    expect(wordSet("nameParticles", ["ca"])).toContain("dels");
    expect(wordSet("nameParticles", ["es"])).toContain("y");
    expect(wordSet("nameParticles", ["en"])).toContain("of");
    expect(foreignNameParticles).toContain("van");
  });

  it("keeps, as written, the words that open a sentence and the nouns capitalised as institutions", () => {
    expect(languageData.ca.sentenceStarters).toContain("després");
    expect(languageData.es.sentenceStarters).toContain("después");
    expect(languageData.en.sentenceStarters).toContain("the");
    expect(languageData.es.institutionNouns).toContain("policía");
    expect(languageData.ca.institutionNouns).toContain("policia");
  });

  it("keeps the words that tell Spanish from Catalan as written: Catalan's però is no Spanish pero", () => {
    expect(languageData.ca.markerWords).toContain("però");
    expect(languageData.es.markerWords).toContain("pero");
    expect(languageData.ca.markerWords.filter((word) => languageData.es.markerWords.includes(word))).toEqual([]);
  });

  it("splits folded words at apostrophes: d'agost holds a month", () => {
    expect(foldedWords("el 8 d'agost de 1965")).toEqual(["el", "d", "agost", "de"]);
  });
});

describe("names and places a sentence gives", () => {
  const placesIn = (sentence: string) => [...sentence.matchAll(namePatterns.locatedName)].map((match) => match[1]);
  const peopleIn = (sentence: string) => [...sentence.matchAll(namePatterns.personName)].map((match) => [match[1], match[2]]);

  const placesGiven: Record<DataLanguage, [string, string[]][]> = {
    en: [
      // Each word of a name after "de" is a place too: enough to tell a place is given.
      ["The coins were dredged from Port de la Calma in 1987.", ["Port", "Calma"]],
      ["She was born near the village of Sóller.", ["Sóller"]],
      ["the cargo of Roman amphorae", []],
    ],
    es: [
      ["Vivían junto al río Segrell.", ["Segrell"]],
      ["Venían desde Lleida cada verano.", ["Lleida"]],
      ["Trabajaban cerca de la mina de Sant Romà.", ["Sant"]],
    ],
    ca: [
      ["Vivien prop de Girona.", ["Girona"]],
      ["Van baixar des de la Vall d'en Bas.", ["Vall", "Bas"]],
      ["Era dins l'església de Sant Romà.", ["Sant"]],
    ],
  };

  it.each(byLanguage(placesGiven))("%s: a place after a word that locates: %s", (_language, sentence, places) => {
    expect(placesIn(sentence)).toEqual(places);
  });

  it("finds a person's two names, joined in Spanish and Catalan", () => {
    expect(peopleIn("The bronze is by Frederic Remington.")).toEqual([["Frederic", "Remington"]]);
    expect(peopleIn("Lo contó Pedro de Alba.")).toEqual([["Pedro", "Alba"]]);
    expect(peopleIn("Ho explica Mercè Roig i Puig.")).toEqual([["Mercè", "Roig"]]);
    // "y" joins Spanish names only; "and" none.
    expect(peopleIn("Ana y Luis")).toEqual([["Ana", "Luis"]]);
    expect(peopleIn("Anna and Louis")).toEqual([]);
  });

  it.each([
    ["The letters were hidden in the cellar.", true],
    ["Dormían en los barracones.", true],
    ["Hi havia una font al costat de la plaça.", true],
    ["Dormían bajo un puente.", true],
    ["The letters were hidden.", false],
    ["Era de la casa.", false],
  ])("a common noun placed by a word that locates: %s", (sentence, placed) => {
    expect(namePatterns.locativePhrase.test(sentence)).toBe(placed);
  });

  it("knows capitalised words that name nothing, in three languages, months and weekdays too", () => {
    expect(["the", "after", "cuando", "despues", "quan", "aquell", "march", "lunes", "dilluns"].every((word) => notNameWords.has(word))).toBe(true);
    expect(notNameWords.has("remington")).toBe(false);
  });

  it("keeps articles per language: definite (Catalan's elided l' too) and indefinite", () => {
    expect([languageData.en.definiteArticles, languageData.es.definiteArticles, languageData.ca.definiteArticles]).toEqual([
      ["the"],
      ["el", "la", "los", "las"],
      ["el", "la", "els", "les", "l'"],
    ]);
    expect(languageData.en.indefiniteArticles).toEqual(["a", "an"]);
    // Every one of them is an article of its language.
    for (const language of ["en", "es", "ca"] as const) {
      const { articles, definiteArticles, indefiniteArticles } = languageData[language];
      expect([...definiteArticles, ...indefiniteArticles].filter((word) => !articles.includes(word))).toEqual([]);
    }
  });

  it("knows after which words 'one' is a pronoun: only English writes its count one as a pronoun", () => {
    expect(wordSet("pronounDeterminers", ["en"]).has("which")).toBe(true);
    expect(wordSet("pronounDeterminers", ["es", "ca"]).size).toBe(0);
  });

  it("keeps function words per language, which name no vocabulary term", () => {
    expect(wordSet("functionWords", ["en"]).has("with")).toBe(true);
    expect(wordSet("functionWords", ["es"]).has("uno")).toBe(true);
    expect(wordSet("functionWords", ["ca"]).has("els")).toBe(true);
    expect(wordSet("functionWords", ["ca"]).has("with")).toBe(false);
  });
});

describe("foldAccents", () => {
  it("drops accents and keeps case and other marks of punctuation", () => {
    expect(foldAccents("Sant Romà, año, Mercè, l·l")).toBe("Sant Roma, ano, Merce, l·l");
    expect(foldAccents("ÀÉÎ")).toBe("AEI");
  });
});
