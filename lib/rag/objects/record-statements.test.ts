import { describe, expect, it } from "vitest";
import { findMarkedDates, findTerms, findableTerms, readWholeDate, romanToNumber, statedDate, textParts } from "./record-statements";

const range = (text: string) => findMarkedDates(text).map(({ from, to }) => [from, to]);

describe("findMarkedDates", () => {
  it("reads era-marked ranges and years", () => {
    expect(range("Gold Stater, Mesembria, 323 BC - 150 BC. 1944.100.1")).toEqual([[-323, -150]]);
    expect(range("Bronze Coin, Hypaepa, AD 218 - AD 222. 1944.100.2")).toEqual([[218, 222]]);
    expect(range("Denarius of M. Herennius, Rome, 108-107 B.C. 2012.94.")).toEqual([[-108, -107]]);
    expect(range("As, 9 B.C.-A.D. 40")).toEqual([[-9, 40]]);
    expect(range("Tetradrachm, 400 BC to 380 BC")).toEqual([[-400, -380]]);
    expect(range("Bronze, A.D. 194")).toEqual([[194, 194]]);
    expect(range("Moneda ibérica, 200 a.C.")).toEqual([[-200, -200]]);
    expect(range("struck 50 BCE")).toEqual([[-50, -50]]);
  });

  it("reads circa, decades and centuries, in English, Spanish and Catalan", () => {
    expect(findMarkedDates("ca. 1928")).toEqual([{ from: 1928, to: 1928, text: "ca. 1928", approximate: true }]);
    expect(range("ca. 1879-80")).toEqual([[1879, 1880]]);
    expect(range("c .1880")).toEqual([[1880, 1880]]);
    expect(range("circa 1750")).toEqual([[1750, 1750]]);
    expect(range("the 1880s")).toEqual([[1880, 1889]]);
    expect(range("early 1920s")).toEqual([[1920, 1924]]);
    expect(range("18th century")).toEqual([[1701, 1800]]);
    expect(range("late 18th century")).toEqual([[1751, 1800]]);
    expect(range("1st century BC")).toEqual([[-100, -1]]);
    expect(range("plat del s. XVIII")).toEqual([[1701, 1800]]);
    expect(range("jarra del siglo XVII")).toEqual([[1601, 1700]]);
    expect(range("gerra del segle XIV")).toEqual([[1301, 1400]]);
  });

  it("does not take names, catalogue numbers or accession numbers for years", () => {
    expect(range("Hadrian")).toEqual([]);
    expect(range("RIC II Hadrian 688 (quadrans). 2004.14.120")).toEqual([]);
    expect(range("RRC 289/1. 1896.7.36")).toEqual([]);
    expect(range("harbour dredging 1987, trench B")).toEqual([]);
    expect(range("LVPL-83DE4C: A coin issued by Faustina II")).toEqual([]);
    // An era needs a number beside it, and a word is no era.
    expect(range("Prince 12 of the Medici")).toEqual([]);
    expect(range("Louis XIV, civil war")).toEqual([]);
    expect(range("Mint of siglo civil")).toEqual([]);
  });
});

describe("readWholeDate and textParts", () => {
  it("reads a bare year or range only when it is the whole value", () => {
    expect(readWholeDate("1948")).toMatchObject({ from: 1948, to: 1948 });
    expect(readWholeDate("1879-1880")).toMatchObject({ from: 1879, to: 1880 });
    expect(readWholeDate("829 - 831.")).toMatchObject({ from: 829, to: 831 });
    expect(readWholeDate("ca. 1928")).toMatchObject({ from: 1928, to: 1928, approximate: true });
    expect(readWholeDate("688")).toMatchObject({ from: 688, to: 688 });
    expect(readWholeDate("Hadrian 688")).toBeNull();
    expect(readWholeDate("painted ca. 1928 in Paris")).toBeNull();
    expect(readWholeDate("2004.14.120")).toBeNull();
    expect(readWholeDate("1880-1870")).toBeNull();
  });

  it("splits a title at commas and sentence stops, not at abbreviations", () => {
    expect(textParts("Penny of Offa, 829 - 831. 1990.1.2")).toEqual(["Penny of Offa", "829 - 831", "1990.1.2"]);
    expect(textParts("On the Brooklyn Bridge, ca. 1920")).toEqual(["On the Brooklyn Bridge", "ca. 1920"]);
    expect(textParts("Denarius, 108-107 B.C. 2012.94.")).toEqual(["Denarius", "108-107 B.C. 2012.94."]);
  });
});

