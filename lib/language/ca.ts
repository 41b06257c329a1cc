import type { LanguageData } from "./language-data.types";
import { words } from "./words";

export const ca: LanguageData = {
  questionPhrases: {
    when: ["quan", "quin any", "en quin any", "quina data", "en quina data"],
    where: ["on"],
    who: ["qui"],
    howMany: ["quants", "quantes"],
    howMuch: ["quin preu", "quant", "quanta", "quin percentatge"],
    why: [
      "per què",
      "perquè",
      "què va portar a",
      "què portava a",
      "què va dur a",
      "què va fer que",
      "què va motivar",
      "què va empènyer",
      "per quin motiu",
      "per quina raó",
    ],
    how: ["com", "de quina manera", "de quina forma", "amb què va", "amb què van", "amb què es"],
    happened: ["què va passar"],
    name: ["com es deia", "com es deien", "com es diu", "com es diuen", "com li deien", "com s'anomena", "com s'anomenava", "quin nom"],
  },
  causeCues: [
    "perquè",
    "ja que",
    "com que",
    "a causa de",
    "per culpa de",
    "per tal que",
    "per això",
    "per la qual cosa",
    "així que",
    "per no",
    "en comptes de",
    "per por de",
    "a petició de",
    "a petició del",
    "a petició dels",
    "en protesta per",
    "en protesta pel",
    "en protesta contra",
    "com a protesta",
    "per aquesta raó",
    "per aquest motiu",
    "gràcies a",
    "gràcies al",
    "de manera que",
    "de forma que",
    "per tal de",
    "atès que",
    "donat que",
  ],
  causeOpeners: ["després del", "després de la", "després que", "arran del", "arran de la"],
  // Besides the phrases that ask a name (questionPhrases.name): "com es deu dir" asks a word, not a manner.
  notHow: ["com es deu dir"],
  questionPrepositions: ["a", "de", "amb", "per", "d'"],
  copulas: ["era", "és", "fou", "va ser", "eren", "són"],
  auxiliaries: ["va", "van", "ha", "han", "havia", "havien"],
  articles: ["el", "la", "els", "les", "un", "una", "en", "na", "l'"],
  roleQualifiers: ["primer", "primera", "darrer", "darrera", "nou", "nova", "vell"],
  interrogatives: ["què", "quan", "quin", "quina", "quins", "quines", "qui", "perquè"],
  months: ["gener", "febrer", "març", "abril", "maig", "juny", "juliol", "agost", "setembre", "octubre", "novembre", "desembre"],
  weekdays: ["dilluns", "dimarts", "dimecres", "dijous", "divendres", "dissabte", "diumenge"],
  durationWords: words`any anys mes mesos setmana setmanes dia dies hora hores minut minuts temps`,
  yearsWords: ["anys"],
  tens: { vint: 20, trenta: 30, quaranta: 40, cinquanta: 50, seixanta: 60, setanta: 70, vuitanta: 80, noranta: 90 },
  numbers: {
    dos: 2,
    dues: 2,
    tres: 3,
    quatre: 4,
    cinc: 5,
    sis: 6,
    set: 7,
    vuit: 8,
    nou: 9,
    deu: 10,
    onze: 11,
    dotze: 12,
    tretze: 13,
    catorze: 14,
    quinze: 15,
    setze: 16,
    disset: 17,
    divuit: 18,
    dinou: 19,
    vint: 20,
    trenta: 30,
    quaranta: 40,
    cent: 100,
    mil: 1000,
  },
  stopWords: words`a al amb com de del el els en es i la les no o on per que se un una va van vam vaig vas`,
  sentenceStarters: words`
    el la els les un una uns unes al als a en de del dels des per amb sense i o però perquè que què quan on com quin quina
    quins quines qui ja no sí si també ara avui ahir demà després abans aquí allà hi ho va vam van vaig es se s'hi em et ens
    us li jo tu ell ella nosaltres ells elles meu meva seu seva aquest aquesta aquell aquella tot tots totes molt poc cada
    sempre mai encara
  `,
  institutionNouns: words`
    policia guardia govern estat església ajuntament déu bíblia rei reina república exèrcit diputació universitat ministeri
    nadal pasqua papa verge senyor
  `,
  markerWords: words`
    amb els dels pels als meu meva meus meves teu teva seu seva seus seves nostre nostra molt molta molts moltes però perquè això allò
    aquest aquesta aquests aquestes aquell aquells aquelles hi ho vam vaig vas també només encara gairebé tothom ningú doncs així quan
    què ara avui demà ahir fins sense després abans davant darrere tot tots totes tota jo ell elles ells nosaltres vosaltres sóc són
    és eren teníem tenim tinc fer feia feien veure anar tenir dir poble aigua anys dona dones nen nens noia noi pare mare fill filla
    germà germana avi àvia ens em et mai res cap uns unes sempre vegada vegades llavors aleshores gaire gens fa feina altre altra
    altres deia veia queia riu viu
  `,
  nameParticles: ["de", "del", "dels", "de la", "de les", "la", "les", "el", "els", "i", "d", "l"],
  definiteArticles: ["el", "la", "els", "les", "l'"],
  indefiniteArticles: ["un", "una"],
  placeNamePrepositions: ["en", "a", "al", "de", "del", "prop de", "des de", "dins"],
  placingPrepositions: ["en", "dins", "sota", "al costat de"],
  ofWords: ["de", "del"],
  personNameJoiners: ["de", "del", "i", "la"],
  notNames: words`el la els les un una en a al de del per amb després quan aquell aquella`,
  pronounDeterminers: [],
  functionWords: words`de del el els en es et i la les o per que se un una`,
};
