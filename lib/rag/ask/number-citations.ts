import { citationMarkerPattern } from "../../llm/citation-markers";

/**
 * Citation numbers as the reader sees them: [1], [2], … in the order the answer first cites
 * them, without gaps, whatever numbers the sources had when they were given to the answerer.
 * The same numbering serves the streamed answer (piece by piece, as markers arrive) and the
 * complete one (after verification), so the sources list always matches the markers. A source's
 * own bracketed numbers reach it already literal ("［1］", see citation-markers.ts). Pure.
 */

/** A marker that may still be completed by the next piece of a stream: "[", "[1", "[1, 2". */
const openMarkerAtEnd = /\[[\d,\s]*$/;
/** Longer than any real marker: a "[" this far back is text, not a marker being written. */
const longestOpenMarker = 24;

export interface CitationNumbering {
  /** The source numbers in display order: `order[0]` is the source shown as [1]. */
  order: number[];
}

function numbersIn(marker: string): number[] {
  return marker.split(",").map((raw) => Number(raw.trim()));
}

/**
 * Rewrites every marker of `text` with display numbers, assigning new ones in order of first
 * appearance; numbers `isSource` rejects are left out (a marker left empty disappears).
 */
function rewriteMarkers(text: string, numbering: CitationNumbering, isSource: (number: number) => boolean): string {
  return text.replace(new RegExp(`([ \\t]*)${citationMarkerPattern.source}`, "g"), (_, space: string, list: string) => {
    const shown: number[] = [];
    for (const number of numbersIn(list)) {
      if (!isSource(number)) continue;
      if (!numbering.order.includes(number)) numbering.order.push(number);
      const display = numbering.order.indexOf(number) + 1;
      if (!shown.includes(display)) shown.push(display);
    }
    return shown.length > 0 ? `${space}[${shown.join(", ")}]` : "";
  });
}

/** The complete answer renumbered: markers [1], [2]… by first appearance, and that order. */
export function renumberCitations(text: string, isSource: (number: number) => boolean = () => true): { text: string } & CitationNumbering {
  const numbering: CitationNumbering = { order: [] };
  return { text: rewriteMarkers(text, numbering, isSource), order: numbering.order };
}

/**
 * The streamed answer renumbered as it arrives. A marker split across pieces ("[", "2]") is held
 * back until it is complete, so the reader never sees a source's given number. `push` returns
 * the text to show now and the sources cited for the first time in it, in display order.
 */
export function createStreamingNumbering(isSource: (number: number) => boolean): {
  push(piece: string): { text: string; introduced: number[] };
  flush(): { text: string; introduced: number[] };
  readonly order: readonly number[];
} {
  const numbering: CitationNumbering = { order: [] };
  let held = "";
  const emit = (text: string) => {
    const before = numbering.order.length;
    const rewritten = rewriteMarkers(text, numbering, isSource);
    return { text: rewritten, introduced: numbering.order.slice(before) };
  };
  return {
    push(piece: string) {
      const text = held + piece;
      const open = openMarkerAtEnd.exec(text);
      const cut = open && text.length - open.index < longestOpenMarker ? open.index : text.length;
      held = text.slice(cut);
      return emit(text.slice(0, cut));
    },
    flush() {
      const rest = held;
      held = "";
      return emit(rest);
    },
    get order() {
      return numbering.order;
    },
  };
}
