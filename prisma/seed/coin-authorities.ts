/**
 * Authority links of the demo's coins, derived from the catalogue title and its parsed fields
 * (coin-title.ts, coin-classify.ts): the coin type in OCRE (RIC references) or CRRO (RRC
 * references), and the Nomisma concepts of the mint, the denomination and the material. Pure and
 * offline: nothing is looked up, a reference or name outside the tables below gets no link.
 *
 * Every identifier in the tables was checked against the authorities' published data, never
 * guessed: the OCRE section abbreviations and the id form against OCRE's type list (the ids of
 * "RIC I (second edition) Claudius 1", "RIC III Commodus 251 (denarius)", …), the CRRO form
 * ("RRC 289/1" → rrc-289.1) against CRRO's, and each Nomisma slug against nomisma.org's data
 * (github.com/nomisma/data): a concept of the right class (mint, denomination, material), not
 * deprecated, whose labels carry the title's name, and for mints whose coordinates agree with
 * the coins' own geo_bounds (within 0.3°).
 */
import type { AuthorityLink } from "../../lib/archive/authorities";
import type { ParsedCoin } from "./coin-title";

/**
 * RIC volumes as the ANS titles write them (the titles are OCRE's own type labels) → OCRE's
 * volume id and its section abbreviations. Sections the data has but OCRE's ids could not be
 * confirmed for get no link: "RIC II Anonymous", "RIC V Valerian", and "RIC V Gallienus" (OCRE
 * splits Gallienus into his joint and sole reigns, gall(1) and gall(2); the title says neither).
 */
const RIC_VOLUMES: Record<string, { volume: string; sections: Record<string, string> }> = {
  "RIC I (second edition)": {
    volume: "ric.1(2)",
    sections: {
      Augustus: "aug",
      Tiberius: "tib",
      "Gaius/Caligula": "gai",
      Claudius: "cl",
      Nero: "ner",
      "Clodius Macer": "clm",
      "Civil Wars": "cw",
      Galba: "gal",
      Otho: "ot",
      Vitellius: "vit",
    },
  },
  "RIC II, Part 1 (second edition)": { volume: "ric.2_1(2)", sections: { Vespasian: "ves", Titus: "tit", Domitian: "dom" } },
  // The first edition of RIC II: OCRE keeps its Hadrian ids, marked as replaced by RIC II.3.
  "RIC II": { volume: "ric.2", sections: { Trajan: "tr", Hadrian: "hdn" } },
  "RIC III": { volume: "ric.3", sections: { "Antoninus Pius": "ant", "Marcus Aurelius": "m_aur", Commodus: "com" } },
  "RIC IV": {
    volume: "ric.4",
    sections: {
      "Septimius Severus": "ss",
      Caracalla: "crl",
      Geta: "ge",
      Macrinus: "mcs",
      Elagabalus: "el",
      "Severus Alexander": "sa",
      "Trajan Decius": "tr_d",
    },
  },
  "RIC V": { volume: "ric.5", sections: { "Claudius Gothicus": "cg", Carausius: "cara", Allectus: "all" } },
};

/** "RIC IV Septimius Severus 125A (denarius)": volume, section, type number, denomination. */
const RIC_RE = /^(RIC [IVX]+(?:, Part \d+)?(?: \([^)]*\))?) (.+?) (\d{1,4}[A-Za-z]{0,3})(?: \(([a-z]+(?: [a-z]+)?)\))?$/;

/**
 * The OCRE type of a RIC reference, labelled with the reference: "RIC I (second edition) Nero 53"
 * → ric.1(2).ner.53. The type number keeps its case (OCRE's 1A and 1a are different ids); where
 * OCRE split one RIC number by denomination the title names it, and so does the id
 * ("RIC III Commodus 251 (denarius)" → ric.3.com.251_denarius).
 */
export function ocreType(reference: string | null): AuthorityLink | null {
  const match = reference ? RIC_RE.exec(reference) : null;
  if (!match) return null;
  const [, volumeText, section, number, denomination] = match;
  const volume = Object.hasOwn(RIC_VOLUMES, volumeText ?? "") ? RIC_VOLUMES[volumeText ?? ""] : undefined;
  const abbreviation = volume && Object.hasOwn(volume.sections, section ?? "") ? volume.sections[section ?? ""] : undefined;
  if (!volume || !abbreviation || !number) return null;
  const split = denomination ? `_${denomination.replace(/ /g, "_")}` : "";
  return { uri: `http://numismatics.org/ocre/id/${volume.volume}.${abbreviation}.${number}${split}`, label: reference ?? "" };
}

