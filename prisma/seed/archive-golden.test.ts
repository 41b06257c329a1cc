import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cappedRecallAt, factHolds, foldText, gradeRecords, loadArchiveGolden, percentile } from "./archive-golden";
import { generateCeramics } from "./ceramics";
import { loadCoins } from "./coins";
import { loadMuseumObjects } from "./museum-objects";
import { loadTextCollections } from "./text-collections";

const dataDir = join(import.meta.dirname, "data");
const golden = loadArchiveGolden(join(dataDir, "archive-golden.json"));

/**
 * Every demo record's title and the text its values hold, as the seed builds them: a scanned
 * document's body is the text its page images show (OCR reads it back at index time).
 */
function demoRecordTexts(): Map<string, string[]> {
  const text = loadTextCollections(dataDir);
  const records: [string, unknown[]][] = [
    ...text.interviews.map((interview): [string, unknown[]] => [
      interview.title,
      [interview.summary, interview.keywords, interview.turns.map((turn) => turn.text)],
    ]),
    ...text.people.map((person): [string, unknown[]] => [person.name, [person.occupation, person.biography]]),
    ...text.publications.flatMap((publication) =>
      publication.authors.map((author): [string, unknown[]] => [author.name, [author.occupation, author.biography]]),
    ),
    ...text.places.map((place): [string, unknown[]] => [place.name, [place.kind, place.description]]),
    ...[...text.publications, ...text.scannedDocuments].map((document): [string, unknown[]] => [
      document.title,
      [document.publishedIn, document.abstract, document.subjects, document.places, document.body],
    ]),
    ...[...loadCoins(join(dataDir, "heritage")), ...loadMuseumObjects(join(dataDir, "heritage")), ...generateCeramics()].map((object): [string, unknown[]] => [
      object.title,
      Object.values(object.fields),
    ]),
  ];
  const texts = new Map<string, string[]>();
  for (const [title, values] of records) {
    const flat = values.flat(2).map((value) => (typeof value === "string" ? value : JSON.stringify(value)));
    texts.set(title, [...(texts.get(title) ?? []), [title, ...flat].join("\n")]);
  }
  return texts;
}

