/**
 * Wording for the synthetic ceramics catalogue (see ceramics.ts): form names, titles and the
 * 2–4 sentence descriptions, in English, Spanish or Catalan. Everything here is invented for
 * the demo; the form names are real type-series names used only as plausible labels.
 */
import type { Rng } from "./prng";
import { ceramicDecorationStyle, type DecorationStyle } from "./render-ceramic";

export type Lang = "en" | "es" | "ca";

export const TYPOLOGY_WORDS: Record<string, Record<Lang, string>> = {
  amphora: { en: "amphora", es: "ánfora", ca: "àmfora" },
  bowl: { en: "bowl", es: "cuenco", ca: "escudella" },
  plate: { en: "plate", es: "plato", ca: "plat" },
  jug: { en: "jug", es: "jarra", ca: "gerro" },
  cup: { en: "cup", es: "taza", ca: "tassa" },
  "storage jar": { en: "storage jar", es: "tinaja", ca: "tenalla" },
  "oil lamp": { en: "oil lamp", es: "lucerna", ca: "llàntia" },
  "cooking pot": { en: "cooking pot", es: "olla", ca: "olla" },
};

export const MATERIAL_WORDS: Record<string, Record<Lang, string> & { title: string }> = {
  "coarse earthenware": { en: "coarse earthenware", es: "cerámica común", ca: "ceràmica comuna", title: "Coarse ware" },
  "terra sigillata": { en: "terra sigillata", es: "terra sigillata", ca: "terra sigil·lata", title: "Terra sigillata" },
  "glazed earthenware": { en: "lead-glazed earthenware", es: "cerámica vidriada", ca: "ceràmica vidrada", title: "Glazed" },
  "tin-glazed earthenware (majolica)": {
    en: "tin-glazed earthenware (majolica)",
    es: "loza estannífera (mayólica)",
    ca: "ceràmica d'esmalt estannífer (majòlica)",
    title: "Majolica",
  },
  stoneware: { en: "stoneware", es: "gres", ca: "gres", title: "Stoneware" },
  porcelain: { en: "porcelain", es: "porcelana", ca: "porcellana", title: "Porcelain" },
};

export const PERIOD_WORDS: Record<string, Record<Lang, string>> = {
  Iberian: { en: "the Iberian period", es: "de época ibérica", ca: "d'època ibèrica" },
  "Roman Republic": { en: "the Roman Republican period", es: "de época romana republicana", ca: "d'època romana republicana" },
  "Roman Imperial": { en: "the Roman Imperial period", es: "de época romana imperial", ca: "d'època romana imperial" },
  "Late Antique": { en: "Late Antiquity", es: "de la Antigüedad tardía", ca: "de l'antiguitat tardana" },
  Medieval: { en: "the Middle Ages", es: "de época medieval", ca: "d'època medieval" },
  "Early Modern": { en: "the early modern period", es: "de época moderna", ca: "d'època moderna" },
  Modern: { en: "the modern era", es: "de época contemporánea", ca: "d'època contemporània" },
};

/** Type-series names by "period|material|typology". */
const FORMS: Record<string, string[]> = {
  "Roman Republic|coarse earthenware|amphora": ["Dressel 1A", "Dressel 1B", "Graeco-Italic"],
  "Roman Imperial|coarse earthenware|amphora": ["Pascual 1", "Dressel 2-4", "Dressel 20", "Dressel 7-11"],
  "Late Antique|coarse earthenware|amphora": ["Keay XXV", "Keay LXII", "spatheion"],
  "Roman Imperial|terra sigillata|bowl": ["Drag. 37", "Drag. 29"],
  "Roman Imperial|terra sigillata|plate": ["Drag. 18", "Drag. 15/17"],
  "Roman Imperial|terra sigillata|cup": ["Drag. 27", "Drag. 24/25"],
  "Late Antique|terra sigillata|bowl": ["Hayes 91", "Hayes 99"],
  "Late Antique|terra sigillata|plate": ["Hayes 61", "Hayes 50", "Hayes 104"],
  "Late Antique|terra sigillata|oil lamp": ["Atlante X"],
  "Roman Imperial|coarse earthenware|oil lamp": ["Loeschcke I", "Dressel 20"],
  "Roman Imperial|coarse earthenware|storage jar": ["dolium"],
  "Medieval|glazed earthenware|oil lamp": ["candil"],
  "Medieval|tin-glazed earthenware (majolica)|plate": ["verd i morat"],
  "Early Modern|tin-glazed earthenware (majolica)|storage jar": ["albarello"],
  "Early Modern|tin-glazed earthenware (majolica)|plate": ["pisa blava"],
  "Early Modern|stoneware|jug": ["Bartmann jug"],
  "Early Modern|porcelain|plate": ["Kraak ware"],
  "Modern|glazed earthenware|cooking pot": ["cassola"],
  "Modern|coarse earthenware|jug": ["càntir"],
};

