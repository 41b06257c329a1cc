import type { IndexSegment } from "@/lib/archive/field-definitions";
import { formatTimecode } from "./format";

/**
 * A recording's index (OHMS index points): each segment's time, title, synopsis and keywords.
 * Beside a player each segment is a button that plays from its start; without one, a list.
 */
export function IndexSegmentList({ label, segments, onPlay }: { label: string; segments: IndexSegment[]; onPlay?: (seconds: number) => void }) {
  return (
    <section aria-label={label} className="space-y-1">
      <h3 className="text-sm font-semibold text-stone-700">{label}</h3>
      <ol className="space-y-1 rounded-md border border-stone-200 bg-white p-2">
        {segments.map((segment, index) => {
          const body = (
            <>
              <span className={`font-mono text-xs leading-6 ${onPlay ? "text-accent-800" : "text-stone-500"}`}>{formatTimecode(segment.start)}</span>
              <span>
                <span className="font-semibold text-stone-900">{segment.title || "Untitled segment"}</span>
                {segment.synopsis && <span className="block text-stone-700">{segment.synopsis}</span>}
                {segment.keywords.length > 0 && <span className="block text-xs text-stone-500">Keywords: {segment.keywords.join("; ")}</span>}
              </span>
            </>
          );
          return (
            <li key={`${segment.start}-${index}`} data-segment={index}>
              {onPlay ? (
                <button
                  type="button"
                  onClick={() => onPlay(segment.start)}
                  className="grid w-full grid-cols-[4.5rem_1fr] gap-x-3 rounded-md px-2 py-1.5 text-left text-sm hover:bg-stone-100"
                >
                  {body}
                </button>
              ) : (
                <div className="grid grid-cols-[4.5rem_1fr] gap-x-3 px-2 py-1.5 text-sm">{body}</div>
              )}
            </li>
          );
        })}
      </ol>
      {onPlay && <p className="field-hint">Select a segment to play the recording from its start.</p>}
    </section>
  );
}
