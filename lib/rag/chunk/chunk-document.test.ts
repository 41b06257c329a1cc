import { describe, expect, it } from "vitest";
import { assertChunkInvariants } from "./assert-chunk-invariants";
import { CHUNKER_VERSION, chunkDocument, countTokens, type ChunkOptions } from "./index";

const report = [
  "## Title",
  "Informe de l'excavació de Can Xammar",
  "",
  "## Text",
  "### 1. Introduction",
  "[[page:1]]",
  "The excavation at Can Xammar took place in 1987. Dr. Puig directed the team.",
  "",
  "It was funded by the Diputació.",
  "#### 1.1 Background",
  "Earlier surveys found pottery.",
  "### 2. Methods",
  "[[page:2]]",
  "We used a grid of 4.41 m squares.",
  "[[page:3]]",
  "The finds were washed and labelled.",
  "",
  "## Notes",
  "Digitised by the Arxiu Comarcal.",
].join("\n");

const interview = [
  "## Title",
  "Entrevista a Marta Puig",
  "",
  "## Transcript",
  "[[turn:0-4.1]] Entrevistadora: Bon dia, Marta. Gràcies per rebre'ns.",
  "[[turn:4.1-12.5]] Marta Puig: Bon dia. Vaig néixer a Vilanova l'any 1941.",
  "[[turn:12.5-18.25]] Marta Puig: Som a Vilanova i la Geltrú, a la fàbrica on treballava la meva mare.",
  "[[turn:18.25-21]] Entrevistadora: ¿Y su hermano? ¿También trabajaba allí?",
  "[[turn:21-35.75]] Marta Puig: Sí, el meu germà hi va entrar als catorze anys. Portava els fils als telers. " +
    "El Sr. Roca, l'encarregat, el va ensenyar. Cobrava 4.50 pessetes a la setmana. Després va anar a la mili. " +
    "Quan va tornar, la fàbrica ja havia tancat. Tot va canviar molt de pressa.",
  "",
  "## Notes",
  "Recorded at home by the Arxiu Comarcal.",
].join("\n");

function chunk(document: string, options: Partial<ChunkOptions> = {}) {
  const full: ChunkOptions = { mode: "auto", maxTokens: 256, minTokens: 0, overlap: 0, ...options };
  const chunks = chunkDocument(document, full);
  assertChunkInvariants(document, full, chunks);
  return chunks;
}

describe("chunkDocument: headings and pages", () => {
  it("never crosses a heading or page marker, and records the heading path and page in force", () => {
    const chunks = chunk(report, { mode: "long_document", maxTokens: 64 });
    expect(chunks.map(({ text, headingPath, page, pageEnd }) => ({ text, headingPath, page, pageEnd }))).toEqual([
      { text: "Informe de l'excavació de Can Xammar", headingPath: ["Title"], page: null, pageEnd: null },
      {
        text: "The excavation at Can Xammar took place in 1987. Dr. Puig directed the team.\n\nIt was funded by the Diputació.",
        headingPath: ["Text", "1. Introduction"],
        page: 1,
        pageEnd: 1,
      },
      { text: "Earlier surveys found pottery.", headingPath: ["Text", "1. Introduction", "1.1 Background"], page: 1, pageEnd: 1 },
      // "### 2. Methods" closes "#### 1.1 Background".
      { text: "We used a grid of 4.41 m squares.", headingPath: ["Text", "2. Methods"], page: 2, pageEnd: 2 },
      { text: "The finds were washed and labelled.", headingPath: ["Text", "2. Methods"], page: 3, pageEnd: 3 },
      // "## Notes" closes everything below level 2; the page stays in force.
      { text: "Digitised by the Arxiu Comarcal.", headingPath: ["Notes"], page: 3, pageEnd: 3 },
    ]);
  });

  it("gives exact source offsets", () => {
    const [, introduction] = chunk(report, { mode: "long_document", maxTokens: 64 });
    expect(introduction && report.slice(introduction.startOffset, introduction.endOffset)).toBe(
      "The excavation at Can Xammar took place in 1987. Dr. Puig directed the team.\n\nIt was funded by the Diputació.",
    );
  });

  it("skips missing heading levels and reads closing hashes as markdown does", () => {
    const chunks = chunk("# Fons Puig ##\n#### Caixa 3\nCartes de 1939.\n## Inventari\nTres lligalls.");
    expect(chunks.map((c) => c.headingPath)).toEqual([
      ["Fons Puig", "Caixa 3"],
      ["Fons Puig", "Inventari"],
    ]);
  });

  it("cuts a paragraph at a page marker that falls mid-sentence", () => {
    const document = "## Text\n[[page:6]]\nThe wall of the mill was\n[[page:7]]\nrebuilt in 1920 after the flood.";
    expect(chunk(document).map(({ text, page, pageEnd }) => ({ text, page, pageEnd }))).toEqual([
      { text: "The wall of the mill was", page: 6, pageEnd: 6 },
      { text: "rebuilt in 1920 after the flood.", page: 7, pageEnd: 7 },
    ]);
  });

  it("leaves a heading with no text of its own without a chunk", () => {
    expect(chunk("## Text\n### Empty\n\n### Full\nSome words.").map((c) => c.headingPath)).toEqual([["Text", "Full"]]);
    expect(chunk("")).toEqual([]);
    expect(chunk("## Only a heading\n[[page:2]]\n")).toEqual([]);
  });
});

