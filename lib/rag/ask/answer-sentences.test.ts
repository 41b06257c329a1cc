import { describe, expect, it } from "vitest";
import { asksForExplanation, mayAnswer, passageForm, questionTerms, sourceSentences } from "./answer-sentences";
import { joinLines, lineGlues } from "./unwrap-lines";

const interview = [
  "Helen Ashworth: Your family moved to Vilanova del Segrell in the spring.",
  "Montserrat Farré Llop: In the spring of 1966, before the water came.",
  "Helen Ashworth: Why did you leave for England?",
  "Montserrat Farré Llop: In 1969 a nun from Lleida found work for girls in a Manchester hospital. I trained as a nurse.",
].join("\n");

describe("a source's sentences", () => {
  it("tells the interviewer's turns, whether statements or questions, from the narrator's answers", () => {
    const sentences = sourceSentences({ number: 2, title: "Seeing the roofs again", text: interview, form: "transcript", interviewers: ["Helen Ashworth"] });
    expect(sentences.map((sentence) => [sentence.role, sentence.speaker, sentence.text])).toEqual([
      ["interviewer", "Helen Ashworth", "Your family moved to Vilanova del Segrell in the spring."],
      ["statement", "Montserrat Farré Llop", "In the spring of 1966, before the water came."],
      ["interviewer", "Helen Ashworth", "Why did you leave for England?"],
      ["statement", "Montserrat Farré Llop", "In 1969 a nun from Lleida found work for girls in a Manchester hospital."],
      ["statement", "Montserrat Farré Llop", "I trained as a nurse."],
    ]);
    // Each answer knows the interviewer's turn it answers; the quote is the sentence, not the label.
    expect(sentences.filter((sentence) => sentence.role === "statement").map((sentence) => sentence.answers)).toEqual([0, 2, 2]);
    expect(sentences.every((sentence) => sentence.source === 2)).toBe(true);
  });

  it("takes the speaker who asks the questions for the interviewer when the archive does not name one", () => {
    const sentences = sourceSentences({ number: 1, title: "T", text: interview.replace("in the spring.", "in the spring?"), form: "transcript" });
    expect(sentences.filter((sentence) => sentence.role === "interviewer").map((sentence) => sentence.speaker)).toEqual(["Helen Ashworth", "Helen Ashworth"]);
  });

  it("aligns each sentence with the passage's English translation line by line", () => {
    const sentences = sourceSentences({
      number: 1,
      title: "Remendar redes",
      form: "transcript",
      text: "Lucía Ferrer Bosch: ¿Qué rompía las redes?\nCarmen Roldán Ortiz: Los delfines, sobre todo. Entraban a comerse la sardina.",
      translation: "Lucía Ferrer Bosch: What broke the nets?\nCarmen Roldán Ortiz: The dolphins, especially. They came in to eat the sardine.",
    });
    expect(sentences.map((sentence) => sentence.english)).toEqual(["What broke the nets?", "The dolphins, especially.", "They came in to eat the sardine."]);
    expect(sentences[0]?.role).toBe("interviewer");
  });

  it("knows a bare catalogue value or labelled fields from running text", () => {
    expect(passageForm("Port de la Calma, harbour dredging 1987, trench D", false)).toBe("fields");
    expect(passageForm("Title: Coarse ware plate\nFindspot: Port de la Calma, harbour dredging 1987", false)).toBe("fields");
    // Labels that join two names are labels: the whole entry is a catalogue entry, not running text.
    expect(
      passageForm(
        "Title: Bronze Follis of Justinian I, Antioch, AD 539 - AD 540. 1984.61.631\nMetal: bronze\nDenomination: Follis\nPeriod: Byzantine\nRuler / issuer: Justinian I\nMint: Antioch\nDate: 539 – 540",
        false,
      ),
    ).toBe("fields");
    expect(passageForm("The dredger pulled a green jar out of the harbour mud in 1971. Pere kept it.", false)).toBe("text");
    expect(passageForm("Helen: Why?\nTony: Because.", true)).toBe("transcript");
    const [field] = sourceSentences({ number: 1, title: "Coarse ware plate", text: "Port de la Calma, harbour dredging 1987, trench D", form: "fields" });
    expect(field?.role).toBe("field");
  });
});

