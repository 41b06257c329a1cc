"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type KeyboardEvent, type MouseEvent, type PointerEvent, useRef, useState, useTransition } from "react";
import { type RecordListParams, decadeChosen, decadeOf, decadeSpan, recordListHref } from "@/lib/archive/record-list-params";
import { formatYear } from "@/lib/format";

interface Decade {
  value: string;
  label: string;
  count: number;
}

function yearOf(value: string | undefined): number | undefined {
  return value !== undefined && /^-?\d{1,5}$/.test(value) ? Number(value) : undefined;
}

/**
 * The decade histogram, brushable. Each bar is a link to its decade's years, so without
 * JavaScript a bar sets one decade. With it: a click (or Enter) sets the decade and makes it the
 * start of a range; Shift+click (or Shift+Enter) on another bar extends the years from that start
 * to it; dragging across bars sets the years they span. Left and Right move between bars.
 */
export function DecadeBrushClient({ decades, params }: { decades: Decade[]; params: RecordListParams }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const from = yearOf(params.from);
  const to = yearOf(params.to);
  // The start of a Shift-extended range: the last bar chosen, else the chosen years' first decade.
  const [anchor, setAnchor] = useState<number | undefined>(from !== undefined ? decadeOf(from) : undefined);
  const [drag, setDrag] = useState<{ start: number; over: number } | null>(null);
  const dragged = useRef(false);
  const bars = useRef<(HTMLAnchorElement | null)[]>([]);
  const most = Math.max(1, ...decades.map((decade) => decade.count));

  const hrefFor = (first: number, second: number) => {
    const span = decadeSpan(first, second);
    return recordListHref(params, { from: String(span.from), to: String(span.to), page: undefined });
  };
  const go = (first: number, second: number) => {
    setAnchor(first);
    startTransition(() => router.push(hrefFor(first, second)));
  };
  const preview = drag ? decadeSpan(drag.start, drag.over) : null;

  const onClick = (event: MouseEvent<HTMLAnchorElement>, decade: number) => {
    if (dragged.current) {
      // The click that ends a drag: the drag already chose the years.
      dragged.current = false;
      event.preventDefault();
    } else if (event.shiftKey) {
      // Not the browser's "open in a new window": extend from the start (or begin at this decade).
      event.preventDefault();
      go(anchor ?? decade, decade);
    } else {
      setAnchor(decade);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number, decade: number) => {
    if (event.key === "Enter" && event.shiftKey) {
      event.preventDefault();
      go(anchor ?? decade, decade);
      return;
    }
    const target = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: decades.length - 1 }[event.key];
    if (target !== undefined && target >= 0 && target < decades.length) {
      event.preventDefault();
      bars.current[target]?.focus();
    }
  };
  const decadeUnder = (event: PointerEvent) => {
    const element = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>("[data-decade]");
    return element ? Number(element.dataset.decade) : undefined;
  };

  return (
    <div data-testid="facet-decades">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-stone-500">Decade</h3>
      <p id="decade-brush-hint" className="sr-only">
        A decade sets the years to it; Shift and Enter, or Shift-click, on another decade extends the years to that one; or drag across the bars.
      </p>
      <ol
        className="mt-1 flex h-16 touch-pan-y select-none items-end gap-0.5 overflow-x-auto"
        aria-label="Records per decade"
        aria-busy={pending || undefined}
        onPointerMove={(event) => {
          if (!drag) return;
          const over = decadeUnder(event);
          if (over !== undefined && over !== drag.over) setDrag({ ...drag, over });
        }}
        onPointerUp={() => {
          if (!drag) return;
          setDrag(null);
          if (drag.over !== drag.start) {
            // The click that may follow lands on a bar; no click at all when the drag ended elsewhere.
            dragged.current = true;
            setTimeout(() => (dragged.current = false), 0);
            go(drag.start, drag.over);
          }
        }}
        onPointerCancel={() => setDrag(null)}
        onPointerLeave={() => setDrag(null)}
      >
        {decades.map((item, index) => {
          const decade = Number(item.value);
          const chosen = preview ? decade >= preview.from && decade <= preview.to : decadeChosen(decade, from, to);
          return (
            <li key={item.value} className="flex h-full min-w-5 flex-col justify-end">
              <Link
                ref={(element) => {
                  bars.current[index] = element;
                }}
                href={hrefFor(decade, decade)}
                data-decade={decade}
                draggable={false}
                className={`block rounded-t outline-offset-2 hover:bg-accent-900 focus-visible:bg-accent-900 focus-visible:outline-2 focus-visible:outline-stone-900 ${chosen ? "bg-accent-900" : from !== undefined || to !== undefined ? "bg-stone-400" : "bg-accent-700"}`}
                style={{ height: `${Math.max(8, Math.round((item.count / most) * 100))}%` }}
                aria-label={`${item.label}: ${item.count.toLocaleString("en")} records`}
                aria-current={chosen ? "true" : undefined}
                aria-describedby="decade-brush-hint"
                title={`${item.label}: ${item.count.toLocaleString("en")}`}
                onPointerDown={(event) => {
                  if (event.button !== 0 || event.shiftKey) return;
                  dragged.current = false;
                  setDrag({ start: decade, over: decade });
                }}
                onClick={(event) => onClick(event, decade)}
                onKeyDown={(event) => onKeyDown(event, index, decade)}
              />
            </li>
          );
        })}
      </ol>
      <p className="mt-0.5 flex justify-between text-xs text-stone-500" aria-hidden="true">
        <span>{decades[0]!.label}</span>
        <span>{decades.at(-1)!.label}</span>
      </p>
      {(from !== undefined || to !== undefined) && (
        <p className="text-xs text-stone-600" data-testid="decade-range">
          Years {from !== undefined ? formatYear(from) : "…"} to {to !== undefined ? formatYear(to) : "…"} ·{" "}
          <Link href={recordListHref(params, { from: undefined, to: undefined, page: undefined })} className="link">
            Any year
          </Link>
        </p>
      )}
    </div>
  );
}
