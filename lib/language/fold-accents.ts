/**
 * A text without its accents and other combining marks: "Sant Romà" → "Sant Roma", "año" →
 * "ano", "l·l" keeps its middle dot. Case is kept: callers that compare without case lower it
 * themselves. Pure.
 */
export function foldAccents(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "");
}