describe("chunkDocument: transcripts", () => {
  it("packs whole turns and takes timecodes from the first and last turn", () => {
    const chunks = chunk(interview, { maxTokens: 40, minTokens: 8 });
    expect(chunks.map(({ text, headingPath, timeStart, timeEnd }) => ({ text, headingPath, timeStart, timeEnd }))).toEqual([
      { text: "Entrevista a Marta Puig", headingPath: ["Title"], timeStart: null, timeEnd: null },
      {
        text: "Entrevistadora: Bon dia, Marta. Gràcies per rebre'ns.\nMarta Puig: Bon dia. Vaig néixer a Vilanova l'any 1941.",
        headingPath: ["Transcript"],
        timeStart: 0,
        timeEnd: 12.5,
      },
      {
        text: "Marta Puig: Som a Vilanova i la Geltrú, a la fàbrica on treballava la meva mare.\nEntrevistadora: ¿Y su hermano? ¿También trabajaba allí?",
        headingPath: ["Transcript"],
        timeStart: 12.5,
        timeEnd: 21,
      },
      // The last turn is longer than maxTokens: its pieces split at sentences and keep its timecodes.
      {
        text: "Marta Puig: Sí, el meu germà hi va entrar als catorze anys. Portava els fils als telers. El Sr. Roca, l'encarregat, el va ensenyar.",
        headingPath: ["Transcript"],
        timeStart: 21,
        timeEnd: 35.75,
      },
      {
        text: "Cobrava 4.50 pessetes a la setmana. Després va anar a la mili. Quan va tornar, la fàbrica ja havia tancat. Tot va canviar molt de pressa.",
        headingPath: ["Transcript"],
        timeStart: 21,
        timeEnd: 35.75,
      },
      { text: "Recorded at home by the Arxiu Comarcal.", headingPath: ["Notes"], timeStart: null, timeEnd: null },
    ]);
    // A chunk that starts a turn starts at its marker, so its span carries the timecode.
    expect(chunks[1] && interview.slice(chunks[1].startOffset).startsWith("[[turn:0-4.1]] Entrevistadora")).toBe(true);
  });

  it("keeps turns whole in transcription mode where long_document mode cuts between sentences", () => {
    const turns = [
      "[[turn:0-3]] Joan: Vam arribar tard. El tren no venia.",
      "[[turn:3-9.5]] Marta: Sempre igual. Cada dia el mateix retard a l'estació de Cubelles.",
    ].join("\n");
    expect(chunk(turns, { mode: "transcription", maxTokens: 24 }).map((c) => c.text)).toEqual([
      "Joan: Vam arribar tard. El tren no venia.",
      "Marta: Sempre igual. Cada dia el mateix retard a l'estació de Cubelles.",
    ]);
    expect(chunk(turns, { mode: "long_document", maxTokens: 24 }).map((c) => c.text)).toEqual([
      "Joan: Vam arribar tard. El tren no venia.\nMarta: Sempre igual.",
      "Cada dia el mateix retard a l'estació de Cubelles.",
    ]);
  });

  it("accepts turns without a speaker, and auto mode detects turns", () => {
    const document = "## Transcript\n[[turn:0-4.1]] (soroll de fons)\n[[turn:4.1-6]] Hola?";
    const chunks = chunk(document);
    expect(chunks.map(({ text, timeStart, timeEnd }) => ({ text, timeStart, timeEnd }))).toEqual([
      { text: "(soroll de fons)\nHola?", timeStart: 0, timeEnd: 6 },
    ]);
  });
});

