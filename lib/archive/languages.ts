/**
 * A record's language value as the archival formats name it: ISO 639-2/B codes (EAD3's
 * `langcode` with `langencoding="iso639-2b"`), and the language's English name. Records hold
 * ISO 639-1 codes ("en", "es", "ca") or, from imports, three-letter codes or names; a value not
 * known here keeps its words and gets no code. Pure.
 */
const languages: [iso1: string, iso2b: string, name: string][] = [
  ["en", "eng", "English"],
  ["es", "spa", "Spanish"],
  ["ca", "cat", "Catalan"],
  ["fr", "fre", "French"],
  ["de", "ger", "German"],
  ["it", "ita", "Italian"],
  ["pt", "por", "Portuguese"],
  ["la", "lat", "Latin"],
  ["eu", "baq", "Basque"],
  ["gl", "glg", "Galician"],
  ["oc", "oci", "Occitan"],
  ["nl", "dut", "Dutch"],
  ["el", "gre", "Greek"],
  ["grc", "grc", "Ancient Greek"],
  ["ar", "ara", "Arabic"],
  ["he", "heb", "Hebrew"],
  ["ru", "rus", "Russian"],
  ["pl", "pol", "Polish"],
  ["zh", "chi", "Chinese"],
  ["ja", "jpn", "Japanese"],
];

const byCode = new Map<string, { code: string; name: string }>();
for (const [iso1, iso2b, name] of languages) {
  const entry = { code: iso2b, name };
  for (const key of [iso1, iso2b, name.toLowerCase()]) byCode.set(key, entry);
}
// ISO 639-2/T codes of the same languages.
for (const [terminology, bibliographic] of [
  ["fra", "fre"],
  ["deu", "ger"],
  ["eus", "baq"],
  ["nld", "dut"],
  ["ell", "gre"],
  ["zho", "chi"],
] as const) {
  byCode.set(terminology, byCode.get(bibliographic)!);
}

export interface ArchivalLanguage {
  /** ISO 639-2/B, when the value names a language known here. */
  code?: string;
  name: string;
}

/** The language a value names ("en", "eng", "English", "es-ES"), or null for an empty value. */
export function archivalLanguage(value: string): ArchivalLanguage | null {
  const written = value.replace(/\s+/g, " ").trim();
  if (!written) return null;
  const key = written.toLowerCase();
  const known = byCode.get(key) ?? byCode.get(key.split(/[-_]/)[0]!);
  return known ? { ...known } : { name: written };
}

/** The languages of a record's `language` values (text or a list), each once, in order. */
export function languagesOf(values: readonly unknown[]): ArchivalLanguage[] {
  const out = new Map<string, ArchivalLanguage>();
  for (const value of values.flatMap((item) => (Array.isArray(item) ? item : [item]))) {
    if (typeof value !== "string") continue;
    for (const part of value.split(/\s*[;,]\s*/)) {
      const language = archivalLanguage(part);
      if (language && !out.has(language.code ?? language.name)) out.set(language.code ?? language.name, language);
    }
  }
  return [...out.values()];
}
