import { describe, expect, it } from "vitest";
import { createHashEmbedder } from "../embed/hash-embedder";
import type { ArchiveLanguage, TranslationBridge } from "../embed/translate";
import { verifyCitations } from "./verify-citations";
import {
  answerTypeBonus,
  askedInTheirWords,
  newWordShare,
  answersByFieldName,
  askedRoles,
  asksForType,
  createExtractiveGenerator,
  explanation,
  nameGroups,
  namesTitle,
  namedPlaces,
  answerOfKind,
  selectSentences,
  testimonyFirst,
  withDisagreement,
} from "./extractive-generator";
import { whyNotSaid } from "./answer-preface";
import type { SourcePassage } from "../../llm/generator";

const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };
const embedder = createHashEmbedder({ dimension: 256 });

async function answerOf(generator: ReturnType<typeof createExtractiveGenerator>, question: string, sources: SourcePassage[]): Promise<string> {
  let answer = "";
  for await (const piece of generator.generate({ question, sources, systemPrompt: "", maxTokens: 100, temperature: 0 })) answer += piece;
  return answer;
}

/** A bridge that records what it was asked and tags each text with its direction. */
function fakeBridge(): TranslationBridge & { calls: { texts: string[]; from: ArchiveLanguage; to: ArchiveLanguage }[] } {
  const calls: { texts: string[]; from: ArchiveLanguage; to: ArchiveLanguage }[] = [];
  return {
    calls,
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "fake" }),
    translateToEnglish: async (texts) => texts.map((text) => `EN ${text}`),
    translate: async (texts, from, to) => {
      calls.push({ texts, from, to });
      return texts.map((text) => `${from}→${to} ${text}`);
    },
  };
}

