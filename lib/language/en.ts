import type { LanguageData } from "./language-data.types";

export const en: LanguageData = {
  questionPhrases: {
    when: ["when", "what year", "in what year"],
    where: ["where"],
    who: ["who", "whom", "whose"],
    howMany: ["how many"],
    howMuch: ["how much", "how long", "how low", "how high", "how far", "how deep", "how old", "how big", "how heavy", "how tall", "how wide", "what percentage"],
    why: ["why"],
    how: ["how"],
    happened: ["what happened", "what did … do"],
  },
  notHow: ["how many", "how much", "how long", "how old", "how far", "how low", "how high", "how big", "how often", "how deep", "how tall", "how wide"],
  questionPrepositions: ["to", "by"],
  copulas: ["was", "is", "were", "are"],
  articles: ["the", "a", "an"],
  roleQualifiers: ["first", "last", "new", "old", "chief", "head"],
  interrogatives: ["what", "which", "whom", "whose", "how", "why", "where", "when", "who", "whats"],
  months: ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"],
  weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  numbers: {
    one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
    eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
    twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100, hundreds: 100, thousand: 1000, thousands: 1000,
  },
  stopWords: (
    "a an and are as at be by for from has have how i in is it its of on or that the this to was were what when where which who why with " +
    "did do does can could would should there their they them he she his her you your we our me my not no about tell any like"
  ).split(" "),
  sentenceStarters: (
    "the a an and but or if when then there this that these those it he she we they i you his her their my our in on at of to " +
    "for from with by as so not no yes"
  ).split(" "),
  institutionNouns: [],
  markerWords: [],
  nameParticles: ["of", "the", "and"],
  definiteArticles: ["the"],
  indefiniteArticles: ["a", "an"],
  placeNamePrepositions: ["in", "at", "from", "near", "into", "off", "on", "inside", "outside"],
  placingPrepositions: ["in", "at", "from", "near", "inside", "under", "beside", "behind", "on", "into"],
  ofWords: ["of"],
  personNameJoiners: [],
  notNames: "the a an in at on of from by after before when then this that these those there he she it they we his her their our my".split(" "),
  pronounDeterminers: ["the", "this", "that", "which", "each", "every", "any", "no", "another", "someone", "anyone"],
  functionWords: "a an as at be by for from i in is it of on or the to with".split(" "),
};