export function formName(period: string, material: string, typology: string, rng: Rng): string | null {
  const forms = FORMS[`${period}|${material}|${typology}`];
  return forms && rng.chance(0.8) ? rng.pick(forms) : null;
}

export function ceramicTitle(material: string, typology: string, form: string | null): string {
  const adjective = MATERIAL_WORDS[material]?.title ?? "Ceramic";
  return `${adjective} ${typology}${form ? ` (${form})` : ""}`;
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const CONDITION: Record<Lang, string[]> = {
  en: [
    "It survives almost complete.",
    "Only a rim fragment survives.",
    "It has been reassembled from several joining sherds.",
    "The rim is chipped and part of the body is missing.",
  ],
  es: ["Se conserva casi en su totalidad.", "Solo se conserva un fragmento del borde.", "Se ha reconstruido a partir de varios fragmentos."],
  ca: ["Es conserva gairebé en la seva totalitat.", "Només se'n conserva un fragment de la vora.", "S'ha reconstruït a partir de diversos fragments."],
};

const SURFACE: Record<string, string> = {
  "coarse earthenware": "The fabric is gritty, with visible inclusions of quartz and mica.",
  "terra sigillata": "The surface is covered by a glossy red slip.",
  "glazed earthenware": "A lead glaze covers the inner surface and runs over the rim.",
  "tin-glazed earthenware (majolica)": "An opaque white tin glaze covers the whole vessel.",
  stoneware: "The body is hard-fired and grey, with an orange-peel salt glaze.",
  porcelain: "The white body is thin, hard and slightly translucent.",
};

const DECORATION: Record<DecorationStyle, Record<Lang, string>> = {
  "iberian-painted": {
    en: "It is painted with bands and concentric semicircles in red-brown, typical of Iberian wares.",
    es: "Presenta decoración pintada de bandas y semicírculos concéntricos en rojo vinoso.",
    ca: "Presenta decoració pintada de bandes i semicercles concèntrics en vermell vinós.",
  },
  ovolo: {
    en: "A band of ovolo runs below the rim above a frieze of medallions.",
    es: "Un friso de ovas recorre la pieza bajo el borde.",
    ca: "Un fris d'ous recorre la peça sota la vora.",
  },
  stamped: {
    en: "It carries stamped crosses and a band of rouletting.",
    es: "Lleva decoración estampada de cruces y una banda de ruedecilla.",
    ca: "Porta decoració estampada de creus i una banda de rodeta.",
  },
  rilling: {
    en: "Fine horizontal rilling from the wheel covers the body.",
    es: "El cuerpo muestra finas estrías de torno.",
    ca: "El cos mostra fines estries de torn.",
  },
  "green-purple": {
    en: "Its decoration, in copper green and manganese purple, is drawn in quick strokes.",
    es: "La decoración, en verde de cobre y morado de manganeso, está trazada con rapidez.",
    ca: "La decoració, en verd de coure i morat de manganès, està traçada amb rapidesa.",
  },
  "glaze-drips": {
    en: "Darker runs of glaze stream down from the rim.",
    es: "Chorreones de vidriado más oscuro bajan desde el borde.",
    ca: "Regalims de vidrat més fosc baixen des de la vora.",
  },
  "blue-floral": {
    en: "It is decorated with blue floral motifs and a blue line at the rim.",
    es: "Está decorada con motivos florales en azul y un filete azul en el borde.",
    ca: "Està decorada amb motius florals en blau i un filet blau a la vora.",
  },
  lines: {
    en: "Two thin coloured lines run round the rim, a factory finish.",
    es: "Dos filetes de color recorren el borde, un acabado de fábrica.",
    ca: "Dos filets de color recorren la vora, un acabat de fàbrica.",
  },
  grooves: {
    en: "It is undecorated apart from a few incised grooves.",
    es: "No tiene decoración, salvo algunas acanaladuras.",
    ca: "No té decoració, tret d'algunes acanaladures.",
  },
  plain: { en: "The surface is plain, without decoration.", es: "La superficie es lisa, sin decoración.", ca: "La superfície és llisa, sense decoració." },
};

function decorationSentence(period: string, material: string, lang: Lang): string {
  return DECORATION[ceramicDecorationStyle(period, material)][lang];
}

function purposeSentence(typology: string, lang: Lang): string {
  const text: Record<string, Record<Lang, string>> = {
    amphora: {
      en: "It would have carried wine, olive oil or fish sauce in bulk.",
      es: "Serviría para transportar vino, aceite o salsas de pescado.",
      ca: "Serviria per transportar vi, oli o salses de peix.",
    },
    "cooking pot": {
      en: "Soot on the base shows it was used over an open fire.",
      es: "Conserva restos de hollín en la base.",
      ca: "Conserva restes de sutge a la base.",
    },
    "oil lamp": { en: "The nozzle is blackened from use.", es: "La piquera está ennegrecida por el uso.", ca: "El broc està ennegrit per l'ús." },
    "storage jar": {
      en: "It probably held grain or oil in a house or store.",
      es: "Se usaría para almacenar grano o aceite.",
      ca: "S'utilitzaria per emmagatzemar gra o oli.",
    },
  };
  const table: Record<Lang, string> = {
    en: `The ${typology} belonged to the household's table ware.`,
    es: "Formaba parte de la vajilla de mesa.",
    ca: "Formava part de la vaixella de taula.",
  };
  return (text[typology] ?? table)[lang];
}

export interface DescriptionInput {
  typology: string;
  material: string;
  period: string;
  site: string;
  context: string;
  dateText: string;
}

/** 2–4 sentences that name typology, material and period; mostly English, some Spanish or Catalan. */
export function ceramicDescription(input: DescriptionInput, rng: Rng): { text: string; lang: Lang } {
  const lang: Lang = rng.weighted([
    ["en", 0.65],
    ["es", 0.18],
    ["ca", 0.17],
  ] as const);
  const typ = (TYPOLOGY_WORDS[input.typology] ?? { en: input.typology, es: input.typology, ca: input.typology })[lang];
  const mat = (MATERIAL_WORDS[input.material] ?? { en: input.material, es: input.material, ca: input.material })[lang];
  const per = (PERIOD_WORDS[input.period] ?? { en: input.period, es: input.period, ca: input.period })[lang];
  let first: string;
  if (lang === "en") {
    const article = /^[aeiou]/i.test(mat) ? "An" : "A";
    first = rng.pick([
      `${article} ${mat} ${typ} of ${per}, recovered at ${input.site} (${input.context}).`,
      `${cap(typ)} in ${mat}, dating to ${per} (${input.dateText}).`,
      `This ${typ} is made of ${mat} and belongs to ${per}; it comes from ${input.site} (${input.context}).`,
    ]);
  } else if (lang === "es") {
    first = rng.pick([
      `${cap(typ)} de ${mat} ${per}, procedente de ${input.site}.`,
      `${cap(typ)} ${per} en ${mat}, hallazgo de ${input.site} (${input.dateText}).`,
    ]);
  } else {
    first = rng.pick([
      `${cap(typ)} de ${mat} ${per}, procedent de ${input.site}.`,
      `${cap(typ)} ${per} en ${mat}, del jaciment de ${input.site} (${input.dateText}).`,
    ]);
  }
  const extra = [rng.pick(CONDITION[lang]), decorationSentence(input.period, input.material, lang), purposeSentence(input.typology, lang)];
  if (lang === "en") extra.push(SURFACE[input.material] ?? "");
  const count = rng.int(1, 3);
  const chosen: string[] = [];
  while (chosen.length < count && extra.length > 0) {
    const [sentence] = extra.splice(rng.int(0, extra.length - 1), 1);
    if (sentence) chosen.push(sentence);
  }
  return { text: [first, ...chosen].join(" "), lang };
}