describe("extractive answerer", () => {
  it("keeps the best sentences within the window, without near-repeats", () => {
    const vector = (values: number[]) => Float32Array.from(values);
    const chosen = selectSentences(
      [
        { source: 1, text: "A", score: 0.9, vector: vector([1, 0]) },
        { source: 2, text: "A again", score: 0.88, vector: vector([1, 0]) },
        { source: 2, text: "B", score: 0.85, vector: vector([0, 1]) },
        { source: 3, text: "C", score: 0.5, vector: vector([0.7, 0.7]) },
      ],
      { maxSentences: 3, minScore: 0.2, window: 0.1 },
    );
    expect(chosen.map((sentence) => sentence.text)).toEqual(["A", "B"]);
  });

  it("quotes another record that gives a different date or count beside the chosen one, and nothing else", () => {
    const vector = (values: number[]) => Float32Array.from(values);
    const sentence = (source: number, text: string, score: number, values: number[], lexical = 0.5, held: string[] = []) => ({
      source,
      text,
      english: null,
      score,
      vector: vector(values),
      fitsType: true,
      lexical,
      held,
    });
    const essay = sentence(1, "The bells were taken down in 1964.", 0.97, [1, 0, 0]);
    const scored = [
      essay,
      sentence(1, "The essay's own other year, 1962.", 0.95, [0, 0, 1]),
      sentence(2, "The bells came down on 8 September 1965.", 0.89, [0, 1, 0]),
      sentence(3, "A third record far below, 1966.", 0.7, [0.5, 0.5, 0]),
    ];
    const recordOf = (source: number) => `record ${source}`;
    const when = withDisagreement("When were the bells lowered?", [essay], scored, recordOf);
    expect(when.map((one) => one.text)).toEqual([essay.text, "The bells came down on 8 September 1965."]);
    // The same year elsewhere agrees; a why-question has no value to disagree on; too far below is not shown.
    const agreeing = [essay, sentence(2, "They were lowered in 1964, said the sexton.", 0.9, [0, 1, 0])];
    expect(withDisagreement("When were the bells lowered?", [essay], agreeing, recordOf)).toEqual([essay]);
    expect(withDisagreement("Why were the bells lowered?", [essay], scored, recordOf)).toEqual([essay]);
    expect(withDisagreement("When were the bells lowered?", [essay], [essay, scored[3]!], recordOf)).toEqual([essay]);
    // A date of something else (it holds less of the question than the chosen sentence) is no disagreement.
    const mine = sentence(1, "The mine closed in 1993.", 0.9, [1, 0, 0], 0.8);
    const coins = sentence(2, "Coins were found near the mine between 1958 and 1990.", 0.86, [0, 1, 0], 0.4);
    expect(withDisagreement("When did the mine close?", [mine], [mine, coins], recordOf)).toEqual([mine]);
    expect(withDisagreement("When did the mine close?", [mine], [mine, { ...coins, lexical: 0.8 }], recordOf)).toHaveLength(2);
    // A testimony's bonus orders sources; it does not push a disagreeing description out of the window.
    const heard = { ...essay, score: 1.03, testimony: true };
    const summary = sentence(2, "The bells came down on 8 September 1965.", 0.875, [0, 1, 0]);
    expect(withDisagreement("When were the bells lowered?", [heard], [heard, summary], recordOf)).toEqual([heard, summary]);
    // Counts too.
    const count = sentence(1, "Two bells hung in the tower, 2 in all.", 0.9, [1, 0, 0]);
    const other = sentence(2, "There were 3 bells.", 0.85, [0, 1, 0]);
    expect(withDisagreement("How many bells were there?", [count], [count, other], recordOf)).toEqual([count, other]);
    // Another person's arrival is no disagreement about this one's; the record's title may name them.
    const gillian = sentence(1, "In June 1960.", 0.95, [1, 0, 0], 0.5, ["gillian", "port", "calma", "arrive"]);
    const carmen = sentence(2, "En 1952, recién casada con Miquel.", 0.9, [0, 1, 0], 0.6, ["port", "calma", "arrive"]);
    const arrival = "When did Gillian Hart arrive in Port de la Calma?";
    expect(withDisagreement(arrival, [gillian], [gillian, carmen], recordOf)).toEqual([gillian]);
    expect(withDisagreement(arrival, [gillian], [gillian, carmen], (source) => (source === 2 ? "Gillian Hart" : "When the tourists came"))).toEqual([
      gillian,
      carmen,
    ]);
    expect(withDisagreement(arrival, [gillian], [gillian, { ...carmen, held: [...carmen.held, "gillian"] }], recordOf)).toEqual([
      gillian,
      { ...carmen, held: [...carmen.held, "gillian"] },
    ]);
  });

  it("answers only with sentences from the sources, each followed by its number", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: 0 });
    const sources = [
      { number: 1, title: "Diary", text: "The weather was fine. The lighthouse lamp burned whale oil until 1902." },
      { number: 2, title: "Ledger", text: "The mill ground wheat for the valley." },
    ];
    const answer = await answerOf(generator, "What did the lighthouse lamp burn?", sources);
    expect(answer.startsWith("The lighthouse lamp burned whale oil until 1902. [1]")).toBe(true);
    for (const sentence of answer.split(/ \[\d+\] ?/).filter(Boolean)) {
      expect(sources.some((source) => source.text.includes(sentence))).toBe(true);
    }
  });

  it("never answers with the interviewer's turn, a question or a statement, but with the narrator's answer to it", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: -1, maxSentences: 1 });
    const transcript: SourcePassage = {
      number: 1,
      title: "Seeing the roofs again",
      form: "transcript",
      interviewers: ["Helen Ashworth"],
      text: [
        "Helen Ashworth: Montserrat, your family moved to Vilanova del Segrell and then you left for England.",
        "Montserrat Farré Llop: We came in the spring of 1966, before the water.",
        "Helen Ashworth: Why did Montserrat leave for England?",
        "Montserrat Farré Llop: In 1969 a nun from Lleida found work for girls in a Manchester hospital.",
      ].join("\n"),
    };
    // The interviewer's words are nearest the question; the narrator's answer is what is quoted.
    expect(await answerOf(generator, "Why did Montserrat leave for England?", [transcript])).toBe(
      "In 1969 a nun from Lleida found work for girls in a Manchester hospital. [1]",
    );
  });

  it("reads a narrator's answer after the interviewer's question it answers, also across two passages", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: -1, maxSentences: 1 });
    const quay: SourcePassage = { number: 2, title: "Harbour notes", form: "text", text: "Most of the nets on the quay were mended by the women." };
    const asked = "Lucía Ferrer Bosch: What damaged the nets most?";
    const answer = "Carmen Roldán Ortiz: The dolphins, especially. They came in to eat the sardines.";
    const oneTurn: SourcePassage = {
      number: 1,
      title: "Remendar redes",
      form: "transcript",
      interviewers: ["Lucía Ferrer Bosch"],
      text: `${asked}\n${answer}`,
    };
    expect(await answerOf(generator, "What damaged the nets most?", [oneTurn, quay])).toBe("The dolphins, especially. [1]");
    // The question ends one passage and the answer opens the next, which continues it.
    const endsOnQuestion: SourcePassage = { ...oneTurn, text: `Carmen Roldán Ortiz: We were paid by the piece.\n${asked}` };
    const continuation: SourcePassage = {
      number: 3,
      title: "Remendar redes",
      form: "transcript",
      interviewers: ["Lucía Ferrer Bosch"],
      text: answer,
      continues: 1,
    };
    expect(await answerOf(generator, "What damaged the nets most?", [endsOnQuestion, quay, continuation])).toBe("The dolphins, especially. [3]");
  });

  it("passes on the closeness of the interviewer's question, not of the words that lead up to it", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: -1, maxSentences: 1 });
    const turns = (number: number, text: string): SourcePassage => ({
      number,
      title: "The auction",
      form: "transcript",
      interviewers: ["Lucía Ferrer Bosch"],
      text,
    });
    // The preamble names the narrator and her trade; the question is about the auction.
    const scene = turns(
      1,
      "Lucía Ferrer Bosch: Dolores Martínez, you gave up salting sardines. How was the auction?\nRamón Soler Pujol: It began at five in the afternoon, when the boats came in.",
    );
    const reason = turns(2, "Dolores Martínez Sáez: The hotels paid more for fresh sardines than the canners did.");
    expect(await answerOf(generator, "Why did Dolores Martínez give up salting sardines?", [scene, reason])).toBe(
      "The hotels paid more for fresh sardines than the canners did. [2]",
    );
  });

  it("hears the asker's question in the interviewer's, in the interview's language", async () => {
    // The bridge puts the asker's question into Catalan as Apertium would, word for word.
    const bridge = {
      ...fakeBridge(),
      translate: async (texts: string[], _from: ArchiveLanguage, to: ArchiveLanguage) =>
        to === "ca" ? texts.map(() => "Com era els timbres d'església duts al poble nou?") : null,
    };
    const asked = [
      { index: 0, text: "Com les van portar al poble nou?", language: "ca" },
      { index: 1, text: "Hi havia molta gent al poble?", language: "ca" },
      { index: 2, text: "How did the bells come down?", language: "en" },
    ];
    const found = await askedInTheirWords(asked, "How were the church bells taken to the new village?", "en", bridge);
    // "portar, poble, nou": two of three are the asker's ("van" is an auxiliary, no content word).
    expect([...found.keys()]).toEqual([0]);
    expect(found.get(0)).toBeGreaterThan(0.5);
    // Without the bridge nothing is matched across languages.
    expect((await askedInTheirWords(asked, "How were the church bells taken to the new village?", "en", { ...bridge, translate: async () => null })).size).toBe(
      0,
    );
    // In the asker's own language the words are compared as they are.
    const english = await askedInTheirWords(asked.slice(1), "How did the bells of the church come down?", "en", bridge);
    expect([...english.keys()]).toEqual([2]);
  });

  it("never answers how or why with a bare catalogue field, though it may answer where with one", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: -1, maxSentences: 1 });
    const sources: SourcePassage[] = [
      { number: 1, title: "Coarse ware plate", form: "fields", text: "Port de la Calma, harbour dredging 1987, trench D" },
      { number: 2, title: "El calafat", form: "text", text: "The harbour was dredged with a bucket dredger that pulled up the mud of the old quay." },
    ];
    expect(await answerOf(generator, "How was the harbour dredging done at Port de la Calma in 1987?", sources)).toBe(
      "The harbour was dredged with a bucket dredger that pulled up the mud of the old quay. [2]",
    );
    const unrelated: SourcePassage = { number: 2, title: "Ledger", form: "text", text: "The mill ground wheat for the valley every autumn." };
    expect(await answerOf(generator, "Where was the plate found, in the harbour dredging of 1987?", [sources[0]!, unrelated])).toBe(
      "Port de la Calma, harbour dredging 1987, trench D [1]",
    );
  });

  it("gives each quotation's machine translation into the question's language, marked and not cited", async () => {
    const bridge = fakeBridge();
    const detect = async (text: string) => ({ language: text.startsWith("¿") ? "es" : "en", confidence: 1 });
    const generator = createExtractiveGenerator({ embedder, prepare: { detect, bridge }, minScore: -1, maxSentences: 1 });
    const english: SourcePassage = { number: 1, title: "Diary", language: "en", text: "The lighthouse lamp burned whale oil until 1902." };
    const answer = await answerOf(generator, "¿Qué quemaba la lamp del lighthouse?", [english]);
    expect(answer).toBe(
      "The lighthouse lamp burned whale oil until 1902. [1] (traducción automática del inglés: en→es The lighthouse lamp burned whale oil until 1902.)",
    );
    expect(bridge.calls).toEqual([{ texts: ["The lighthouse lamp burned whale oil until 1902."], from: "en", to: "es" }]);
    // The quotation is verified against the source; the translation beside it is not a quotation.
    expect(verifyCitations(answer, [{ number: 1, text: english.text }], { segmentsAreQuotes: true })).toMatchObject({ cited: [1], dropped: [] });

    // An English question reads a Catalan quotation translated from its own words (marked, so a word the translator did not know shows),
    // not the passage's aligned English.
    const catalan: SourcePassage = {
      number: 1,
      title: "El calafat",
      language: "ca",
      text: "L'últim llaüt de fusta el vam acabar el 1968.",
      translation: "The last wooden boat we finished in 1968.",
    };
    const fromCatalan = await answerOf(generator, "When was the last wooden boat finished?", [catalan]);
    expect(fromCatalan).toBe(
      "L'últim llaüt de fusta el vam acabar el 1968. [1] (machine translation from Catalan: ca→en L'últim llaüt de fusta el vam acabar el 1968.)",
    );
    expect(bridge.calls).toHaveLength(2);
    // The same language needs no translation.
    expect(await answerOf(generator, "What did the lighthouse lamp burn?", [english])).toBe("The lighthouse lamp burned whale oil until 1902. [1]");
  });
});