describe("statedDate", () => {
  it("is the span of the dates the record states", () => {
    expect(statedDate([{ label: "Title", text: "Gold Stater, Mesembria, 323 BC - 150 BC. 1944.100.1" }])).toEqual({
      from: -323,
      to: -150,
      approximate: false,
      statements: [{ from: -323, to: -150, text: "323 BC - 150 BC", approximate: false, label: "Title" }],
    });
    expect(statedDate([{ label: "Title", text: "Penny of Offa, 829 - 831. 1990.1.2" }])).toMatchObject({ from: 829, to: 831 });
    expect(statedDate([{ label: "Description", text: "A jug of the 18th century, found 1987, with a repair of ca. 1850." }])).toMatchObject({
      from: 1701,
      to: 1850,
      approximate: true,
    });
  });

  it("lets a field that holds only a date outrank dates in running text", () => {
    const stated = statedDate([
      { label: "Title", text: "Stonington, 1954" },
      { label: "Year made", text: "1994" },
    ]);
    expect(stated).toMatchObject({ from: 1994, to: 1994 });
    expect(stated?.statements).toEqual([{ from: 1994, to: 1994, text: "1994", approximate: false, label: "Year made" }]);
  });

  it("states nothing for a record without a marked or standalone date", () => {
    expect(statedDate([{ label: "Title", text: "RIC II Hadrian 688 (quadrans). 2004.14.120" }])).toBeNull();
    expect(statedDate([{ label: "Homepage", text: "http://numismatics.org/collection/1944.100.1" }])).toBeNull();
    expect(statedDate([])).toBeNull();
  });
});

describe("findTerms", () => {
  const typologies = ["stater", "drachm", "tetradrachm", "as", "aspron trachy", "solidus", "other", "unidentified"];

  it("finds whole-word vocabulary terms, case- and accent-insensitively, longest first", () => {
    expect(findTerms("Gold Stater, Mesembria, 323 BC - 150 BC", typologies)).toEqual([{ value: "stater", text: "Stater" }]);
    expect(findTerms("Silver 4 drachm (tetradrachm), Athens", typologies).map((term) => term.value)).toEqual(["drachm", "tetradrachm"]);
    expect(findTerms("Billon Aspron-Trachy of Manuel I", typologies)).toEqual([{ value: "aspron trachy", text: "Aspron-Trachy" }]);
    expect(findTerms("Two staters", typologies)).toEqual([{ value: "stater", text: "staters" }]);
    expect(findTerms("Plat de ceràmica", ["ceramica"])).toEqual([{ value: "ceramica", text: "ceràmica" }]);
    expect(findTerms("Gelatin silver print", ["silver", "gelatin silver", "paper"])).toEqual([{ value: "gelatin silver", text: "Gelatin silver" }]);
  });

  it("never finds placeholders, function words or parts of words", () => {
    expect(findTerms("Struck as a donative; other types unidentified", typologies)).toEqual([]);
    expect(findTerms("Tetradrachms of Athens", ["drachm"])).toEqual([]);
    expect(findTerms("Hadrian 688", ["688"])).toEqual([]);
    expect(findableTerms(["as", "Other", "unknown", "Roman Imperial", "1800–1849", "roman imperial"])).toEqual(["Roman Imperial"]);
  });
});

describe("romanToNumber", () => {
  it("reads century numerals and refuses anything else", () => {
    expect(romanToNumber("XVIII")).toBe(18);
    expect(romanToNumber("XIV")).toBe(14);
    expect(romanToNumber("IV")).toBe(4);
    expect(romanToNumber("CIVIL")).toBeNull();
    expect(romanToNumber("ABC")).toBeNull();
  });
});
