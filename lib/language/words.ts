/**
 * A word list written as one text, the words apart by spaces or line breaks, so a long list reads
 * as prose: words`el la els les`. For lists that hold phrases ("de la"), write an array.
 */
export function words(text: TemplateStringsArray): string[] {
  return text.join(" ").trim().split(/\s+/);
}
