import { describe, expect, it } from "vitest";
import { asksForExplanation, mayAnswer, passageForm, questionTerms, sourceSentences } from "./answer-sentences";

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
