import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recogniseAuthorityUri } from "../../lib/archive/authorities";
import { coinMetal, coinTypology } from "./coin-classify";
import { coinAuthorityLinks, crroType, nomismaDenomination, nomismaMaterial, nomismaMint, ocreType } from "./coin-authorities";
import { parseCoinTitle } from "./coin-title";
import { loadCoins, readCoinLines } from "./coins";

const lines = readCoinLines(join(import.meta.dirname, "data", "heritage"));
const titles = new Set(lines.map((line) => line.title));

const ocre = (id: string) => `http://numismatics.org/ocre/id/${id}`;
const nomisma = (slug: string) => `http://nomisma.org/id/${slug}`;

/** The links of a title as the demo builds them (the metal from the Metal field's rules). */
function linksOf(title: string) {
  const parsed = parseCoinTitle(title);
  const bounds = lines.find((line) => line.title === title)?.temporal_bounds ?? null;
  return coinAuthorityLinks(parsed, coinMetal(parsed, coinTypology(parsed.denomination), bounds));
}

describe("ocreType", () => {
  // Real references of coins-subset-2284.jsonl; each volume's section abbreviation as OCRE writes it.
  it.each([
    ["RIC I (second edition) Nero 53. 1944.100.39424", "ric.1(2).ner.53"],
    ["RIC I (second edition) Augustus 1A. 1944.100.39026", "ric.1(2).aug.1A"],
    ["RIC I (second edition) Gaius/Caligula 56. 1953.171.1319", "ric.1(2).gai.56"],
    ["RIC II, Part 1 (second edition) Vespasian 1009. 0000.999.18072", "ric.2_1(2).ves.1009"],
    ["RIC II Trajan 337. 1956.127.1643", "ric.2.tr.337"],
    ["RIC II Hadrian 137A (denarius). 1956.127.148", "ric.2.hdn.137A_denarius"],
    ["RIC II Hadrian 241Aa. 1948.19.1221", "ric.2.hdn.241Aa"],
    ["RIC III Marcus Aurelius 171. 1956.127.1914", "ric.3.m_aur.171"],
    ["RIC III Commodus 680 (as). 1944.100.50039", "ric.3.com.680_as"],
    ["RIC III Antoninus Pius 1354Aa (as). 1995.11.119", "ric.3.ant.1354Aa_as"],
    ["RIC IV Septimius Severus 125A (denarius). 1986.161.107", "ric.4.ss.125A_denarius"],
    ["RIC IV Caracalla 227 (denarius). 1905.57.521", "ric.4.crl.227_denarius"],
    ["RIC IV Elagabalus 94f. 1905.57.564", "ric.4.el.94f"],
    ["RIC IV Trajan Decius 81A. 1935.117.217", "ric.4.tr_d.81A"],
    ["RIC V Claudius Gothicus 233. 1944.100.32592", "ric.5.cg.233"],
  ])("%s → %s", (title, id) => {
    expect(titles.has(title), "a real title of the data file").toBe(true);
    const reference = parseCoinTitle(title).reference;
    expect(ocreType(reference)).toEqual({ uri: ocre(id), label: reference });
    expect(recogniseAuthorityUri(ocre(id), ["ocre"])?.uri).toBe(ocre(id));
  });

  it.each([
    // OCRE's ids for these sections were not confirmed (Gallienus: joint or sole reign?): no link.
    "RIC II Anonymous 24. 1947.97.588",
    "RIC V Gallienus 144. 1975.253.1",
    "RIC V Valerian 210. 1944.100.27226",
    "RRC 289/1. 1896.7.36",
  ])("%s → no OCRE link", (title) => {
    expect(titles.has(title)).toBe(true);
    expect(ocreType(parseCoinTitle(title).reference)).toBeNull();
  });

  it("links no reference outside its tables, and nothing for no reference", () => {
    expect(ocreType("RIC VII Londinium 12")).toBeNull();
    expect(ocreType("RIC IV Septimius Severus")).toBeNull();
    expect(ocreType("RIC IV constructor 12")).toBeNull();
    expect(ocreType(null)).toBeNull();
  });
});

describe("crroType", () => {
  it.each([
    ["RRC 289/1. 1896.7.36", "rrc-289.1"],
    ["RRC 308/1a. 2002.46.103", "rrc-308.1a"],
    ["RRC 14/4. 1954.263.99", "rrc-14.4"],
  ])("%s → %s", (title, id) => {
    expect(titles.has(title)).toBe(true);
    const link = crroType(parseCoinTitle(title).reference);
    expect(link).toEqual({ uri: `http://numismatics.org/crro/id/${id}`, label: title.replace(/\. [\d.]+$/, "") });
    expect(recogniseAuthorityUri(link?.uri ?? "", ["crro"])?.uri).toBe(link?.uri);
  });

  it("reads only Crawford references", () => {
    expect(crroType("RIC I (second edition) Nero 53")).toBeNull();
    expect(crroType("RRC 289")).toBeNull();
  });
});