/** The CRRO type of a Crawford (RRC) reference: "RRC 289/1" → rrc-289.1, "RRC 308/1a" → rrc-308.1a. */
export function crroType(reference: string | null): AuthorityLink | null {
  const match = reference ? /^RRC (\d{1,3})\/(\d{1,3}[a-z]?)$/.exec(reference) : null;
  if (!match) return null;
  const [, group, issue] = match;
  if (!group || !issue) return null;
  return { uri: `http://numismatics.org/crro/id/rrc-${group}.${issue}`, label: reference ?? "" };
}

/**
 * Mint names of the titles → Nomisma mint and its English label. Names left out: ones that
 * name several Nomisma mints the coins cannot tell apart (Corinth: the ancient and the
 * medieval mint; Salamis: Attica or Cyprus; Antioch: the coins' places point to Syria and to
 * Pisidia; Attaleia, Cagliari), ones whose coins lie elsewhere than the Nomisma mint (Carthage,
 * Velia), and regions or issuers (Sicily, Dacia, Hispania, Thessalian League). "Alexandreia" and
 * "Caesareia in Cappadocia" are the ANS spellings of Nomisma's Alexandria and Caesarea in
 * Cappadocia: their coins sit on those mints' coordinates.
 */
const NOMISMA_MINTS: Record<string, [slug: string, label: string]> = {
  Abydus: ["abydus", "Abydus"],
  Aegina: ["aegina_aegina", "Aegina"],
  Agrigentum: ["agrigentum", "Agrigentum"],
  Alabanda: ["alabanda", "Alabanda"],
  Alexandreia: ["alexandreia_egypt", "Alexandria"],
  "Alexandreia Troas": ["alexandreia_troas", "Alexandreia Troas"],
  Alexandria: ["alexandreia_egypt", "Alexandria"],
  Amastris: ["amastris", "Amastris"],
  Ambracia: ["ambracia", "Ambracia"],
  Amphipolis: ["amphipolis", "Amphipolis"],
  Anchialus: ["anchialus", "Anchialus"],
  Ancyra: ["ancyra", "Ancyra"],
  Antigoneia: ["antigoneia_mantineia", "Antigoneia"],
  Apamea: ["apamea_phrygiae", "Apamea in Phrygia"],
  "Apollonia Salbace": ["apollonia_salbace", "Apollonia Salbace"],
  "Apollonia ad Rhyndacum": ["apollonia_ad_rhyndacum", "Apollonia ad Rhyndacum"],
  Aquileia: ["aquileia", "Aquileia"],
  Aradus: ["aradus", "Aradus"],
  Arelate: ["arelate", "Arelate"],
  Ascalon: ["ascalon", "Ascalon"],
  Athens: ["athens", "Athens"],
  Attaea: ["attaea", "Attaea"],
  Bargylia: ["bargylia", "Bargylia"],
  Bizya: ["bizya", "Bizya"],
  Bostra: ["bostra", "Bostra"],
  Byzantium: ["byzantium", "Byzantium"],
  "Caesareia Panias": ["caesareia_panias", "Caesareia Panias"],
  "Caesareia Samariae": ["caesareia_samaria", "Caesareia Samariae"],
  "Caesareia ad Libanum": ["caesareia_ad_libanum", "Caesareia ad Libanum"],
  "Caesareia in Cappadocia": ["caesareia_cappadocia", "Caesarea in Cappadocia"],
  Calchedon: ["calchedon", "Calchedon"],
  Callatis: ["callatis", "Callatis"],
  Catana: ["catana", "Catana"],
  Chios: ["chios", "Chios"],
  Citium: ["citium", "Citium"],
  Clazomenae: ["clazomenae", "Clazomenae"],
  Cleitor: ["cleitor", "Cleitor"],
  Cnidus: ["cnidus", "Cnidus"],
  "Colonia Claudia Ara Agrippinensium": ["colonia_claudia_ara_agrippinensium", "Cologne"],
  Colophon: ["colophon", "Colophon"],
  Constantinople: ["constantinople", "Constantinople"],
  Corcyra: ["corcyra_corcyra", "Corcyra"],
  Corycus: ["corycus", "Corycus"],
  Cos: ["cos", "Cos"],
  Cyrene: ["cyrene", "Cyrene"],
  Cyzicus: ["cyzicus", "Cyzicus"],
  Damascus: ["damascus", "Damascus"],
  Delphi: ["delphi", "Delphi"],
  Dicaea: ["dicaea_macedon", "Dicaea"],
  Dioshieron: ["dioshieron", "Dioshieron"],
  Ecbatana: ["ecbatana", "Ecbatana"],
  Elaea: ["elaea", "Elaea"],
  Emisa: ["emisa", "Emisa"],
  Ephesus: ["ephesus", "Ephesus"],
  Eretria: ["eretria", "Eretria"],
  "Heracleia Trachinia": ["heracleia_trachinia", "Heracleia Trachinia"],
  Hypaepa: ["hypaepa", "Hypaepa"],
  Ialysus: ["ialysus", "Ialysus"],
  Idalium: ["idalium", "Idalium"],
  Lampsacus: ["lampsacus", "Lampsacus"],
  "Laodiceia ad Libanum": ["laodiceia_ad_libanum", "Laodiceia ad Libanum"],
  Lapethus: ["lapethus", "Lapethus"],
  Larissa: ["larissa_thessaly", "Larissa, Thessaly"],
  Leucae: ["leucae", "Leucae"],
  Leucas: ["leucas", "Leucas"],
  Lugdunum: ["lugdunum", "Lugdunum"],
  "Magnesia ad Maeandrum": ["magnesia_ad_maeandrum", "Magnesia ad Maeandrum"],
  "Magnesia ad Sipylum": ["magnesia_ad_sipylum", "Magnesia ad Sipylum"],
  Magydus: ["magydus", "Magydus"],
  Mantineia: ["mantineia", "Mantineia"],
  Maroneia: ["maroneia", "Maroneia"],
  Massalia: ["massalia", "Massalia"],
  Mediolanum: ["mediolanum", "Mediolanum"],
  Megalopolis: ["megalopolis", "Megalopolis"],
  Memphis: ["memphis", "Memphis"],
  Mende: ["mende", "Mende"],
  Mesembria: ["mesembria", "Mesembria"],
  Messene: ["messene", "Messene"],
  Midaeum: ["midaeum", "Midaeum"],
  Miletopolis: ["miletopolis", "Miletopolis"],
  Miletus: ["miletus", "Miletus"],
  Mylasa: ["mylasa", "Mylasa"],
  Myndus: ["myndus", "Myndus"],
  Naucratis: ["naucratis", "Naucratis"],
  Naxos: ["naxos", "Naxos, Aegean"],
  Neocaesareia: ["neocaesareia", "Neocaesareia"],
  Nicomedia: ["nicomedia", "Nicomedia"],
  "Nisa Mithradatkart": ["nisa", "Nisa Mithradatkart"],
  Odessus: ["odessus", "Odessus"],
  Orthe: ["orthe", "Orthe"],
  Panticapaeum: ["panticapaeum", "Panticapaeum"],
  Paphos: ["paphus", "Paphos"],
  Parium: ["parium", "Parium"],
  Paros: ["paros", "Paros"],
  Pergamum: ["pergamum", "Pergamum"],
  Pessinus: ["pessinus", "Pessinus"],
  Petra: ["petra_arabia", "Petra"],
  Phlius: ["phlius", "Phlius"],
  Phocaea: ["phocaea", "Phocaea"],
  Psophis: ["psophis", "Psophis"],
  "Ptolemais-Ake": ["ace_ptolemais", "Ptolemais-Ake"],
  Ravenna: ["ravenna", "Ravenna"],
  Rome: ["rome", "Rome"],
  Sagalassus: ["sagalassus", "Sagalassus"],
  Samos: ["samos", "Samos"],
  Sardes: ["sardes", "Sardis"],
  "Seleuceia Pieria": ["seleuceia_pieria", "Seleuceia Pieria"],
  "Seleuceia ad Tigrim": ["seleuceia_ad_tigrim", "Seleuceia ad Tigrim"],
  Sestos: ["sestus", "Sestos"],
  Sicyon: ["sicyon", "Sicyon"],
  Sidon: ["sidon", "Sidon"],
  Sinope: ["sinope", "Sinope"],
  Siscia: ["siscia", "Siscia"],
  Smyrna: ["smyrna", "Smyrna"],
  Syracuse: ["syracuse", "Syracuse"],
  Tarsus: ["tarsus", "Tarsus"],
  Tegea: ["tegea", "Tegea"],
  Tenos: ["tenos", "Tenos"],
  Thera: ["thera", "Thera"],
  Therma: ["therma", "Therma"],
  Thespiae: ["thespiae", "Thespiae"],
  Thurium: ["thurium", "Thurium"],
  Tiberias: ["tiberias", "Tiberias"],
  Ticinum: ["ticinum", "Ticinum"],
  Tomis: ["tomis", "Tomis"],
  Tralles: ["tralles", "Tralles"],
  Treveri: ["treveri", "Trier"],
  Tyre: ["tyre", "Tyre"],
};

