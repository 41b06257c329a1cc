import { describe, expect, it } from "vitest";
import { searchSettings } from "../config/settings";
import { fuseRecords, recordRanking, recordScores } from "./fuse-legs";

const hit = (recordId: string, score: number, chunkId = `${recordId}-${score}`) => ({ chunkId, recordId, projectId: "p", contributingProjectIds: [], score });

describe("record ranking", () => {
  it("adds up a record's keyword passages but takes its closest passage by meaning", () => {
    const words = [hit("a", 3), hit("b", 2), hit("b", 2), hit("c", 1)];
    expect(recordRanking({ leg: "words", hits: words })).toEqual(["b", "a", "c"]);
    const meaning = [hit("a", 0.9), hit("b", 0.6), hit("b", 0.6), hit("b", 0.6)];
    expect(recordRanking({ leg: "meaning", hits: meaning })).toEqual(["a", "b"]);
  });

  it("ranks a record by words on its two best passages, so many weak passages do not outweigh two strong ones", () => {
    const words = [
      hit("strong", 5, "s1"),
      hit("strong", 4, "s2"),
      ...Array.from({ length: 12 }, (_, index) => hit("long", 1, `l${index}`)),
      hit("long", 4.5, "l-best"),
    ];
    expect(recordRanking({ leg: "words", hits: words })).toEqual(["strong", "long"]);
  });

  describe("the second passage's share", () => {
    const words = [hit("one", 3, "o1"), hit("two", 2, "t1"), hit("two", 2, "t2")];

    it("adds the second best at the share given, the best alone at 0", () => {
      expect(recordScores({ leg: "words", hits: words, secondPassage: 0.25 })).toEqual([
        { id: "one", score: 3 },
        { id: "two", score: 2.5 },
      ]);
      expect(recordRanking({ leg: "words", hits: words, secondPassage: 0 })).toEqual(["one", "two"]);
      expect(recordRanking({ leg: "words", hits: words, secondPassage: 1 })).toEqual(["two", "one"]);
      // Never on the meaning leg: a record is its closest passage there.
      expect(recordScores({ leg: "meaning", hits: [hit("m", 0.5), hit("m", 0.4, "m2")], secondPassage: 1 })).toEqual([{ id: "m", score: 0.5 }]);
    });

    it("comes from the secondPassageShare setting when not given, the sum of the two", () => {
      expect(searchSettings.secondPassageShare.value).toBe(1);
      expect(recordScores({ leg: "words", hits: words })).toEqual([
        { id: "two", score: 4 },
        { id: "one", score: 3 },
      ]);
    });
  });

  it("keeps the leg's order for records that tie, whatever their ids", () => {
    // The leg ordered its tied passages by content; record ids are random per build and must not reorder them.
    expect(recordRanking({ leg: "words", hits: [hit("z", 2), hit("a", 2), hit("m", 2)] })).toEqual(["z", "a", "m"]);
    expect(recordRanking({ leg: "meaning", hits: [hit("z", 0.5), hit("a", 0.5)] })).toEqual(["z", "a"]);
    expect(recordRanking({ leg: "words", hits: [hit("z", 1, "z1"), hit("a", 2, "a1"), hit("z", 1, "z2")] })).toEqual(["z", "a"]);
  });

  it("fuses the legs' record scores, records found by both first", () => {
    const fused = fuseRecords([
      { leg: "meaning", hits: [hit("a", 0.9), hit("c", 0.85), hit("d", 0.45)] },
      { leg: "words", hits: [hit("b", 5), hit("c", 2), hit("c", 2, "c-second")] },
    ]);
    // c: 0.85/0.9 + (2+2)/5; b: 5/5 + the meaning leg's lowest 0.45/0.9; a: 1 + no words; d: its 0.5 alone.
    expect(fused.map((item) => item.id)).toEqual(["c", "b", "a", "d"]);
    expect(fused[0]?.ranks).toEqual({ meaning: 2, words: 2 });
    expect(fused[0]?.score).toBeCloseTo(0.85 / 0.9 + 0.8, 10);
  });
});
