/**
 * Where the piece of `text` that starts at `start` ends when a long text is fed to a parser
 * `size` characters at a time (so a step-wise reader can give the event loop turns between
 * writes): never between the two halves of a surrogate pair.
 */
export function pieceEnd(text: string, start: number, size: number): number {
  const end = Math.min(text.length, start + size);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
