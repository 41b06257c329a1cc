import { maxCitedRecords } from "@/lib/archive/citation-formats";

/**
 * The records a researcher picked in the record list, kept across pages, searches and filters for
 * the browser tab (sessionStorage): the list's checkboxes add and remove, the selection bar cites
 * them in one file. Only ids are kept; the cite route reads each under the reader's access, so a
 * record that became unreadable meanwhile is reported as not found, never cited.
 */

export const selectionStorageKey = "mnemo:selected-records";
const changeEvent = "mnemo-selection-change";
const idPattern = /^[0-9A-Za-z-]{1,64}$/;

/** What the selection holds at most: what the cite route takes at once. */
export const maxSelectedRecords = maxCitedRecords;

/** Reads a stored selection; anything malformed reads as an empty one. */
export function parseSelection(stored: string | null): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter((id): id is string => typeof id === "string" && idPattern.test(id)))].slice(0, maxSelectedRecords);
  } catch {
    return [];
  }
}

/** The selection with `ids` added (in order, up to the maximum) or removed. */
export function changeSelection(selection: readonly string[], ids: readonly string[], selected: boolean): string[] {
  if (!selected) return selection.filter((id) => !ids.includes(id));
  const next = [...selection];
  for (const id of ids) if (!next.includes(id) && next.length < maxSelectedRecords && idPattern.test(id)) next.push(id);
  return next;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

// useSyncExternalStore needs the same array while nothing changed.
let cached: { raw: string | null; ids: string[] } = { raw: null, ids: [] };
const emptySelection: string[] = [];

export function readSelection(): string[] {
  const raw = storage()?.getItem(selectionStorageKey) ?? null;
  if (raw !== cached.raw) cached = { raw, ids: parseSelection(raw) };
  return cached.ids;
}

export function serverSelection(): string[] {
  return emptySelection;
}

export function writeSelection(ids: readonly string[]): void {
  const store = storage();
  if (!store) return;
  if (ids.length === 0) store.removeItem(selectionStorageKey);
  else store.setItem(selectionStorageKey, JSON.stringify(ids));
  window.dispatchEvent(new Event(changeEvent));
}

/** For useSyncExternalStore: changes from this page and from other tabs of the session. */
export function subscribeSelection(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === selectionStorageKey) onChange();
  };
  window.addEventListener(changeEvent, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(changeEvent, onChange);
    window.removeEventListener("storage", onStorage);
  };
}
