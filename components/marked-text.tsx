import { highlightParts } from "@/lib/rag/search/highlight";

/** A text with the words of the search it was opened from marked (plain when there are no terms). */
export function MarkedText({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  return (
    <>
      {highlightParts(text, terms).map((part, index) =>
        part.marked ? (
          <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-stone-900" data-testid="query-mark">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
