"use client";

import { useSyncExternalStore } from "react";
import { citationFiles, citationFormats, citeSelectionHref } from "@/lib/archive/citation-formats";
import { changeSelection, maxSelectedRecords, readSelection, serverSelection, subscribeSelection, writeSelection } from "./record-selection";

function useSelection(): string[] {
  return useSyncExternalStore(subscribeSelection, readSelection, serverSelection);
}

/** A row's checkbox: adds the record to the selection kept across pages. */
export function SelectRecordClient({ id, title }: { id: string; title: string }) {
  const selection = useSelection();
  const checked = selection.includes(id);
  const full = !checked && selection.length >= maxSelectedRecords;
  return (
    <input
      type="checkbox"
      className="mt-0.5 size-4"
      aria-label={`Select “${title}”`}
      checked={checked}
      disabled={full}
      title={full ? `At most ${maxSelectedRecords} records can be selected` : undefined}
      onChange={(event) => writeSelection(changeSelection(readSelection(), [id], event.target.checked))}
    />
  );
}

/**
 * The selection across pages: how many, select or unselect this page's records, cite them all in
 * one file (RIS, BibTeX, CSL-JSON), clear. Nothing shows until something is selected, except the
 * "Select this page" button.
 */
export function SelectionBarClient({ pageIds }: { pageIds: string[] }) {
  const selection = useSelection();
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selection.includes(id));
  const room = maxSelectedRecords - selection.length;
  return (
    <div
      role="group"
      aria-label="Selected records"
      className="order-last flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600 sm:order-none"
      data-testid="selection-bar"
    >
      <button
        type="button"
        className="btn"
        disabled={!pageSelected && room <= 0}
        onClick={() => writeSelection(changeSelection(readSelection(), pageIds, !pageSelected))}
      >
        {pageSelected ? "Unselect this page" : "Select this page"}
      </button>
      <span aria-live="polite" data-testid="selection-count">
        {selection.length === 0 ? "No records selected" : `${selection.length} selected${selection.length >= maxSelectedRecords ? ` (the most at once)` : ""}`}
      </span>
      {selection.length > 0 && (
        <>
          <span>Cite the selection:</span>
          {citationFormats.map((format, index) => (
            <span key={format}>
              {index > 0 && <span aria-hidden="true">· </span>}
              <a
                href={citeSelectionHref(
                  format,
                  selection.map((recordId) => ({ recordId })),
                )}
                download
                className="link"
              >
                {citationFiles[format].label}
              </a>
            </span>
          ))}
          <button type="button" className="link" onClick={() => writeSelection([])}>
            Clear selection
          </button>
        </>
      )}
    </div>
  );
}