describe("extractive answers quoting a source's own bracketed numbers", () => {
  it("writes them literal, so only the number the answerer appends is a citation, and the quotation still verifies", async () => {
    const bridge = fakeBridge();
    const detect = async (text: string) => ({ language: text.startsWith("¿") ? "es" : "en", confidence: 1 });
    const generator = createExtractiveGenerator({ embedder, prepare: { detect, bridge }, minScore: -1, maxSentences: 1 });
    const footnoted: SourcePassage = { number: 2, title: "Harbour report", language: "en", text: "The lighthouse lamp burned whale oil [1] until 1902 [3]." };
    const other: SourcePassage = { number: 3, title: "Ledger", language: "en", text: "The mill ground wheat for the valley." };
    const answer = await answerOf(generator, "What did the lighthouse lamp burn?", [footnoted, other]);
    expect(answer).toBe("The lighthouse lamp burned whale oil ［1］ until 1902 ［3］. [2]");
    expect(verifyCitations(answer, [footnoted, other], { segmentsAreQuotes: true })).toEqual({ text: answer, cited: [2], dropped: [] });
    // Its machine translation copies the numbers: literal there too.
    const translated = await answerOf(generator, "¿Qué quemaba la lamp del lighthouse?", [footnoted, other]);
    expect(translated).toBe(
      "The lighthouse lamp burned whale oil ［1］ until 1902 ［3］. [2] (traducción automática del inglés: en→es The lighthouse lamp burned whale oil ［1］ until 1902 ［3］.)",
    );
  });
});

