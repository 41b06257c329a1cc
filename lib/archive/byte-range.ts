/**
 * Parses a single HTTP Range header against a file size (RFC 9110 §14). Returns null when the
 * header is absent or not a single bytes range (serve the whole file), "unsatisfiable" when it
 * lies outside the file (416).
 */
export function parseByteRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return null;
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}