describe("which sentences may answer", () => {
  it("never the interviewer or a question, and a catalogue field only for what, where and when", () => {
    const explanations: [question: string, asksWhyOrHow: boolean][] = [
      ["How were the church bells taken to the new village?", true],
      ["Why did Montserrat go to England?", true],
      ["What happened to the boatyard?", true],
      ["¿Por qué dejó de remendar?", true],
      ["Com van portar les campanes?", true],
      ["How many miners died?", false],
      ["Where was the plate found?", false],
    ];
    for (const [question, asksWhyOrHow] of explanations) expect(asksForExplanation(question), question).toBe(asksWhyOrHow);
    expect(mayAnswer({ role: "field" }, "How did the dredger work?")).toBe(false);
    expect(mayAnswer({ role: "field" }, "Where was the plate found?")).toBe(true);
    expect(mayAnswer({ role: "interviewer" }, "Where was the plate found?")).toBe(false);
    expect(mayAnswer({ role: "question" }, "Where was the plate found?")).toBe(false);
    expect(mayAnswer({ role: "statement" }, "Why?")).toBe(true);
  });

  it("reads the question's content words without the words that only ask", () => {
    expect(questionTerms("Quan es va acabar l'últim llaüt de fusta?")).toEqual(["acabar", "ultim", "llaut", "fusta"]);
    expect(questionTerms("¿Cuándo llegó Carmen a Port de la Calma?")).toEqual(["llego", "carmen", "port", "calma"]);
    // A why-phrase with a verb of its own asks; its verb is no word of the question's content.
    expect(questionTerms("¿Qué llevaba a las vendedoras a pedirse préstamos?")).toEqual(["vendedoras", "pedirse", "prestamos"]);
    expect(questionTerms("What made Tony Llorens leave for Wales?")).toEqual(["tony", "llorens", "leave", "wales"]);
    expect(questionTerms("What was the jug made of?")).toContain("made");
  });
});

describe("a catalogue entry's answer", () => {
  const entry = "Title: The Bronco Buster\nArtist: Frederic Remington\nTypology: sculpture\nMaterial: bronze\nYear made: 1895";

  it("is the entry's fields together, without the line that repeats the title", () => {
    const sentences = sourceSentences({ number: 3, title: "The Bronco Buster", text: entry, form: "fields" });
    expect(sentences).toEqual([
      {
        source: 3,
        text: "Artist: Frederic Remington; Typology: sculpture; Material: bronze; Year made: 1895",
        speaker: null,
        role: "field",
        line: 0,
        answers: null,
        english: null,
      },
    ]);
  });

  it("keeps the English of each field it quotes, and answers nothing when the entry is only its title", () => {
    const [sentence] = sourceSentences({
      number: 1,
      title: "Pozo Santa Bárbara",
      text: "Nombre: Pozo Santa Bárbara\nTipo: mina",
      translation: "Name: Pozo Santa Bárbara\nKind: mine",
      form: "fields",
    });
    expect(sentence).toMatchObject({ text: "Tipo: mina", english: "Kind: mine" });
    expect(sourceSentences({ number: 1, title: "Riu Segrell", text: "Name: Riu Segrell", form: "fields" })).toEqual([]);
    // A bare value that is not the title is quoted as it is.
    expect(sourceSentences({ number: 1, title: "Sherd", text: "Port de la Calma, harbour dredging 1987, trench D", form: "fields" })[0]?.text).toBe(
      "Port de la Calma, harbour dredging 1987, trench D",
    );
  });
});