describe("the archive golden set", () => {
  it("has the queries and questions eval:archive reports, in a dev and a test half", () => {
    const search = golden.search;
    expect(search.length).toBeGreaterThanOrEqual(80);
    expect(search.filter((item) => item.language !== "en").length).toBeGreaterThanOrEqual(25);
    expect(search.filter((item) => item.kinds.includes("paraphrase")).length).toBeGreaterThanOrEqual(25);
    expect(search.filter((item) => item.kinds.includes("object")).length).toBeGreaterThanOrEqual(10);
    expect(search.filter((item) => item.kinds.includes("people-places")).length).toBeGreaterThanOrEqual(10);
    expect(golden.ask.length).toBeGreaterThanOrEqual(50);
    expect(golden.ask.filter((item) => item.language !== "en").length).toBeGreaterThanOrEqual(15);
    expect(golden.ask.filter((item) => item.records.length === 0).length).toBeGreaterThanOrEqual(12);
    // The halves were paired over a001–a089; a090–a105 were added to the dev half only, a106–a165
    // to both halves alike, a166 onwards to the dev half only (see the set's description).
    const number = (item: { id: string }) => Number(item.id.slice(1));
    const paired = golden.ask.filter((item) => number(item) <= 89);
    const later = golden.ask.filter((item) => number(item) >= 106 && number(item) <= 165);
    for (const items of [search, paired, later]) {
      const dev = items.filter((item) => item.split === "dev").length;
      expect(Math.abs(dev - (items.length - dev))).toBeLessThanOrEqual(2);
    }
    expect(golden.ask.filter((item) => (number(item) > 89 && number(item) < 106) || number(item) > 165).every((item) => item.split === "dev")).toBe(true);
    for (const item of search)
      expect(
        item.relevant.some((judgement) => judgement.grade === 2),
        item.id,
      ).toBe(true);
    for (const item of golden.ask) if (item.records.length) expect(item.facts.length, item.id).toBeGreaterThan(0);
  });

  it("asks why and how in every language in both halves, and asks to refuse about interviewers and people only mentioned", () => {
    for (const split of ["dev", "test"]) {
      const half = golden.ask.filter((item) => item.split === split);
      const whyHow = half.filter((item) => item.kinds.includes("why-how") && item.records.length > 0);
      expect(whyHow.length, split).toBeGreaterThanOrEqual(20);
      for (const language of ["en", "es", "ca"])
        expect(whyHow.filter((item) => item.language === language).length, `${split} ${language}`).toBeGreaterThanOrEqual(5);
      const roles = half.filter((item) => item.kinds.includes("interviewer") || item.kinds.includes("mentioned"));
      expect(roles.length, split).toBeGreaterThanOrEqual(4);
      for (const item of roles) expect(item.kinds, item.id).toContain("unanswerable");
    }
    // An interviewer question names one of the people who interview in the demo's recordings.
    const text = loadTextCollections(dataDir);
    const interviewerKeys = new Set(text.interviews.map((interview) => interview.interviewer));
    const interviewers = text.people
      .filter((person) => interviewerKeys.has(person.key))
      .map((person) => foldText(person.name.split(" ").slice(0, 2).join(" ")));
    expect(interviewers.length).toBeGreaterThan(0);
    for (const item of golden.ask.filter((item) => item.kinds.includes("interviewer")))
      expect(
        interviewers.some((name) => foldText(item.question).includes(name)),
        item.id,
      ).toBe(true);
  });

  it("names records the demo has, quotes its evidence from the first of them, and names none for a question to refuse", () => {
    const texts = demoRecordTexts();
    for (const item of golden.search)
      for (const judgement of item.relevant) if ("title" in judgement) expect(texts.has(judgement.title), `${item.id}: ${judgement.title}`).toBe(true);
    for (const item of golden.ask) {
      const unanswerable = item.kinds.includes("unanswerable");
      expect(unanswerable, item.id).toBe(item.records.length === 0);
      if (unanswerable) {
        expect(item.facts, item.id).toEqual([]);
        expect(item.evidence ?? "", item.id).toBe("");
        continue;
      }
      for (const title of item.records) expect(texts.has(title), `${item.id}: ${title}`).toBe(true);
      const evidence = item.evidence ?? "";
      expect(evidence, item.id).not.toBe("");
      expect(
        (texts.get(item.records[0] ?? "") ?? []).some((text) => text.includes(evidence)),
        `${item.id}: evidence in ${item.records[0]}`,
      ).toBe(true);
      // A fact is a word the records say (in one of its alternatives), not one only a translation could.
      const said = item.records.flatMap((title) => texts.get(title) ?? []).join("\n");
      for (const fact of item.facts) expect(factHolds(said, fact), `${item.id}: ${fact.join(" | ")}`).toBe(true);
    }
  });
});

describe("golden judgements", () => {
  const records = [
    { id: "a", title: "Les campanes de Sant Romà", sectionSlug: "oral-histories", projectId: "p", values: {} },
    { id: "b", title: "Denarius", sectionSlug: "coins", projectId: "p", values: { ruler: "Hadrian", metal: "silver" } },
    { id: "c", title: "Denarius", sectionSlug: "coins", projectId: "p", values: { ruler: "Trajan", metal: "silver" } },
  ];

  it("grades by exact title or by a folded field rule, the best grade winning", () => {
    const grades = gradeRecords(
      [
        { title: "Les campanes de Sant Romà", grade: 2 },
        { section: "coins", field: "ruler", contains: "hadrián", grade: 2 },
        { section: "coins", field: "metal", equals: "silver", grade: 1 },
      ],
      records,
    );
    expect([...grades]).toEqual([
      ["a", 2],
      ["b", 2],
      ["c", 1],
    ]);
  });

  it("finds a fact as whole words, accents and case aside, in any of its forms", () => {
    expect(factHolds("Les van dur amb un CAMIÓ, embolicades amb palla.", ["lorry", "camió"])).toBe(true);
    expect(factHolds("in 1974 they left", ["9"])).toBe(false);
    expect(factHolds("in 1974 they left", ["1974"])).toBe(true);
    expect(foldText("  Sant Romà, de Vall! ")).toBe("sant roma de vall");
  });

  it("caps recall at what ten results can hold", () => {
    const many = new Map(Array.from({ length: 40 }, (_, index) => [`r${index}`, 1]));
    expect(cappedRecallAt(["r1", "x", "r2"], many, 10)).toBeCloseTo(0.2);
    expect(cappedRecallAt(["x", "r1"], new Map([["r1", 2]]), 10)).toBe(1);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
  });
});