/** Denominations as the titles write them (lower case) → Nomisma denomination and label. */
const NOMISMA_DENOMINATIONS: Record<string, [slug: string, label: string]> = {
  "10 drachm (decadrachm)": ["decadrachm", "Decadrachm"],
  "4 drachm (tetradrachm)": ["tetradrachm", "Tetradrachm"],
  "2 drachm (didrachm)": ["didrachm", "Didrachm"],
  "1/5 tetradrachm": ["fifth-tetradrachm", "1/5 tetradrachm"],
  "1/48 stater": ["fourtyeighth-stater", "Eighth hecte"],
  "1/4 unit": ["quarter-unit", "1/4 unit"],
  "50 litra": ["50-litra", "50 litra"],
  "quarter-siliqua": ["quarter_siliqua", "Quarter siliqua"],
  antoninianus: ["antoninianus", "Antoninianus"],
  argenteus: ["argenteus", "Argenteus"],
  as: ["as", "As"],
  aureus: ["aureus", "Aureus"],
  chalkous: ["chalkous", "Chalkous"],
  cistophorus: ["cistophorus", "Cistophorus"],
  daric: ["daric", "Daric"],
  decadrachm: ["decadrachm", "Decadrachm"],
  // Nomisma also has a medieval denarius (medieval_denarius); every denarius of the titles is Roman.
  denarius: ["denarius", "Denarius"],
  dichalkon: ["dichalkon", "Dichalkon"],
  didrachm: ["didrachm", "Didrachm"],
  diobol: ["diobol", "Diobol"],
  distater: ["distater", "Distater"],
  drachm: ["drachma", "Drachma"],
  dupondius: ["dupondius", "Dupondius"],
  follis: ["follis", "Follis"],
  hecte: ["sixth-stater", "Hekte"],
  hemidrachm: ["hemidrachm", "Hemidrachm"],
  hemiobol: ["hemiobol", "Hemiobol"],
  hexagram: ["hexagram", "Hexagram"],
  histamenon: ["nomisma_histamenon", "Nomisma Histamenon"],
  hyperpyron: ["hyperpyron_nomisma", "Hyperpyron Nomisma"],
  miliaresion: ["miliaresion", "Miliaresion"],
  nummus: ["nummus", "Nummus"],
  obol: ["obol", "Obol"],
  octadrachm: ["octadrachm", "Octadrachm"],
  quadrans: ["quadrans", "Quadrans"],
  quinarius: ["quinarius", "Quinarius"],
  semissis: ["semissis", "Semissis"],
  sestertius: ["sestertius", "Sestertius"],
  siglos: ["siglos", "Siglos"],
  solidus: ["solidus", "Solidus"],
  // The Greek stater; Nomisma's Celtic stater is stater_celtic.
  stater: ["stater", "Stater"],
  tetartemorion: ["quarter-obol", "Tetartemorion"],
  tetrachalkos: ["tetrachalkon", "Tetrachalkon"],
  tetradrachm: ["tetradrachm", "Tetradrachm"],
  tetrobol: ["tetrobol", "Tetrobol"],
  tremissis: ["tremissis", "Tremissis"],
  tridrachm: ["tridrachm", "Tridrachm"],
  triobol: ["triobol", "Triobol"],
  trite: ["third-stater", "Trite"],
  unit: ["unit", "Unit"],
};

