/**
 * The text-search configuration a passage's original text is indexed with (weight A of
 * chunks.search_vector), by its language; its bridge translation is always indexed as English
 * (weight B). The keyword leg matches a passage with the query's lexemes of the same
 * configurations, so Spanish stems never score an English passage and the other way round.
 */
export const searchConfigs: Readonly<Record<string, "english" | "spanish">> = { en: "english", es: "spanish" };
export const queryConfigs = ["english", "spanish", "simple"] as const;
export type SearchConfig = (typeof queryConfigs)[number];

export function searchConfigOf(language: string | null | undefined): SearchConfig {
  return searchConfigs[language ?? ""] ?? "simple";
}

/** The same mapping in SQL, for a column holding the passage's language. */
export function searchConfigSql(column: string): string {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(column)) throw new Error(`unsafe column name: ${column}`);
  const cases = Object.entries(searchConfigs).map(([language, config]) => `WHEN '${language}' THEN '${config}'`);
  return `(CASE ${column} ${cases.join(" ")} ELSE 'simple' END)`;
}

/**
 * The record's title, for a passage's search vector (weight C) when the passage's own text does
 * not carry it: a group document drops a lone title beside long text (an abstract, a transcript),
 * and without it a query naming the record would not find the record's words at all. Counted
 * once per passage like any other lexeme; migration 20261201120000_title_terms adds it to
 * passages indexed before.
 */
export function titleTermsOf(title: string, text: string): string {
  const trimmed = title.trim();
  if (!trimmed) return "";
  return text.toLocaleLowerCase().includes(trimmed.toLocaleLowerCase()) ? "" : trimmed;
}