describe("whole sentences", () => {
  const texts = (source: Parameters<typeof sourceSentences>[0]) => sourceSentences(source).map((sentence) => sentence.text);
  // A scanned notice as OCR reads it: one printed line per line, a blank line between paragraphs.
  const notice = [
    "TRASLLAT AL POBLE NOU",
    "",
    "La Companyia construirà un poble nou a Vilanova del",
    "Segrell, al vessant damunt de l'embassament, amb cases",
    "de dues plantes, escola, església i font pública.",
    "",
    "L'església parroquial, les campanes, els altars i el",
    "cementiri seran traslladats a càrrec de la Companyia,",
    "d'acord amb el Bisbat. Les restes del cementiri es",
    "portaran al cementiri nou de Vilanova del Segrell.",
  ].join("\n");

  it("joins the printed lines of a scanned page's paragraph, also before a capitalised name, and numbers paragraphs", () => {
    const sentences = sourceSentences({ number: 1, title: "Avís", language: "ca", form: "text", text: notice });
    expect(sentences.map((sentence) => [sentence.line, sentence.text])).toEqual([
      [0, "TRASLLAT AL POBLE NOU"],
      [
        1,
        "La Companyia construirà un poble nou a Vilanova del Segrell, al vessant damunt de l'embassament, amb cases de dues plantes, escola, església i font pública.",
      ],
      [2, "L'església parroquial, les campanes, els altars i el cementiri seran traslladats a càrrec de la Companyia, d'acord amb el Bisbat."],
      [2, "Les restes del cementiri es portaran al cementiri nou de Vilanova del Segrell."],
    ]);
  });

  it("keeps a heading apart from the paragraph under it, with or without a blank line, and a paragraph apart from the next", () => {
    const headed =
      "Trasllat al poble nou\nLa Companyia construirà un poble nou a Vilanova del\nSegrell, al vessant damunt de l'embassament, amb cases\nde dues plantes, escola, església i font pública.";
    expect(texts({ number: 1, title: "Avís", form: "text", text: headed })[0]).toBe("Trasllat al poble nou");
    expect(texts({ number: 1, title: "Avís", form: "text", text: notice.replace("NOU\n\n", "NOU\n") })[0]).toBe("TRASLLAT AL POBLE NOU");
    // A heading set in capitals on two lines is one heading.
    expect(
      texts({
        number: 1,
        title: "Diario",
        form: "text",
        text: "LA DRAGA SACA DEL FANGO DEL PUERTO UNA JARRA VERDE DEL\nSIGLO XVIII\n\nLa jarra ha quedado en el Ayuntamiento.",
      }),
    ).toEqual(["LA DRAGA SACA DEL FANGO DEL PUERTO UNA JARRA VERDE DEL SIGLO XVIII", "La jarra ha quedado en el Ayuntamiento."]);
    // A heading in capitals is a heading however wide it is.
    expect(
      texts({
        number: 1,
        title: "Diario",
        form: "text",
        text: "LA DRAGA SACA DEL FANGO DEL PUERTO UNA JARRA VERDE\nPort de la Calma (de nuestro corresponsal). Los trabajos\nde dragado han deparado una sorpresa.",
      })[0],
    ).toBe("LA DRAGA SACA DEL FANGO DEL PUERTO UNA JARRA VERDE");
    // A blank line ends a paragraph even when its last line has no sentence end.
    const paragraphs = "Les cases de la part baixa del poble s'hauran de deixar aviat\n\ni la resta abans de l'estiu de 1966, quan es tancaran les comportes.";
    expect(
      sourceSentences({ number: 1, title: "Avís", form: "text", text: `El poble nou tindrà escola i església.\n${paragraphs}` }).map(
        (sentence) => sentence.line,
      ),
    ).toEqual([0, 1, 2]);
  });

  it("joins a word hyphenated at the end of a line, and keeps a Catalan pronoun's hyphen after its verb", () => {
    const text = "Les campa-\nnes de Sant Romà les van despenjar-\nles els homes del poble l'estiu del 1964, per endur-\nse'n el bronze a Vilanova.";
    expect(texts({ number: 1, title: "Campanes", language: "ca", form: "text", text })).toEqual([
      "Les campanes de Sant Romà les van despenjar-les els homes del poble l'estiu del 1964, per endur-se'n el bronze a Vilanova.",
    ]);
    expect(lineGlues("a l'esco-\nla del poble", "ca")).toEqual(["apart", "word"]);
    // A dot before a line in lowercase ends no sentence: OCR read a speck as one.
    const speck = "El calafate fue el primero en verla y pidió al patrón de la.\ndraga que la dejara en el muelle.";
    expect(texts({ number: 1, title: "La draga", language: "es", form: "text", text: speck })).toEqual([
      "El calafate fue el primero en verla y pidió al patrón de la. draga que la dejara en el muelle.",
    ]);
    // Spanish writes the pronoun on to the verb: its hyphen there is the printer's.
    expect(joinLines("Había que llevar-\nla al pueblo nuevo.", lineGlues("Había que llevar-\nla al pueblo nuevo.", "es"))).toEqual([
      "Había que llevarla al pueblo nuevo.",
    ]);
    // Before a capital or a number the hyphen is the writer's own.
    expect(joinLines("Els anys 1961-\n1966 van ser durs.", lineGlues("Els anys 1961-\n1966 van ser durs."))).toEqual(["Els anys 1961-1966 van ser durs."]);
  });

  it("leaves out a passage's last sentence when the passage was cut inside it", () => {
    const cut = "Les obres de la presa començaran l'estiu de 1963.\nL'església parroquial, les campanes, els altars i el";
    expect(texts({ number: 1, title: "Avís", form: "text", text: cut })).toEqual(["Les obres de la presa començaran l'estiu de 1963."]);
    const turns = [
      "Marta Puig i Solé: Com van baixar les campanes?",
      "Josep Farré i Bonet: Les van baixar amb corrioles. Després les vam portar amb el carro de",
    ].join("\n");
    expect(texts({ number: 1, title: "T", form: "transcript", text: turns, interviewers: ["Marta Puig i Solé"] })).toEqual([
      "Com van baixar les campanes?",
      "Les van baixar amb corrioles.",
    ]);
    // The interviewer's turn is kept, cut or not: the next passage's answer is read against it.
    const endsAsking = "Josep Farré i Bonet: Vam marxar el 1964.\nMarta Puig i Solé: I les campanes del poble";
    expect(sourceSentences({ number: 1, title: "T", form: "transcript", text: endsAsking, interviewers: ["Marta Puig i Solé"] }).at(-1)?.role).toBe(
      "interviewer",
    );
    // A source that never ends its sentences (an unpunctuated transcript) cannot show a cut.
    const unpunctuated = "Marta Puig i Solé: com va anar\nJosep Farré i Bonet: vam marxar l'any seixanta-quatre amb la mula";
    expect(texts({ number: 1, title: "T", form: "transcript", text: unpunctuated, interviewers: ["Marta Puig i Solé"] }).at(-1)).toBe(
      "vam marxar l'any seixanta-quatre amb la mula",
    );
  });

  it("leaves out a passage's first sentence when it goes on, in lowercase, from the passage before", () => {
    const cut = "cementiri seran traslladats a càrrec de la Companyia. Les restes del cementiri es portaran al cementiri nou.";
    expect(texts({ number: 1, title: "Avís", form: "text", text: cut })).toEqual(["Les restes del cementiri es portaran al cementiri nou."]);
    const midTurn =
      "«i després les vam pujar al carro de la mula amb palla.\nMarta Puig i Solé: On les vau portar?\nJosep Farré i Bonet: a Vilanova, al campanar nou.";
    // A turn of its own that starts in lowercase is the speaker's, not a cut.
    expect(texts({ number: 1, title: "T", form: "transcript", text: midTurn, interviewers: ["Marta Puig i Solé"] })).toEqual([
      "On les vau portar?",
      "a Vilanova, al campanar nou.",
    ]);
    const startsOwnTurn = "Josep Farré i Bonet: a Vilanova, al campanar nou del poble.\nMarta Puig i Solé: I la mula?";
    expect(texts({ number: 1, title: "T", form: "transcript", text: startsOwnTurn, interviewers: ["Marta Puig i Solé"] })[0]).toBe(
      "a Vilanova, al campanar nou del poble.",
    );
  });

  it("keeps each joined sentence aligned with the translation, printed the same way", () => {
    const text = "La Companyia construirà un poble nou a Vilanova del\nSegrell, amb escola i església. Les campa-\nnes seran traslladades.";
    const translation = "The Company will build a new village at Vilanova del\nSegrell, with a school and a church. The campa-\nnes will be moved.";
    const sentences = sourceSentences({ number: 1, title: "Avís", language: "ca", form: "text", text, translation });
    expect(sentences.map((sentence) => [sentence.text, sentence.english])).toEqual([
      [
        "La Companyia construirà un poble nou a Vilanova del Segrell, amb escola i església.",
        "The Company will build a new village at Vilanova del Segrell, with a school and a church.",
      ],
      ["Les campanes seran traslladades.", "The campanes will be moved."],
    ]);
    // A translation that lost a line aligns nothing rather than the wrong sentence.
    const misaligned = sourceSentences({ number: 1, title: "Avís", form: "text", text, translation: translation.replace("\nSegrell", " Segrell") });
    expect(misaligned.map((sentence) => sentence.english)).toEqual([null, null]);
  });

  it("never takes another speaker's question or the interviewer's turn for a statement", () => {
    for (const label of ["Entrevistadora", "Entrevistador", "Interviewer"]) {
      const text = `${label}: Som a Vilanova amb en Josep Farré. Com es van endur les campanes?\nJosep Farré i Bonet: Les vam baixar amb corrioles i les vam portar amb el carro.`;
      const sentences = sourceSentences({ number: 1, title: "T", form: "transcript", text, interviewers: ["Marta Puig i Solé"] });
      expect(
        sentences.map((sentence) => [sentence.role, sentence.answers]),
        label,
      ).toEqual([
        ["interviewer", null],
        ["interviewer", null],
        ["statement", 0],
      ]);
    }
    // The archive names her in full; the transcript labels her shorter: she is the one who asks.
    const shortLabel = [
      "Marta Puig: Som a Vilanova amb en Josep Farré. Recorda l'última collita?",
      "Josep Farré i Bonet: Me'n recordo com si fos ahir, era la tardor del 1964.",
      "Marta Puig: Com es van endur les campanes?",
      "Josep Farré i Bonet: Les vam portar amb el carro.",
    ].join("\n");
    expect(
      sourceSentences({ number: 1, title: "T", form: "transcript", text: shortLabel, interviewers: ["Marta Puig i Solé"] })
        .filter((sentence) => sentence.role === "statement")
        .map((sentence) => sentence.speaker),
    ).toEqual(["Josep Farré i Bonet", "Josep Farré i Bonet"]);
    // A turn with no label that ends on a question asks it; the turn after it answers.
    const unlabelled = "Som a Vilanova amb en Josep Farré. Com es van endur les campanes?\nLes vam portar amb el carro de la mula.";
    expect(sourceSentences({ number: 1, title: "T", form: "transcript", text: unlabelled }).map((sentence) => [sentence.role, sentence.answers])).toEqual([
      ["interviewer", null],
      ["interviewer", null],
      ["statement", 0],
    ]);
    // Running text that carries an interview's labelled lines.
    const written = "Interviewer: Tell me about the day the bells came down.\nThe men lowered them with ropes and pulleys in the summer of 1964.";
    expect(sourceSentences({ number: 1, title: "Notes", form: "text", text: written }).map((sentence) => sentence.role)).toEqual(["interviewer", "statement"]);
  });
});