describe("the kind of answer a question asks for", () => {
  it("favours, for how many, a count of the thing asked about over any number", () => {
    const question = "How many finds were recorded in the 2022 survey?";
    const terms = ["finds", "recorded", "2022", "survey"];
    expect(answerTypeBonus(question, "The church, 61 of the 74 houses and the mill were documented, and 1,284 finds were recorded.", terms)).toBeGreaterThan(0);
    expect(answerTypeBonus(question, "Late Antique oil lamp from Sant Romà de Vall (AD 350–400).", terms)).toBe(0);
    // A year before the asked word is a date, not a count.
    expect(answerTypeBonus(question, "The 1989 finds were collected by visitors.", terms)).toBe(0);
    expect(answerTypeBonus(question, "Some 1.284 finds were recorded.", terms)).toBeGreaterThan(0);
    expect(
      answerTypeBonus("¿Cuántas mujeres empleaba la fábrica?", "Durante la costera trabajaban en ella ciento cuarenta mujeres.", ["mujeres", "fabrica"]),
    ).toBeGreaterThan(0);
    // Without the question's words, any number will do; a date for when.
    expect(answerTypeBonus(question, "It weighs 4.41 grams.")).toBeGreaterThan(0);
    expect(answerTypeBonus("When was the boatyard demolished?", "The boatyard was demolished in 1987.")).toBeGreaterThan(0);
    expect(answerTypeBonus("Why was the boatyard demolished?", "The boatyard was demolished in 1987.")).toBe(0);
    // "The one who visits" is a pronoun, no count of visitors; "one boat" still counts.
    const tourists = ["tourists", "visited", "port", "calma"];
    expect(
      answerTypeBonus("How many tourists visited Port de la Calma?", "The one who visits today Port de la Calma finds a marina with 420 moorings.", tourists),
    ).toBe(0);
    expect(answerTypeBonus("How many boats were left?", "Only one boat was left.", ["boats", "left"])).toBeGreaterThan(0);
    expect(answerTypeBonus("How long was it?", "It was the one that lasted.", [])).toBe(0);
    // A name asked for is one the question does not hold, inside the sentence.
    expect(answerTypeBonus("Com es deia la mula?", "Només ens vam quedar la mula, la Mora.", ["mula"])).toBeGreaterThan(0);
    expect(answerTypeBonus("¿Cómo se llamaba el patrón de Pere Vidal?", "El calafate Pere Vidal habló con el patrón.", ["patron", "pere", "vidal"])).toBe(0);
    // A price is no duration, and "the fifties" asks no duration; "how long" does.
    const mended = "Remendó redes en el muelle durante veintiséis años.";
    expect(answerTypeBonus("Quin preu tenia la sardina als anys cinquanta?", mended)).toBe(0);
    expect(answerTypeBonus("Quin preu tenia la sardina als anys cinquanta?", "La caixa de sardina es pagava a quaranta pessetes.")).toBeGreaterThan(0);
    expect(answerTypeBonus("How long did she mend nets?", "She mended nets for twenty-six years.")).toBeGreaterThan(0);
  });

  it("prefers, for where, a place the question does not name and, for who, a person it does not name", () => {
    const terms = ["hoard", "republican", "denarii", "found"];
    const where = "Where was the hoard of Republican denarii found?";
    expect(answerTypeBonus(where, "It covers a hoard of 37 Republican denarii dredged from Port de la Calma in 1972.", terms)).toBeGreaterThan(0);
    expect(answerTypeBonus(where, "After cleaning, the mass proved to contain 37 Roman Republican denarii.", terms)).toBe(0);
    // A month is no place, and a place the question already names answers nothing new.
    expect(answerTypeBonus(where, "The hoard was found in May.", terms)).toBe(0);
    expect(answerTypeBonus("¿Dónde se encontró la moneda de Adra?", "La moneda se encontró en Adra.", ["encontro", "moneda", "adra"])).toBe(0);
    expect(answerTypeBonus("¿Dónde dormían los peones?", "Dormíamos en los barracones, junto al río Segrell.", ["dormian", "peones"])).toBeGreaterThan(0);
    const who = "Who made the bronze sculpture The Bronco Buster?";
    const whoTerms = ["made", "bronze", "sculpture", "bronco", "buster"];
    expect(answerTypeBonus(who, "It was modelled by Frederic Remington in his studio.", whoTerms)).toBeGreaterThan(0);
    expect(answerTypeBonus(who, "The Bronco Buster is a bronze sculpture.", whoTerms)).toBe(0);
    expect(answerTypeBonus(who, "In May the sculpture was cast in bronze.", whoTerms)).toBe(0);
  });

  it("takes any amount but no year for a measure", () => {
    expect(answerTypeBonus("How much does the solidus weigh?", "It weighs 4.41 grams.", ["solidus", "weigh"])).toBeGreaterThan(0);
    expect(answerTypeBonus("How low did the reservoir fall in 2005?", "In the summer of 2005 I walked along our street.", ["reservoir", "fall", "2005"])).toBe(
      0,
    );
    expect(
      answerTypeBonus("How low did the reservoir fall in 2005?", "El pantano estaba al dieciocho por ciento.", ["reservoir", "fall", "2005"]),
    ).toBeGreaterThan(0);
  });

  it("reads the question words, months and numbers of all three languages (lib/language)", () => {
    // "¿En qué año…?" and "En quin any…?" ask when; a Catalan month answers them.
    expect(answerTypeBonus("¿En qué año se inundó el pueblo?", "El pueblo se inundó en 1966.")).toBeGreaterThan(0);
    expect(answerTypeBonus("En quin any van baixar les campanes?", "Les van baixar el 8 d'agost.")).toBeGreaterThan(0);
    expect(answerTypeBonus("En quin any van baixar les campanes?", "Les van baixar de nit.")).toBe(0);
    // Catalan's feminine two is a count.
    expect(answerTypeBonus("Quantes campanes van baixar?", "En van baixar dues, la Grossa i la Xica.", [])).toBeGreaterThan(0);
    // English "On the night…" is no Catalan "on" (where): no place is asked for.
    expect(asksForType("On the night of the flood, who rang the bells?")).toBe(false);
    expect(answerTypeBonus("On the night of the flood, who rang the bells?", "They were rung from Port de la Calma.")).toBe(0);
    expect(asksForType("On vivia la família Farré?")).toBe(true);
  });

  it("knows which questions ask for a kind of thing, and which records a question names", () => {
    for (const question of [
      "When did the mill close?",
      "How many boats were built?",
      "¿Dónde dormían los peones?",
      "Qui va pintar el retaule?",
      "How much does it weigh?",
    ]) {
      expect(asksForType(question)).toBe(true);
    }
    for (const question of ["Why did she leave?", "What broke the nets?", "On what grounds was it refused?"]) expect(asksForType(question)).toBe(false);
    expect(
      namesTitle("Bronze Follis of Justinian I, Antioch, AD 539 - AD 540. 1984.61.631", [
        "mint",
        "struck",
        "bronze",
        "follis",
        "justinian",
        "coin",
        "collection",
      ]),
    ).toBe(true);
    expect(namesTitle("The Bronco Buster", ["made", "bronze", "sculpture", "bronco", "buster"])).toBe(true);
    // One shared word names no record.
    expect(namesTitle("Seeing the roofs again", ["roofs", "drought"])).toBe(false);
    expect(namesTitle("Bronze Follis of Constans II, Constantinople, 641 - 642", ["mint", "struck", "bronze", "justinian"])).toBe(false);
  });

  it("says nothing to a question after a kind of thing when the sentences it would quote give none", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: 0 });
    const sources = [
      { number: 1, title: "Sant Romà de Vall", text: "The village was flooded in 1966 by the reservoir and its bell tower reappears in droughts." },
    ];
    expect(await answerOf(generator, "Who photographed the flooding of the village in 1966?", sources)).toBe("");
    expect(await answerOf(generator, "When was the village flooded?", sources)).toContain("[1]");
    // A place without a proper name still answers where.
    const cellar = [{ number: 1, title: "Report", text: "The smugglers hid the tobacco in the cellar under the chapel." }];
    expect(await answerOf(generator, "Where did the smugglers hide the tobacco?", cellar)).toContain("[1]");
    const lenient = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: 0, requireAnswerType: false });
    expect(await answerOf(lenient, "Who photographed the flooding of the village in 1966?", sources)).toContain("[1]");
  });

  it("quotes the best sentence of the kind asked for when the best sentences give none, if it is near them and holds a question word", () => {
    const sentence = (text: string, score: number, fitsType: boolean, lexical: number) => ({ text, score, fitsType, lexical });
    const narrator = sentence("In the summer of 2005 I went alone and walked along our street in the dry mud.", 0.85, false, 0.78);
    const report = sentence("This report describes the survey carried out by eleven archaeologists.", 0.74, true, 0);
    const level = sentence("Finally, in the summer of 2005 the level reached 783 metres.", 0.65, true, 0.24);
    const far = sentence("The level reached 790 metres in 2005.", 0.55, true, 0.5);
    // The report gives a number but none of the question's words; the level does, within the window.
    expect(answerOfKind([narrator, report, level, far])).toBe(level);
    // Past the window of the best sentence, nothing of the kind is near enough.
    expect(answerOfKind([narrator, report, far])).toBeNull();
    expect(answerOfKind([narrator])).toBeNull();
    expect(answerOfKind([])).toBeNull();
    // Never below the floor every quoted sentence clears.
    expect(answerOfKind([narrator, report, level], 0.7)).toBeNull();
  });

  it("answers a question that names a year or a decade only with a sentence of that time", async () => {
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: 0 });
    const later = [{ number: 1, title: "Below the Waterline", text: "In October 2022 the water level of the reservoir fell to 771 metres." }];
    expect(await answerOf(generator, "How low did the reservoir fall in the drought of 2005?", later)).toBe("");
    const then = [{ number: 1, title: "Below the Waterline", text: "In the summer of 2005 the water level of the reservoir fell to 783 metres." }];
    expect(await answerOf(generator, "How low did the reservoir fall in the drought of 2005?", then)).toContain("[1]");
    // A decade holds its years; a sentence without a year is of no other time.
    expect(await answerOf(generator, "How low did the reservoir fall in the 2000s?", then)).toContain("[1]");
    const undated = [{ number: 1, title: "Below the Waterline", text: "The water level of the reservoir fell to 783 metres that summer." }];
    expect(await answerOf(generator, "How low did the reservoir fall in the drought of 2005?", undated)).toContain("[1]");
  });

  it("answers a who-question after a role only with a sentence that speaks of that role", async () => {
    expect(
      askedRoles("Qui era l'alcalde de Sant Romà quan van arribar les expropiacions?", "Who was the mayor of Sant Romà when the expropriations arrived?"),
    ).toEqual(["alcalde", "mayor"]);
    expect(askedRoles("¿Quién era el primer médico de la mina?")).toEqual(["medico"]);
    expect(askedRoles("Who photographed the flooding?")).toEqual(["photographed"]);
    expect(askedRoles("Qui va trobar el plat de pisa blava?", "Who found the blue earthenware dish?")).toEqual(["trobar", "found"]);
    const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: 0 });
    const remembers = [{ number: 1, title: "The last harvest", text: "Josep Farré remembers the expropriation notices of the hydroelectric company in 1961." }];
    expect(await answerOf(generator, "Who was the mayor when the expropriation notices came?", remembers)).toBe("");
    const mayor = [{ number: 1, title: "The last harvest", text: "The mayor was Joan Puig, who read the expropriation notices aloud in the square." }];
    expect(await answerOf(generator, "Who was the mayor when the expropriation notices came?", mayor)).toContain("[1]");
    // Without a role, any person the question does not name answers who.
    expect(await answerOf(generator, "Who read the expropriation notices?", mayor)).toContain("[1]");
    // An action, as a role: the person named must be the one who did it, and a place is nobody.
    const moved = [
      { number: 1, title: "The parish", text: "The altarpiece was removed before the flooding and is now in the church of Vilanova del Segrell." },
    ];
    expect(await answerOf(generator, "Who painted the altarpiece of the church?", moved)).toBe("");
    const painted = [{ number: 1, title: "The parish", text: "The altarpiece was painted by Joan Puig Serra in 1611." }];
    expect(await answerOf(generator, "Who painted the altarpiece of the church?", painted)).toContain("[1]");
  });

  it("reads a catalogue field the question asks for by its name", () => {
    expect(answersByFieldName("Metal: bronze; Denomination: Follis; Mint: Antioch; Date: 539 – 540", ["mint", "struck", "bronze", "follis"])).toBe(true);
    expect(answersByFieldName("Artist: Frederic Remington; Year made: 1895", ["made", "bronze", "sculpture"])).toBe(true);
    // The field's value only repeats the question: nothing is answered.
    expect(answersByFieldName("Metal: bronze; Denomination: Follis", ["metal", "bronze", "follis"])).toBe(false);
    expect(answersByFieldName("Metal: bronze; Denomination: Follis", ["mint", "struck"])).toBe(false);
    expect(answersByFieldName("Typology: jug; Findspot: Sant Romà de Vall, drawdown survey 2017", ["finds", "recorded", "survey"])).toBe(false);
  });
});