describe("chunkDocument: bounds", () => {
  // 10 + 7 + 6 tokens, then a 6 + 2 token tail.
  const excavation = "## Text\nThe excavation at Can Xammar began in 1987. The team opened four trenches. Trench A held a kiln. Trench B held a wall. Done.";

  it("leaves a short tail when minTokens is 0", () => {
    expect(chunk(excavation, { maxTokens: 24 }).map((c) => [c.text, c.tokenCount])).toEqual([
      ["The excavation at Can Xammar began in 1987. The team opened four trenches. Trench A held a kiln.", 23],
      ["Trench B held a wall. Done.", 8],
    ]);
  });

  it("gives a short tail whole sentences from its predecessor, both staying within bounds", () => {
    expect(chunk(excavation, { maxTokens: 24, minTokens: 10 }).map((c) => [c.text, c.tokenCount])).toEqual([
      ["The excavation at Can Xammar began in 1987. The team opened four trenches.", 17],
      ["Trench A held a kiln. Trench B held a wall. Done.", 14],
    ]);
  });

  it("lets a short first chunk take sentences from the paragraph after it", () => {
    const document =
      "## Text\nNota breu.\n\nEl forn era de planta circular. Tenia una graella de fang. La cambra de foc era soterrada. Es va datar al segle I.";
    expect(chunk(document, { maxTokens: 32 }).map((c) => c.text)).toEqual([
      "Nota breu.",
      "El forn era de planta circular. Tenia una graella de fang. La cambra de foc era soterrada. Es va datar al segle I.",
    ]);
    expect(chunk(document, { maxTokens: 32, minTokens: 8 }).map((c) => c.text)).toEqual([
      "Nota breu.\n\nEl forn era de planta circular.",
      "Tenia una graella de fang. La cambra de foc era soterrada. Es va datar al segle I.",
    ]);
  });

  it("keeps a short field that is alone in its section", () => {
    expect(chunk(interview, { maxTokens: 40, minTokens: 30 })[0]?.text).toBe("Entrevista a Marta Puig");
  });

  it("splits a sentence longer than maxTokens at words, and a word longer than that into pieces", () => {
    const longSentence = Array.from({ length: 60 }, (_, index) => `paraula${index}`).join(" ");
    const longWord = `https://arxiu.example.cat/${"fons-Puig/".repeat(30)}`;
    const chunks = chunk(`## Text\n${longSentence}\n\n${longWord} fi.`, { maxTokens: 16, minTokens: 4 });
    expect(chunks.length).toBeGreaterThan(10);
    expect(
      chunks
        .map((c) => c.text)
        .join(" ")
        .replace(/\s+/g, ""),
    ).toBe(`${longSentence}${longWord}fi.`.replace(/\s+/g, ""));
  });

  it("packs paragraphs toward maxTokens and never beyond", () => {
    const paragraph = "El jaciment de Can Xammar és a prop del torrent.";
    const document = `## Text\n${Array.from({ length: 12 }, () => paragraph).join("\n\n")}`;
    const chunks = chunk(document, { maxTokens: 40 });
    expect(chunks.map((c) => c.tokenCount)).toEqual([39, 39, 39, 39]);
  });

  it("keeps a heading section whole in short mode when it fits, and splits it like long_document otherwise", () => {
    expect(chunk(report, { mode: "short", maxTokens: 64 })).toEqual(chunk(report, { mode: "long_document", maxTokens: 64 }));
    expect(chunk(report, { mode: "short", maxTokens: 64 })[1]?.text).toContain("It was funded by the Diputació.");
    expect(chunk(interview, { mode: "short", maxTokens: 40 })).toEqual(chunk(interview, { mode: "long_document", maxTokens: 40 }));
  });
});

