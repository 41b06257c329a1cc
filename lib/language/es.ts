import type { LanguageData } from "./language-data.types";
import { words } from "./words";

export const es: LanguageData = {
  questionPhrases: {
    when: ["cuándo", "en qué año", "qué año", "en qué fecha", "qué fecha"],
    where: ["dónde"],
    who: ["quién", "quiénes"],
    howMany: ["cuántos", "cuántas"],
    howMuch: ["qué precio", "cuánto", "cuánta", "qué porcentaje"],
    why: ["por qué", "porqué", "qué llevó a", "qué llevaba a", "qué hizo que", "qué motivó", "qué empujó a", "por qué razón", "por qué motivo"],
    how: ["cómo", "de qué manera", "de qué forma", "con qué se"],
    happened: ["qué pasó"],
    name: ["cómo se llamaba", "cómo se llamaban", "cómo se llama", "cómo se llaman", "cómo le llamaban", "cómo le decían", "qué nombre"],
  },
  causeCues: [
    "porque",
    "ya que",
    "puesto que",
    "debido a",
    "a causa de",
    "por culpa de",
    "para que",
    "por eso",
    "por lo que",
    "así que",
    "como no",
    "para no",
    "en vez de",
    "por miedo a",
    "a petición de",
    "a petición del",
    "en protesta por",
    "en protesta contra",
    "como protesta",
    "por esta razón",
    "por esa razón",
    "por ello",
    "por este motivo",
    "gracias a",
    "gracias al",
    "de modo que",
    "de manera que",
    "con el fin de",
    "dado que",
  ],
  causeOpeners: ["después del", "después de la", "después de que", "tras el", "tras la", "desde el cierre"],
  // Besides the phrases that ask a name (questionPhrases.name): "cómo se dice" asks a word, not a manner.
  notHow: ["cómo se dice"],
  questionPrepositions: ["a", "de", "con", "por", "en", "hacia"],
  copulas: ["era", "es", "fue", "eran", "son", "fueron"],
  auxiliaries: ["ha", "han", "había", "habían", "hubo"],
  articles: ["el", "la", "los", "las", "un", "una"],
  roleQualifiers: ["primer", "primera", "primero", "último", "última", "nuevo", "nueva", "viejo"],
  interrogatives: ["qué", "cuál", "cuáles", "cuándo", "cómo", "dónde", "quién", "quiénes", "porque"],
  months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
  weekdays: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
  durationWords: words`año años mes meses semana semanas día días hora horas minuto minutos tiempo`,
  yearsWords: ["años"],
  tens: { veinte: 20, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 },
  numbers: {
    dos: 2,
    tres: 3,
    cuatro: 4,
    cinco: 5,
    seis: 6,
    siete: 7,
    ocho: 8,
    nueve: 9,
    diez: 10,
    once: 11,
    doce: 12,
    trece: 13,
    catorce: 14,
    quince: 15,
    dieciséis: 16,
    diecisiete: 17,
    dieciocho: 18,
    diecinueve: 19,
    veinte: 20,
    treinta: 30,
    cuarenta: 40,
    cincuenta: 50,
    cien: 100,
    ciento: 100,
    mil: 1000,
  },
  stopWords: words`a al con de del el en es la las lo los o para por que se su sus un una y no me`,
  sentenceStarters: words`
    el la lo los las un una unos unas al a en de del por para con sin y o u pero porque que qué cuando donde dónde como cómo
    cuál cual quién ya no sí si también ahora hoy ayer mañana después antes aquí allí es se me te nos os le les yo tu tú él
    ella nosotros ellos ellas mi mis su sus este esta ese esa aquel aquella toda todo todos todas muy mucho poco cada
    siempre nunca todavía
  `,
  institutionNouns: words`
    policía guardia gobierno estado iglesia ayuntamiento dios biblia rey reina república ejército diputación universidad
    ministerio navidad pascua papa virgen señor
  `,
  markerWords: words`
    y os los las muy pero porque con como esta este estos estas está están estaba estaban ese esa eso esos esas mi mis su sus nos le
    lo uno unos unas por para hay había fue fueron también solo sólo todavía ya nada nadie nunca siempre cuando donde dónde cómo yo él
    nosotros ellos ellas tiene tienen tenía tenían hacer año años ahora hoy mañana ayer después antes pueblo agua hijo hija padre
    madre hermano hermana abuelo abuela mujer mujeres niño niños trabajo vez veces entonces aquí allí algo alguien mucho mucha muchos
    muchas todo toda todos todas otro otra otros otras
  `,
  nameParticles: ["de", "del", "de la", "de los", "de las", "la", "las", "los", "el", "y", "e"],
  definiteArticles: ["el", "la", "los", "las"],
  indefiniteArticles: ["un", "una"],
  placeNamePrepositions: ["en", "a", "al", "de", "del", "desde", "junto a", "cerca de"],
  placingPrepositions: ["en", "dentro de", "bajo", "junto a"],
  ofWords: ["de", "del"],
  personNameJoiners: ["de", "del", "y", "la"],
  notNames: words`el la los las lo un una en a al de del por con después cuando aquella`,
  pronounDeterminers: [],
  functionWords: words`de del el en es la las lo los o que se un una uno y`,
};
