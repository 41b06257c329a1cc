/**
 * JSON-LD as a page embeds it in `<script type="application/ld+json">`. The HTML parser ends a
 * script element at the first `</script` whatever the JSON says, and `<!--` changes how it reads
 * the rest, so `<` (and `>`, `&`, for good measure) are written as JSON's `\u003c`-style escapes:
 * the same JSON to a JSON-LD reader, never markup to the HTML parser. U+2028 and U+2029 are
 * escaped too, for readers that still treat them as line ends. Pure.
 */
const escapes: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

export function jsonLdScriptText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => escapes[character]!);
}
