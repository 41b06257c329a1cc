/**
 * XML text for OAI-PMH responses. Every value is escaped, and characters XML 1.0 cannot carry
 * at all (C0 controls other than tab, newline and return; lone surrogates; U+FFFE and U+FFFF)
 * are removed: a record holding one must still give a well-formed response.
 */
const illegalInXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without the characters XML 1.0 forbids. */
export function xmlSafe(text: string): string {
  return text.replace(illegalInXml, "");
}

/** Text content: &, < and > escaped (and `]]>` cannot form). */
export function escapeText(text: string): string {
  return xmlSafe(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** An attribute value in double quotes: also `"`, and tab/newline/return kept as references (not normalised away). */
export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

export type Attributes = Record<string, string | number | undefined>;

function attributesOf(attributes: Attributes): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join("");
}

/** An element with escaped text content. */
export function textElement(name: string, text: string, attributes: Attributes = {}): string {
  return `<${name}${attributesOf(attributes)}>${escapeText(text)}</${name}>`;
}

/** An element around children that are already XML. */
export function element(name: string, children: string | string[], attributes: Attributes = {}): string {
  const inner = Array.isArray(children) ? children.join("") : children;
  return inner === "" ? `<${name}${attributesOf(attributes)}/>` : `<${name}${attributesOf(attributes)}>${inner}</${name}>`;
}