/** The Metal field's values → Nomisma material ("unknown" has none). */
const NOMISMA_MATERIALS: Record<string, [slug: string, label: string]> = {
  gold: ["av", "Gold"],
  silver: ["ar", "Silver"],
  bronze: ["ae", "Bronze"],
  copper: ["cu", "Copper"],
  billon: ["billon", "Billon"],
  electrum: ["el", "Electrum"],
  brass: ["brass", "Brass"],
  lead: ["pb", "Lead"],
  orichalcum: ["orichalcum", "Orichalcum"],
};

function nomisma(entry: [string, string] | undefined): AuthorityLink | null {
  return entry ? { uri: `http://nomisma.org/id/${entry[0]}`, label: entry[1] } : null;
}

export function nomismaMint(mint: string | null): AuthorityLink | null {
  return mint && Object.hasOwn(NOMISMA_MINTS, mint) ? nomisma(NOMISMA_MINTS[mint]) : null;
}

export function nomismaDenomination(denomination: string | null): AuthorityLink | null {
  const word = denomination?.toLowerCase() ?? "";
  return Object.hasOwn(NOMISMA_DENOMINATIONS, word) ? nomisma(NOMISMA_DENOMINATIONS[word]) : null;
}

export function nomismaMaterial(metal: string | null): AuthorityLink | null {
  return metal && Object.hasOwn(NOMISMA_MATERIALS, metal) ? nomisma(NOMISMA_MATERIALS[metal]) : null;
}

export interface CoinAuthorityLinks {
  coinType: AuthorityLink | null;
  mint: AuthorityLink | null;
  denomination: AuthorityLink | null;
  material: AuthorityLink | null;
}

/** A coin's links: its type (OCRE or CRRO), mint, denomination and material (from the Metal field). */
export function coinAuthorityLinks(parsed: ParsedCoin, metal: string | null): CoinAuthorityLinks {
  return {
    coinType: ocreType(parsed.reference) ?? crroType(parsed.reference),
    mint: nomismaMint(parsed.mint),
    denomination: nomismaDenomination(parsed.denomination),
    material: nomismaMaterial(metal),
  };
}
