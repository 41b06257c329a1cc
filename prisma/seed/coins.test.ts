import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sectionFieldsSchema } from "../../lib/archive/field-definitions";
import { COIN_TYPOLOGY_OPTIONS } from "./coin-classify";
import { coinSection, findspotSummary, loadCoins, parseCoinDate, parseCoinTitle, readCoinLines, type ParsedCoin } from "./coins";
import { expectValuesMatchSection } from "./seed-test-helpers";

const DATA_DIR = join(import.meta.dirname, "data", "heritage");
const lines = readCoinLines(DATA_DIR);
const coins = loadCoins(DATA_DIR);

type Expected = Partial<ParsedCoin>;

/** Real titles from coins-subset-2284.jsonl, one or more of each style and the odd ones. */
const CASES: [string, Expected][] = [
  [
    "Silver 4 drachm (tetradrachm), Athens, 400 BC - 380 BC. 1968.34.55",
    {
      style: "descriptive",
      metal: "silver",
      denomination: "4 drachm (tetradrachm)",
      ruler: null,
      mint: "Athens",
      dateText: "400 BC - 380 BC",
      dateRange: { from: -400, to: -380 },
      accessionNumber: "1968.34.55",
    },
  ],
  [
    "Gold Solidus of Theophilus, Constantinople, 829 - 831. 1944.100.14662",
    {
      metal: "gold",
      denomination: "Solidus",
      ruler: "Theophilus",
      mint: "Constantinople",
      dateRange: { from: 829, to: 831 },
      accessionNumber: "1944.100.14662",
    },
  ],
  [
    "RIC I (second edition) Nero 53. 1944.100.39424",
    {
      style: "reference",
      metal: null,
      denomination: null,
      ruler: "Nero",
      mint: null,
      dateRange: null,
      accessionNumber: "1944.100.39424",
      reference: "RIC I (second edition) Nero 53",
    },
  ],
  ["RIC IV Septimius Severus 125A (denarius). 1986.161.107", { ruler: "Septimius Severus", denomination: "Denarius", accessionNumber: "1986.161.107" }],
  ["RIC II, Part 1 (second edition) Vespasian 1009. 0000.999.18072", { ruler: "Vespasian", accessionNumber: "0000.999.18072" }],
  ["RIC II Anonymous 24. 1947.97.588", { style: "reference", ruler: null, reference: "RIC II Anonymous 24" }],
  ["RRC 289/1. 1896.7.36", { style: "reference", ruler: null, denomination: null, metal: null, reference: "RRC 289/1", accessionNumber: "1896.7.36" }],
  ["LVPL-83DE4C: A coin issued by Faustina II", { style: "pas", ruler: "Faustina II", accessionNumber: "LVPL-83DE4C", metal: null, mint: null }],
  ["WILT-907053: A coin issued by Marcus Aurelius (as Caesar)", { ruler: "Marcus Aurelius" }],
  ["PUBLIC-619302: A coin issued by Uncertain - 1st-mid 3rd century", { style: "pas", ruler: null, accessionNumber: "PUBLIC-619302" }],
  ["HAMP-60E623: A coin with an unrecorded/uncertain issuer.", { style: "pas", ruler: null, accessionNumber: "HAMP-60E623" }],
  ["HAMP2241: A coin issued by Quintillus", { ruler: "Quintillus", accessionNumber: "HAMP2241" }],
  ["KENT-2844F3: A coin issued by Offa of Mercia", { ruler: "Offa of Mercia" }],
  [
    "Antoninianus of Claudius II Gothicus, Mediolanum, 268-270. 1987.46.35.",
    {
      metal: null,
      denomination: "Antoninianus",
      ruler: "Claudius II Gothicus",
      mint: "Mediolanum",
      dateRange: { from: 268, to: 270 },
      accessionNumber: "1987.46.35",
    },
  ],
  [
    "Denarius of M. Herennius, Rome, 108-107 B.C. 2012.94.",
    { ruler: "M. Herennius", mint: "Rome", dateRange: { from: -108, to: -107 }, accessionNumber: "2012.94" },
  ],
  [
    "Coin, Ambracia, 238 B.C.-168 B.C. 1989.12.25.",
    { denomination: null, ruler: null, mint: "Ambracia", dateRange: { from: -238, to: -168 }, accessionNumber: "1989.12.25" },
  ],
  ["Denarius of Rome, 111-110 B.C. 2012.92.", { denomination: "Denarius", ruler: null, mint: "Rome", dateRange: { from: -111, to: -110 } }],
  [
    "Coin of Aretas IV, Petra, 9 B.C.-A.D. 40. FIC.50.54.",
    { ruler: "Aretas IV", mint: "Petra", dateRange: { from: -9, to: 40 }, accessionNumber: "FIC.50.54" },
  ],
  // The title's date runs backwards: kept as text, not read as a range.
  ["Coin of Cleopatra, Damascus, A.D. 33-A.D. 32. FIC.50.13.", { ruler: "Cleopatra", mint: "Damascus", dateText: "A.D. 33-A.D. 32", dateRange: null }],
  [
    "Billon Billon aspron trachy of Isaac II, Constantinople, 1185 - 1195. 1944.100.18165",
    { metal: "billon", denomination: "Aspron trachy", ruler: "Isaac II" },
  ],
  ["Bronze Coin, Corinth, AD 193 - AD 211. 0000.999.16773", { metal: "bronze", denomination: null, mint: "Corinth", dateRange: { from: 193, to: 211 } }],
  ["Antoninianus of Trebonianus Gallus, 251-253. 1991.17.41.", { ruler: "Trebonianus Gallus", mint: null, dateRange: { from: 251, to: 253 } }],
  [
    "Silver hemidrachm of Arcadian League, Mantineia, 428 BC - 418 BC. 1944.100.40025",
    { denomination: "Hemidrachm", ruler: "Arcadian League", mint: "Mantineia" },
  ],
  ["Gold Solidus of Justinian II, Constantinople, 705. 1958.76.4", { dateText: "705", dateRange: { from: 705, to: 705 } }],
  ["Denarius of Septimius Severus, Emisa, A.D. 194. 1989.19.15.", { dateRange: { from: 194, to: 194 }, mint: "Emisa" }],
  [
    "Coin of Ptolemy IV Philopator, Alexandria, 221 B.C.-201 B.C. 1890.",
    { ruler: "Ptolemy IV Philopator", accessionNumber: "1890", dateRange: { from: -221, to: -201 } },
  ],
  ["As of Caracalla (Julia Domna), Rome, 211-217. 1994.10.9.", { denomination: "As", ruler: "Caracalla (Julia Domna)" }],
  ["M Nummia of Justin II, Nicomedia, 565-578. FIC.50.8.", { denomination: "M Nummia", ruler: "Justin II", mint: "Nicomedia" }],
];