describe("Nomisma mint, denomination and material", () => {
  it.each([
    ["Silver 4 drachm (tetradrachm), Athens, 400 BC - 380 BC. 1968.34.55", "athens", "tetradrachm", "ar"],
    ["Gold Solidus of Theophilus, Constantinople, 829 - 831. 1944.100.14662", "constantinople", "solidus", "av"],
    // The metal is the Metal field's: an antoninianus struck after AD 250 is billon.
    ["Antoninianus of Claudius II Gothicus, Mediolanum, 268-270. 1987.46.35.", "mediolanum", "antoninianus", "billon"],
    ["Denarius of M. Herennius, Rome, 108-107 B.C. 2012.94.", "rome", "denarius", "ar"],
    ["Bronze Nummus, Treveri, AD 296 - AD 297. 1989.11.56", "treveri", "nummus", "ae"],
    ["Silver Siglos, Sardes, 500 BC - 400 BC. 1950.127.132", "sardes", "siglos", "ar"],
    // ANS writes Alexandria (Egypt) as "Alexandreia"; its coins sit on Nomisma's alexandreia_egypt.
    ["Bronze Drachm of Trajan, Alexandreia, AD 108 - AD 109. 1944.100.55415", "alexandreia_egypt", "drachma", "ae"],
    ["Gold octadrachm, Alexandreia, 205 BC - 180 BC. 1974.26.5591", "alexandreia_egypt", "octadrachm", "av"],
  ])("%s → %s, %s, %s", (title, mint, denomination, material) => {
    expect(titles.has(title)).toBe(true);
    const links = linksOf(title);
    expect([links.mint?.uri, links.denomination?.uri, links.material?.uri]).toEqual([nomisma(mint), nomisma(denomination), nomisma(material)]);
    for (const link of [links.mint, links.denomination, links.material]) {
      expect(recogniseAuthorityUri(link?.uri ?? "", ["nomisma"])?.uri).toBe(link?.uri);
      expect(link?.label).toBeTruthy();
    }
  });

  it("labels links with Nomisma's own names", () => {
    expect(nomismaMint("Treveri")).toEqual({ uri: nomisma("treveri"), label: "Trier" });
    expect(nomismaDenomination("4 drachm (tetradrachm)")).toEqual({ uri: nomisma("tetradrachm"), label: "Tetradrachm" });
    expect(nomismaDenomination("Drachm")).toEqual({ uri: nomisma("drachma"), label: "Drachma" });
    expect(nomismaMaterial("silver")).toEqual({ uri: nomisma("ar"), label: "Silver" });
  });

  it.each([
    // Corinth names both Nomisma's ancient and medieval mint: no mint link, the rest as usual.
    ["Bronze Coin, Corinth, AD 193 - AD 211. 0000.999.16773", { mint: null, denomination: null, material: nomisma("ae") }],
    // Nomisma has no "aspron trachy" as such (billon or electrum trachy): no denomination link.
    [
      "Billon Billon aspron trachy of Isaac II, Constantinople, 1185 - 1195. 1944.100.18165",
      { mint: nomisma("constantinople"), denomination: null, material: nomisma("billon") },
    ],
    // A PAS find names its issuer only, and its metal is unknown.
    ["LVPL-83DE4C: A coin issued by Faustina II", { mint: null, denomination: null, material: null }],
  ])("%s → only what is certain", (title, expected) => {
    expect(titles.has(title)).toBe(true);
    const links = linksOf(title);
    expect({ mint: links.mint?.uri ?? null, denomination: links.denomination?.uri ?? null, material: links.material?.uri ?? null }).toEqual(expected);
    expect(links.coinType).toBeNull();
  });

  it("links no unknown name, and never inherited object properties", () => {
    expect(nomismaMint("Atlantis")).toBeNull();
    expect(nomismaMint("constructor")).toBeNull();
    expect(nomismaDenomination("toString")).toBeNull();
    expect(nomismaMaterial("unknown")).toBeNull();
    expect(nomismaMaterial(null)).toBeNull();
  });
});

describe("the links of the whole data file", () => {
  const all = lines.map((line) => linksOf(line.title));

  it("gives each kind of link to the coins counted here (the seeded records)", () => {
    const records = loadCoins(join(import.meta.dirname, "data", "heritage"));
    const count = (key: string, prefix: string) =>
      records.filter((record) => (record.fields[key] as { uri?: string } | undefined)?.uri?.startsWith(prefix)).length;
    expect({
      ocre: count("coinType", "http://numismatics.org/ocre/id/"),
      crro: count("coinType", "http://numismatics.org/crro/id/"),
      mint: count("mintNomisma", "http://nomisma.org/id/"),
      denomination: count("denominationNomisma", "http://nomisma.org/id/"),
      material: count("materialNomisma", "http://nomisma.org/id/"),
    }).toEqual({ ocre: 445, crro: 85, mint: 1125, denomination: 1082, material: 1282 });
  });

  it("links every RIC reference but the four of unconfirmed sections, and every RRC reference", () => {
    const references = lines.map((line) => parseCoinTitle(line.title).reference);
    const unlinkedRic = references.filter((reference, index) => reference?.startsWith("RIC") && !all[index]?.coinType);
    expect(unlinkedRic.map((reference) => reference?.replace(/ \d+.*$/, "")).sort()).toEqual([
      "RIC II Anonymous",
      "RIC II Anonymous",
      "RIC V Gallienus",
      "RIC V Valerian",
    ]);
    expect(references.filter((reference, index) => reference?.startsWith("RRC") && !all[index]?.coinType)).toEqual([]);
  });

  it("writes every link in its authority's canonical form", () => {
    for (const links of all) {
      for (const link of [links.coinType, links.mint, links.denomination, links.material]) {
        if (link) expect(recogniseAuthorityUri(link.uri)?.uri, link.uri).toBe(link.uri);
      }
    }
  });
});
