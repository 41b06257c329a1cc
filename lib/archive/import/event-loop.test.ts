import { describe, expect, it } from "vitest";
import { eventLoopPacer, yieldToEventLoop } from "./event-loop";

describe("eventLoopPacer", () => {
  it("gives the event loop a turn once the budget is spent, and not before", async () => {
    let clock = 0;
    const pace = eventLoopPacer(20, () => clock);
    let turns = 0;
    const watch = () => setImmediate(() => turns++);

    watch();
    clock = 19;
    await pace();
    expect(turns).toBe(0);

    clock = 20;
    await pace();
    expect(turns).toBe(1);

    // The budget starts again from that turn.
    watch();
    clock = 39;
    await pace();
    expect(turns).toBe(1);
    clock = 40;
    await pace();
    expect(turns).toBe(2);
  });

  it("yieldToEventLoop lets a waiting callback run first", async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    await yieldToEventLoop();
    expect(ran).toBe(true);
  });
});