describe("parseCoinTitle", () => {
  const titles = new Set(lines.map((l) => l.title));
  it.each(CASES)("%s", (title, expected) => {
    expect(titles.has(title), "the case is a real title of the data file").toBe(true);
    expect(parseCoinTitle(title)).toMatchObject(expected);
  });

  it("parses every title of the file in one of the known styles", () => {
    const parsed = lines.map((l) => parseCoinTitle(l.title));
    expect(parsed.filter((p) => p.style === "unparsed")).toEqual([]);
    expect(parsed.every((p) => p.accessionNumber !== null)).toBe(true);
  });

  it("reads title dates that agree with the providers' temporal bounds", () => {
    const withDates = lines.map((l) => [l, parseCoinTitle(l.title).dateRange] as const).filter(([, d]) => d !== null);
    const agree = withDates.filter(([l, d]) => l.temporal_bounds?.from === d?.from && l.temporal_bounds?.to === d?.to);
    expect(withDates.length).toBeGreaterThan(1200);
    expect(agree.length / withDates.length).toBeGreaterThan(0.98);
  });

  it("returns nulls for an empty or unknown title", () => {
    expect(parseCoinTitle("")).toMatchObject({ style: "unparsed", metal: null, ruler: null });
    expect(parseCoinTitle("Lot of assorted items")).toMatchObject({ style: "unparsed", metal: null, denomination: null });
  });
});

describe("parseCoinDate", () => {
  it.each([
    ["400 BC - 380 BC", { from: -400, to: -380 }],
    ["AD 180 - AD 181", { from: 180, to: 181 }],
    ["AD 583 - 602", { from: 583, to: 602 }],
    ["76 B.C.-75 B.C.", { from: -76, to: -75 }],
    ["108-107 B.C.", { from: -108, to: -107 }],
    ["24-20 B.C.", { from: -24, to: -20 }],
    ["A.D. 37-41", { from: 37, to: 41 }],
    ["9 B.C.-A.D. 40", { from: -9, to: 40 }],
    ["A.D. 174-A.D. 175", { from: 174, to: 175 }],
    ["705", { from: 705, to: 705 }],
    ["A.D. 33-A.D. 32", null],
    ["Mediolanum", null],
  ])("%s", (text, expected) => {
    expect(parseCoinDate(text)).toEqual(expected);
  });
});