describe("answers a scholar can cite", () => {
  const generator = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: -1 });

  it("reads a locating word inside a name as part of the name, not as a place the answer need not speak of", async () => {
    expect([...namedPlaces("¿Cómo devolvió la Cofradía de Pescadores de San Pedro el préstamo para la lonja de Port de la Calma?")]).toEqual(["port", "calma"]);
    expect([...namedPlaces("Com va morir el sagristà de Sant Romà de Vall?")]).toEqual(["sant", "roma", "vall"]);
    expect([...namedPlaces("Why did Carmen Roldán leave Adra?")]).toEqual([]);
    // The confraternity's name is all the passage shares with the question: it says nothing of the loan.
    const sources: SourcePassage[] = [
      {
        number: 1,
        title: "La lonja",
        text: "Los libros de actas y las cuentas anuales de la Cofradía de Pescadores de San Pedro se conservan hoy, encuadernados en piel, en el archivo municipal del ayuntamiento.",
        language: "es",
      },
    ];
    expect(await answerOf(generator, "¿Cómo devolvió la Cofradía de Pescadores de San Pedro el préstamo?", sources)).toBe("");
  });

  it("quotes the testimony first and a description only when it adds something", async () => {
    const sentence = (source: number, text: string, testimony: boolean, held: string[], fitsType = true) => ({
      source,
      text,
      english: null,
      testimony,
      held,
      fitsType,
    });
    const heard = sentence(1, "We finished the last wooden boat in 1968.", true, ["last", "wooden", "boat"]);
    const same = sentence(2, "He built the last wooden boat in 1968.", false, ["last", "wooden", "boat", "pere"]);
    const more = sentence(3, "The boatyard was demolished in 1974.", false, ["boatyard"]);
    const question = "When did Pere Vidal build his last wooden boat?";
    expect(testimonyFirst(question, [same, heard, more]).map((one) => one.source)).toEqual([1, 3]);
    // Without testimony the descriptions stand as they are.
    expect(testimonyFirst(question, [same, more]).map((one) => one.source)).toEqual([2, 3]);
    // A description that gives the kind of thing asked, when no testimony does, is kept.
    const vague = { ...heard, fitsType: false, text: "We finished the last wooden boat." };
    expect(testimonyFirst(question, [vague, { ...same, held: ["last"] }]).map((one) => one.source)).toEqual([1, 2]);
  });

  it("answers why with the sentence that gives the cause after the one that tells what happened, sharing none of the question's words", async () => {
    const survey: SourcePassage = {
      number: 1,
      title: "Below the Waterline",
      form: "text",
      text: "Everyday belongings were found in almost every house of Sant Romà in 2022. They were recorded in place and left where they lay, at the request of the former residents.",
    };
    const question = "Why were the everyday belongings of Sant Romà not taken away?";
    expect(await answerOf(generator, question, [survey])).toBe(
      "They were recorded in place and left where they lay, at the request of the former residents. [1]",
    );
    // A dated sentence does not lead a why-answer; the cause after it in another paragraph explains something else.
    const apart = { ...survey, text: survey.text.replace("2022. They", "2022.\n\nThey") };
    expect(await answerOf(generator, question, [apart])).not.toContain("at the request of");
  });

  it("leaves out a catalogue line that gives not the kind of thing asked when a sentence gives it", async () => {
    const sources: SourcePassage[] = [
      { number: 1, title: "La lonja y las mujeres", form: "fields", text: "Authors: Lucía Ferrer Navarro\nSubjects: net menders, fish sellers" },
      { number: 2, title: "Lucía Ferrer Bosch", form: "text", text: "Lucía Ferrer mended nets with the net menders on the quay of Port de la Calma." },
    ];
    const wide = createExtractiveGenerator({ embedder, prepare: noBridge, minScore: -1, window: 10 });
    const answer = await answerOf(wide, "Where did Lucía Ferrer mend nets?", sources);
    expect(answer).toContain("on the quay of Port de la Calma. [2]");
    expect(answer).not.toContain("[1]");
  });

  it("ranks a recording's sentence above the biography that repeats it", async () => {
    const sources: SourcePassage[] = [
      { number: 1, title: "Pere Vidal i Roig", form: "text", text: "Pere Vidal built the last wooden boat of the yard in 1968.", testimony: false },
      { number: 2, title: "El calafat", form: "transcript", text: "Pere Vidal: We built the last wooden boat of the yard in 1968.", testimony: true },
    ];
    expect(await answerOf(generator, "When did Pere Vidal build the last wooden boat of the yard?", sources)).toBe(
      "We built the last wooden boat of the yard in 1968. [2]",
    );
  });

  it("answers why from the passage that explains, its sentences in order, and never with a date alone", async () => {
    const sources: SourcePassage[] = [
      { number: 1, title: "La fábrica", form: "text", text: "The canning factory closed in 1978 and its sheds were demolished in 1996." },
      {
        number: 2,
        title: "Seeing the roofs again",
        form: "transcript",
        interviewers: ["Helen Ashworth"],
        text: [
          "Helen Ashworth: Why did you leave for England?",
          "Montserrat Farré: In 1969 a nun from Lleida found work for girls in a Manchester hospital. There was nothing for me in Vilanova except the sawmill. I trained as a nurse and I stayed.",
        ].join("\n"),
      },
    ];
    expect(await answerOf(generator, "Why did Montserrat Farré leave for England?", sources)).toBe(
      "In 1969 a nun from Lleida found work for girls in a Manchester hospital. [2] There was nothing for me in Vilanova except the sawmill. [2] I trained as a nurse and I stayed. [2]",
    );
    expect(await answerOf(generator, "Why did the canning factory close?", [sources[0]!])).toBe("");
    const because: SourcePassage = {
      number: 1,
      title: "La fábrica",
      form: "text",
      text: "The canning factory closed because the anchovy catches failed. Its sheds were demolished in 1996.",
    };
    expect(await answerOf(generator, "Why did the canning factory close?", [because])).toMatch(
      /^The canning factory closed because the anchovy catches failed\. \[1\]/,
    );
    // Sentences that lead to the closing and date it, but give no cause: what the records say, labelled.
    const when: SourcePassage = {
      number: 1,
      title: "La fábrica",
      form: "text",
      text: "The canning factory employed 140 women who salted anchovies. The canning factory closed in 1978.",
    };
    const labelled = await answerOf(generator, "Why did the canning factory close?", [when]);
    expect(labelled.startsWith(`${whyNotSaid.en} `)).toBe(true);
    expect(labelled).toContain("The canning factory closed in 1978. [1]");
    // The preface is no quotation: every citation after it still verifies.
    expect(verifyCitations(labelled, [{ number: 1, text: when.text }], { segmentsAreQuotes: true })).toMatchObject({ text: labelled, cited: [1], dropped: [] });
    // In the asker's language, before the quotations and their translations.
    const detect = async (text: string) => ({ language: text.startsWith("¿") ? "es" : "en", confidence: 1 });
    const spanish = createExtractiveGenerator({ embedder, prepare: { detect, bridge: fakeBridge() } });
    expect(await answerOf(spanish, "¿Por qué closed la canning factory?", [{ ...when, language: "en" }])).toMatch(
      new RegExp(`^${whyNotSaid.es} .*The canning factory closed in 1978\\. \\[1\\] \\(traducción automática del inglés: en→es`),
    );
    // A cause, or an answer with no date in it, is not labelled.
    expect(
      await answerOf(generator, "Why did the canning factory close?", [{ ...when, text: `${when.text} It closed because the catches failed.` }]),
    ).not.toContain(whyNotSaid.en);
    expect(await answerOf(generator, "How did the canning factory close?", [when])).not.toContain(whyNotSaid.en);
  });

  it("leads a why-answer with the first sentence that explains, then those after it in the same turn", () => {
    const at = (line: number, score: number, explains: boolean, dated = true) => ({ source: 1, line, score, explains, dated });
    const turn = [at(0, 0.9, false), at(1, 0.5, true), at(1, 0.7, true), at(1, 0.4, true), at(1, 0.3, true), at(2, 0.8, true)];
    expect(explanation(turn, true, { minScore: 0.2 })).toEqual([turn[5]]);
    // At most answerSettings.explanationSentences (4) sentences of the turn.
    expect(explanation([...turn.slice(0, 5), at(1, 0.35, true)], true, { minScore: 0.2 })).toEqual([turn[1], turn[2], turn[3], turn[4]]);
    expect(explanation([at(0, 0.9, false)], true)).toEqual([]);
    expect(explanation([at(0, 0.9, false)], false)).toEqual([at(0, 0.9, false)]);
    // The sentence before the best is its context; a testimony within the window leads.
    const context = [at(0, 0.5, false, false), at(0, 0.7, false, false), at(0, 0.6, false, false), at(0, 0.5, false, false), at(0, 0.4, false, false)];
    expect(explanation(context, false, { minScore: 0.2 })).toEqual(context.slice(0, 4));
    const heard = { ...at(3, 0.65, false, false), testimony: true };
    expect(explanation([...context, heard], false, { minScore: 0.2, window: 0.08 })).toEqual([heard]);
    // Context comes from every sentence, also one too weak (or not about the subject) to answer alone.
    const weak = at(0, 0.1, false, false);
    expect(explanation([context[1]!], false, { minScore: 0.2 }, [weak, context[1]!])).toEqual([weak, context[1]]);
    // A sentence without a date may lead a why-answer though it names no cause: only a when-answer may not.
    expect(explanation([at(0, 0.9, false), at(1, 0.6, false, false)], true)).toEqual([at(1, 0.6, false, false)]);
    // A sentence that restates the question never leads a why- or how-answer, however close it comes.
    const restating = { ...at(0, 0.95, false, false), restates: true };
    const manner = at(1, 0.6, false, false);
    expect(explanation([restating, manner], false, { minScore: 0.2 })).toEqual([manner]);
    expect(explanation([restating], false, { minScore: 0.2 })).toEqual([]);
    // A sentence that shares no word with the question and gives no cause is near it in meaning only:
    // "Los salarios eran bajos" does not lead "Why did the canning factory close?", though it may follow.
    const unrelated = { ...at(4, 0.34, false, false), lexical: 0 };
    expect(explanation([unrelated], true, { minScore: 0.2 })).toEqual([]);
    expect(explanation([unrelated], false, { minScore: 0.2 })).toEqual([]);
    const cause = { ...at(4, 0.3, true, false), lexical: 0 };
    expect(explanation([cause, unrelated], true, { minScore: 0.2 })).toEqual([cause, unrelated]);
    const worded = { ...at(4, 0.3, false, false), lexical: 0.2 };
    expect(explanation([unrelated, worded], false, { minScore: 0.2 })).toEqual([unrelated, worded]);
  });

  it("tells a sentence that restates the question from one that says more", () => {
    const terms = ["carmen", "rent", "rooms", "german", "tourists"];
    expect(newWordShare("In summer Carmen rented rooms to German tourists.", terms)).toBeCloseTo(1 / 6);
    expect(newWordShare("Carmen moved her family into the kitchen and let three bedrooms to Germans.", terms)).toBeGreaterThan(0.7);
    expect(newWordShare("", terms)).toBe(1);
  });

  it("refuses when the person the question names is only the interviewer", async () => {
    const sources: SourcePassage[] = [
      {
        number: 1,
        title: "Remendar redes en el muelle",
        form: "transcript",
        interviewers: ["Lucía Ferrer"],
        text: ["Lucía Ferrer: Where did you learn to mend nets?", "Carmen Roldán: I learned to mend nets on the quay at Adra, from my mother."].join("\n"),
      },
    ];
    expect(await answerOf(generator, "Where did Lucía Ferrer learn to mend nets?", sources)).toBe("");
    expect(await answerOf(generator, "Where did Carmen Roldán learn to mend nets?", sources)).toBe(
      "I learned to mend nets on the quay at Adra, from my mother. [1]",
    );
    // Another person who shares two of her three names is not her.
    const namesake: SourcePassage = { number: 1, title: "La lonja", form: "text", text: "Lucía Ferrer Navarro stopped mending nets on the quay in 1978." };
    expect(await answerOf(generator, "When did Lucía Ferrer Bosch stop mending nets?", [namesake])).toBe("");
    expect(nameGroups("Per què el pare de la Dolors Bosch i Arnau no va voler mirar enrere?", ["dolors", "bosch", "arnau"])).toEqual([
      ["dolors", "bosch"],
      ["arnau"],
    ]);
    // A sentence that holds only the name says nothing of what is asked about her.
    const biography: SourcePassage = { number: 1, title: "Lucía Ferrer", form: "text", text: "Lucía Ferrer is an ethnographer from Valencia." };
    expect(await answerOf(generator, "Where did Lucía Ferrer learn to mend nets?", [biography])).toBe("");
  });
});
