/**
 * A time limit for a call to a server outside the process (a model, a reranker, a
 * transcription endpoint) that ends the wait even when `fetch` would not.
 *
 * Node's `AbortSignal.timeout` holds its signal weakly, and undici follows a request's signal
 * weakly too: after a garbage collection mid-request the abort can be lost and the read waits
 * for ever (nodejs/node#55428, undici#4068). Here the timer closes over its controller, so
 * the abort always fires, and `race` settles the await on the abort itself whatever the
 * response stream does.
 */
export interface Deadline {
  /** Aborts when the time is spent or the caller's own signal aborts. */
  readonly signal: AbortSignal;
  /** Whether the time ran out (as against the caller aborting). */
  timedOut(): boolean;
  /** `promise`, or a rejection with the abort's reason as soon as the signal aborts. */
  race<T>(promise: Promise<T>): Promise<T>;
  /** Stops the timer and lets go of the caller's signal; call once the answer is read. */
  clear(): void;
}

export function startDeadline(timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    else controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  // Nobody may be racing when the abort comes; that is not an unhandled rejection.
  aborted.catch(() => undefined);
  return {
    signal: controller.signal,
    timedOut: () => expired,
    race: (promise) => Promise.race([promise, aborted]),
    clear() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}

/** Whether an error is a fetch or read that ended by its time limit or an abort. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}
