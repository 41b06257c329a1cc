/**
 * A readable diff of two texts for the record history: words (with the spaces after them) as the
 * unit, so a changed word in a long transcript shows as that word, not as a changed paragraph;
 * lines when the word diff would be too large to compute quickly; the whole text replaced when
 * even that is. Myers' O((N+M)·D) algorithm, after the common prefix and suffix are cut off.
 * Unchanged stretches far from any change are shortened (`elided`) so a one-word edit of a long
 * text reads as a few lines.
 */
export interface DiffPart {
  op: "same" | "added" | "removed";
  text: string;
  /** A "same" stretch shortened in the middle: `text` holds its start and end around " … ". */
  elided?: boolean;
}

/** Edits beyond which a diff is not worth computing at this granularity. */
const maxEdits = 2_000;

export function diffText(before: string, after: string, options: { context?: number } = {}): DiffPart[] {
  if (before === after) return before === "" ? [] : [{ op: "same", text: before }];
  const parts = diffTokens(words(before), words(after)) ??
    diffTokens(lines(before), lines(after)) ?? [
      ...(before ? [{ op: "removed" as const, text: before }] : []),
      ...(after ? [{ op: "added" as const, text: after }] : []),
    ];
  return elide(parts, options.context ?? 12);
}

function words(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The token diff as merged parts, or null when it needs more than `maxEdits` edits. */
function diffTokens(a: string[], b: string[]): DiffPart[] | null {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const middle = myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
  if (!middle) return null;
  const parts: DiffPart[] = [];
  const push = (op: DiffPart["op"], text: string) => {
    if (text === "") return;
    const last = parts.at(-1);
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push("same", a.slice(0, prefix).join(""));
  for (const [op, token] of middle) push(op, token);
  push("same", a.slice(a.length - suffix).join(""));
  // A removal directly after an addition reads better the other way round: old, then new.
  for (let index = 1; index < parts.length; index++) {
    if (parts[index]!.op === "removed" && parts[index - 1]!.op === "added") [parts[index - 1], parts[index]] = [parts[index]!, parts[index - 1]!];
  }
  return parts;
}

/** Myers' shortest edit script, as [op, token] steps; null beyond `maxEdits`. */
function myers(a: string[], b: string[]): [DiffPart["op"], string][] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((token) => ["added", token]);
  if (m === 0) return a.map((token) => ["removed", token]);
  const offset = Math.min(n + m, maxEdits) + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, maxEdits); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], edits: number): [DiffPart["op"], string][] {
  const steps: [DiffPart["op"], string][] = [];
  let x = a.length;
  let y = b.length;
  // trace[d] holds V as it was before round d, for k in [-d-1, d+1] (index k + d + 1).
  const at = (d: number, k: number) => trace[d]![k + d + 1]!;
  for (let d = edits; d > 0; d--) {
    const k = x - y;
    const down = k === -d || (k !== d && at(d, k - 1) < at(d, k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(d, previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      steps.push(["same", a[--x]!]);
      y--;
    }
    if (down) steps.push(["added", b[--y]!]);
    else steps.push(["removed", a[--x]!]);
  }
  while (x > 0 && y > 0) {
    steps.push(["same", a[--x]!]);
    y--;
  }
  return steps.reverse();
}

/** Shortens unchanged stretches to `context` words at each side that touches a change. */
function elide(parts: DiffPart[], context: number): DiffPart[] {
  return parts.map((part, index) => {
    if (part.op !== "same") return part;
    const tokens = words(part.text);
    const keepStart = index === parts.length - 1 ? context : index === 0 ? 0 : context;
    const keepEnd = index === 0 ? context : index === parts.length - 1 ? 0 : context;
    if (tokens.length <= keepStart + keepEnd + 4) return part;
    const start = tokens.slice(0, keepStart).join("");
    const end = tokens.slice(tokens.length - keepEnd).join("");
    return { op: "same", text: `${start}…${end ? " " : ""}${end}`, elided: true };
  });
}
