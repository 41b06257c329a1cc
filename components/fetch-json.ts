/**
 * Reads JSON from one of the app's own routes for a query: never from the HTTP cache, and a
 * status other than 2xx is an error that says the status (the query shows it as it needs).
 */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { cache: "no-store", ...init });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  return (await response.json()) as T;
}

/** A server type as it arrives in JSON: its dates are strings. */
export type Jsonified<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