describe("coin records", () => {
  const byTitle = (title: string) => coins.find((c) => c.title === title);

  it("declares valid fields and only values the fields allow", () => {
    expect(sectionFieldsSchema.safeParse(coinSection.fields).success).toBe(true);
    expect(coins).toHaveLength(2284);
    expectValuesMatchSection(coinSection, coins);
    expect(new Set(coins.map((c) => c.key)).size).toBe(coins.length);
  });

  it("uses every typology option (the options come from the data)", () => {
    const used = new Set(coins.map((c) => c.fields.typology));
    expect([...COIN_TYPOLOGY_OPTIONS].filter((o) => !used.has(o))).toEqual([]);
  });

  it.each([
    ["Silver 4 drachm (tetradrachm), Athens, 400 BC - 380 BC. 1968.34.55", "Classical Greek", "tetradrachm", "silver"],
    ["Gold Solidus of Theophilus, Constantinople, 829 - 831. 1944.100.14662", "Byzantine", "solidus", "gold"],
    ["RRC 289/1. 1896.7.36", "Roman Republic", "unidentified", "unknown"],
    ["RIC IV Septimius Severus 125A (denarius). 1986.161.107", "Roman Imperial", "denarius", "silver"],
    ["Antoninianus of Claudius II Gothicus, Mediolanum, 268-270. 1987.46.35.", "Roman Imperial", "antoninianus", "billon"],
    ["Silver Tetartemorion, Massalia, 480 BC - 460 BC. 2012.49.93", "Classical Greek", "other", "silver"],
    ["Bronze Nummus, Lugdunum, AD 350 - AD 353. 1984.146.2203", "Late Roman", "nummus", "bronze"],
    ["NCL-08B976: A coin issued by Edward I of England", "Medieval", "unidentified", "unknown"],
    ["KENT-2844F3: A coin issued by Offa of Mercia", "Early Medieval", "unidentified", "unknown"],
    ["BERK-EFC8C1: A coin issued by Cunobelin", "Iron Age", "unidentified", "unknown"],
    ["IOW-287EE5: A coin issued by Henry VIII of England", "Early Modern", "unidentified", "unknown"],
  ])("%s → %s, %s, %s", (title, period, typology, metal) => {
    expect(byTitle(title)?.fields).toMatchObject({ period, typology, metal });
  });

  it("leaves out an impossible date and takes the period from the ruler's other coins", () => {
    const odd = byTitle("CAM-3FCB07: A coin issued by Caracalla");
    expect(odd?.fields.date).toBeUndefined();
    expect(odd?.fields.period).toBe("Roman Imperial");
  });

  it("summarises findspots as a point or an area", () => {
    expect(findspotSummary({ min_lon: 23.7265, max_lon: 23.7265, min_lat: 37.9717, max_lat: 37.9717 })).toBe("37.9717° N, 23.7265° E");
    expect(findspotSummary({ min_lon: 12.4843, max_lon: 16.5694, min_lat: 37.9169, max_lat: 41.8926 })).toBe("37.92–41.89° N, 12.48–16.57° E (area)");
    expect(findspotSummary({ min_lon: -1.5, max_lon: -1.5, min_lat: 51.2, max_lat: 51.2 })).toBe("51.2000° N, 1.5000° W");
    expect(findspotSummary(null)).toBeNull();
  });

  it("stores the authority links beside the text fields they come from", () => {
    expect(byTitle("RIC I (second edition) Nero 53. 1944.100.39424")?.fields).toMatchObject({
      ruler: "Nero",
      coinType: { uri: "http://numismatics.org/ocre/id/ric.1(2).ner.53", label: "RIC I (second edition) Nero 53" },
    });
    expect(byTitle("RRC 289/1. 1896.7.36")?.fields.coinType).toEqual({ uri: "http://numismatics.org/crro/id/rrc-289.1", label: "RRC 289/1" });
    const athens = byTitle("Silver 4 drachm (tetradrachm), Athens, 400 BC - 380 BC. 1968.34.55")?.fields;
    expect(athens).toMatchObject({
      mint: "Athens",
      denomination: "4 drachm (tetradrachm)",
      metal: "silver",
      mintNomisma: { uri: "http://nomisma.org/id/athens", label: "Athens" },
      denominationNomisma: { uri: "http://nomisma.org/id/tetradrachm", label: "Tetradrachm" },
      materialNomisma: { uri: "http://nomisma.org/id/ar", label: "Silver" },
    });
    expect(athens?.coinType).toBeUndefined();
    // Nothing certain to link: the keys are left out, not stored empty.
    const pas = byTitle("LVPL-83DE4C: A coin issued by Faustina II")?.fields ?? {};
    expect(["coinType", "mintNomisma", "denominationNomisma", "materialNomisma"].filter((key) => key in pas)).toEqual([]);
  });

  it("gives each coin an obverse and a reverse image", () => {
    for (const coin of coins.slice(0, 50)) expect(coin.images.map((i) => `${i.field}/${i.view}`)).toEqual(["obverse/obverse", "reverse/reverse"]);
  });
});
