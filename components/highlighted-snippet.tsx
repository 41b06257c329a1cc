import type { Snippet } from "@/lib/rag/search/highlight";

/** A passage window with its matched words marked; ellipses show where it was cut. */
export function HighlightedSnippet({ snippet, lang }: { snippet: Snippet; lang?: string }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  snippet.highlights.forEach((highlight, index) => {
    if (highlight.start > at) parts.push(snippet.text.slice(at, highlight.start));
    parts.push(
      <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-stone-900">
        {snippet.text.slice(highlight.start, highlight.end)}
      </mark>,
    );
    at = highlight.end;
  });
  if (at < snippet.text.length) parts.push(snippet.text.slice(at));
  return (
    <span lang={lang && lang !== "und" ? lang : undefined}>
      {snippet.clippedStart && "… "}
      {parts}
      {snippet.clippedEnd && " …"}
    </span>
  );
}