describe("chunkDocument: overlap", () => {
  it("starts each later chunk of a section with whole sentences from the end of the one before", () => {
    const chunks = chunk(interview, { maxTokens: 40, minTokens: 8, overlap: 12 });
    const transcript = chunks.filter((c) => c.headingPath[0] === "Transcript");
    expect(transcript.map((c) => c.text)).toEqual([
      "Entrevistadora: Bon dia, Marta. Gràcies per rebre'ns.\nMarta Puig: Bon dia. Vaig néixer a Vilanova l'any 1941.",
      "Vaig néixer a Vilanova l'any 1941.\nMarta Puig: Som a Vilanova i la Geltrú, a la fàbrica on treballava la meva mare.",
      // The sentence before is longer than the overlap: no partial sentences are repeated.
      "Entrevistadora: ¿Y su hermano? ¿También trabajaba allí?",
      "¿También trabajaba allí?\nMarta Puig: Sí, el meu germà hi va entrar als catorze anys. Portava els fils als telers.",
      "Portava els fils als telers. El Sr. Roca, l'encarregat, el va ensenyar. Cobrava 4.50 pessetes a la setmana.",
      "Cobrava 4.50 pessetes a la setmana. Després va anar a la mili. Quan va tornar, la fàbrica ja havia tancat. Tot va canviar molt de pressa.",
    ]);
    // The repeated sentence brings its turn's timecode with it.
    expect(transcript[1]).toMatchObject({ timeStart: 4.1, timeEnd: 18.25 });
    expect(transcript[3]).toMatchObject({ timeStart: 18.25, timeEnd: 35.75 });
    const [first, second] = transcript;
    expect(first && second && second.startOffset < first.endOffset).toBe(true);
  });

  it("does not carry overlap across a heading", () => {
    const chunks = chunk(report, { mode: "long_document", maxTokens: 32, overlap: 8 });
    const notes = chunks.find((c) => c.headingPath[0] === "Notes");
    expect(notes?.text).toBe("Digitised by the Arxiu Comarcal.");
  });
});

describe("chunkDocument: options, determinism, scale", () => {
  it.each([
    [{ maxTokens: 15 }, /maxTokens must be at least 16/],
    [{ maxTokens: 64.5 }, /maxTokens must be an integer/],
    [{ minTokens: -1 }, /minTokens must be at least 0 and below maxTokens/],
    [{ minTokens: 256 }, /minTokens must be at least 0 and below maxTokens \(256\)/],
    [{ overlap: 128 }, /overlap must be at least 0 and below half of maxTokens \(128\)/],
    [{ overlap: -2 }, /overlap must be at least 0/],
    [{ overlap: Number.NaN }, /overlap must be an integer/],
    [{ mode: "paragraphs" as ChunkOptions["mode"] }, /Chunking mode must be one of short, long_document, transcription, auto/],
  ])("rejects %j", (override, message) => {
    const options: ChunkOptions = { mode: "auto", maxTokens: 256, minTokens: 32, overlap: 0, ...override };
    expect(() => chunkDocument(report, options)).toThrow(RangeError);
    expect(() => chunkDocument(report, options)).toThrow(message);
  });

  it("accepts the tightest valid bounds", () => {
    expect(() => chunkDocument(report, { mode: "auto", maxTokens: 16, minTokens: 15, overlap: 7 })).not.toThrow();
  });

  it("gives the same chunks for the same input", () => {
    const options: ChunkOptions = { mode: "auto", maxTokens: 24, minTokens: 6, overlap: 6 };
    expect(chunkDocument(`${report}\n${interview}`, options)).toEqual(chunkDocument(`${report}\n${interview}`, options));
    expect(CHUNKER_VERSION).toBe(2);
  });

  it("chunks about a megabyte of text", () => {
    const parts: string[] = [];
    let length = 0;
    for (let index = 0; length < 1_000_000; index += 1) {
      const part =
        (index % 40 === 0 ? `## Part ${index}\n[[page:${index}]]\n` : "") +
        (index % 3 === 0 ? `[[turn:${index}-${index + 1}]] Marta Puig: ${interview.slice(120, 420)}\n` : `${report}\n\n`);
      parts.push(part);
      length += part.length;
    }
    const document = parts.join("");
    const chunks = chunkDocument(document, { mode: "long_document", maxTokens: 256, minTokens: 32, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(1_000);
    expect(chunks.every((c) => c.tokenCount <= 256 && c.tokenCount === countTokens(c.text))).toBe(true);
  });
});
