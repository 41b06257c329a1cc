import { type AuthorityLink, authorityLabel } from "./authorities";

/**
 * Authority links as people write and read them: `Label <URI>`, or the URI alone. The record
 * form's list of links (one a line), the history's diff and the import's cells use this text;
 * what it stands for is checked on save (validate-record-values.ts), which quotes a bad URI.
 * Pure.
 */

/** The stored value (one link, or a list when `multiple`) as a list; anything malformed is left out. */
export function authorityLinksOf(value: unknown): AuthorityLink[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.flatMap((item): AuthorityLink[] => {
    if (typeof item !== "object" || item === null) return [];
    const { uri, label } = item as Record<string, unknown>;
    if (typeof uri !== "string") return [];
    return typeof label === "string" && label.trim() ? [{ uri, label }] : [{ uri }];
  });
}

/** `Label <URI>`, or the URI when the link has no label. */
export function formatAuthorityLink(link: AuthorityLink): string {
  const label = link.label?.replace(/\s+/g, " ").trim();
  return label ? `${label} <${link.uri}>` : link.uri;
}

/** A stored value as text, one link a line (the form's list, the history's diff). */
export function authorityText(value: unknown): string {
  return authorityLinksOf(value).map(formatAuthorityLink).join("\n");
}

/** The labels a reader sees: the cataloguer's, or "Wikidata Q1492" for a link without one. */
export function authorityLabels(value: unknown): string[] {
  return authorityLinksOf(value).map(authorityLabel);
}

/**
 * One link as written: `Label <URI>` or `URI`. Whatever is not in that shape is taken as the URI,
 * so the save quotes it back as it was written ("Nero" is not an authority URI).
 */
export function parseAuthorityLink(written: string): AuthorityLink {
  const text = written.trim();
  const match = /^(.*?)\s*<([^<>]*)>$/s.exec(text);
  if (!match) return { uri: text };
  const label = match[1]!.replace(/\s+/g, " ").trim();
  const uri = match[2]!.trim();
  return label ? { uri, label } : { uri };
}

/**
 * Several links in one text: split at line breaks and, with `semicolons` (an import's cell), at
 * `;` outside `<…>`, so a URI holding one stays whole. Blank pieces are dropped.
 */
export function splitAuthorityText(text: string, options: { semicolons?: boolean } = {}): string[] {
  const pieces: string[] = [];
  let current = "";
  let inUri = false;
  for (const character of text) {
    if (character === "<") inUri = true;
    else if (character === ">") inUri = false;
    if (character === "\n" || character === "\r" || (options.semicolons && character === ";" && !inUri)) {
      pieces.push(current);
      current = "";
      inUri = false;
      continue;
    }
    current += character;
  }
  pieces.push(current);
  return pieces.map((piece) => piece.trim()).filter(Boolean);
}

/** Several links written one a line (the form's list): each `Label <URI>` or `URI`. */
export function parseAuthorityLines(text: string): AuthorityLink[] {
  return splitAuthorityText(text).map(parseAuthorityLink);
}

/** How the form's hint and the import's docs describe a list of links. */
export const authorityLineFormat = "one link a line, as Label <URI> or the URI alone";
