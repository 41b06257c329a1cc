"use client";

import { useCallback, useRef, useState } from "react";

/** How a stream ended: read to its end, stopped by the user, or failed with a message to show. */
export type StreamEnd = { ended: "done" } | { ended: "stopped" } | { ended: "failed"; message: string };

/** Splits a streamed body into lines as they arrive and hands each parsed line to `onLine`. */
export async function readNdjson(body: NonNullable<Response["body"]>, onLine: (value: unknown) => void): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
      if (line) onLine(JSON.parse(line));
    }
  }
}

/**
 * One NDJSON stream at a time (the ask panel's answers and research runs): `stream` POSTs a JSON
 * body, hands each line to `onLine` as it arrives and resolves with how the stream ended; `stop`
 * aborts the running one; `busy` is true meanwhile. A refused request ends "failed" with the
 * server's error message (or its status), a broken one with the error's own message.
 */
export function useNdjsonStream() {
  const [busy, setBusy] = useState(false);
  const abortRef = useRef<AbortController | null>(null);

  const stop = useCallback(() => abortRef.current?.abort(), []);

  const stream = useCallback(async (url: string, body: unknown, onLine: (value: unknown) => void): Promise<StreamEnd> => {
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const refusal = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(refusal?.error?.message ?? `The server answered ${response.status}.`);
      }
      await readNdjson(response.body, onLine);
      return { ended: "done" };
    } catch (error) {
      if (controller.signal.aborted) return { ended: "stopped" };
      return { ended: "failed", message: error instanceof Error ? error.message : "The question could not be sent." };
    } finally {
      setBusy(false);
      abortRef.current = null;
    }
  }, []);

  return { busy, stream, stop };
}
