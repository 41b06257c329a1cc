/**
 * Sharing the one Node thread with the web requests of the same process. An embedded database
 * (PGlite) runs each query on this thread and answers through promises that settle before any
 * timer or socket gets a turn, so a run of queries and the JavaScript between them holds the
 * event loop from its first await to its last unless it steps aside on purpose.
 */

/** How long import work may hold the event loop before it gives the other work of the process a turn. */
export const turnBudgetMs = 20;

/** One turn of the event loop: the timers and I/O that were waiting run before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A pacer for a long run of small steps: `await pace()` between steps gives the event loop a
 * turn once the run has held it for `budgetMs` since its last turn, and costs nothing otherwise.
 * So the loop is never held much longer than the budget plus one step, without a turn per step.
 */
export function eventLoopPacer(budgetMs: number, now: () => number = () => performance.now()): () => Promise<void> {
  let since = now();
  return async () => {
    if (now() - since < budgetMs) return;
    await yieldToEventLoop();
    since = now();
  };
}
