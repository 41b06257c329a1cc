import Link from "next/link";
import { formatTimecode } from "./format";

/** What a source's line needs: its record, and where in it (a second of a recording, a page). */
export interface SourceLike {
  recordTitle: string;
  timeStart: number | null;
  page: number | null;
  location: string;
}

/** "Title at 01:23" for a recording, "Title, p. 4" for a page, else the title. */
export function sourceLabel(source: SourceLike): string {
  const where = source.timeStart !== null ? ` at ${formatTimecode(source.timeStart)}` : source.page !== null ? `, p. ${source.page}` : "";
  return `${source.recordTitle}${where}`;
}

/** An answer's numbered sources under it, each opening where it was cited. */
export function SourceList<T extends SourceLike>({
  sources,
  number,
  href,
}: {
  sources: readonly T[];
  number: (source: T) => number | string;
  href: (source: T) => string;
}) {
  if (sources.length === 0) return null;
  return (
    <ol className="mt-3 space-y-1 border-t border-stone-200 pt-2 text-xs" aria-label="Sources">
      {sources.map((source) => (
        <li key={number(source)} className="flex gap-1.5">
          <span className="font-medium">[{number(source)}]</span>
          <span>
            <Link href={href(source)} className="link" data-testid="citation">
              {sourceLabel(source)}
            </Link>
            {source.location && <span className="text-stone-500"> · {source.location}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}
