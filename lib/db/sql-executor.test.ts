import { describe, expect, it } from "vitest";
import { pgliteExecutor } from "./sql-executor";

/** The embedded database as its promises behave: an answer settles as a microtask, never a turn later. */
function embedded(log: string[]) {
  return {
    query: async <Row>(sql: string) => {
      log.push(sql);
      return { rows: [] as Row[], fields: [], affectedRows: 0 };
    },
    exec: async () => [],
    transaction: async <T>(work: (tx: never) => Promise<T>) => work({} as never),
  };
}

describe("pgliteExecutor", () => {
  it("gives the event loop a turn before each statement, so a streamed page's first part is sent before its panels' queries run", async () => {
    const log: string[] = [];
    const executor = pgliteExecutor(embedded(log) as never);
    // What Next.js and React do to send a page's shell: work scheduled for the next turn.
    setImmediate(() => log.push("shell sent"));
    await executor.query("SELECT panel_one");
    await executor.query("SELECT panel_two");
    expect(log).toEqual(["shell sent", "SELECT panel_one", "SELECT panel_two"]);
  });
});
