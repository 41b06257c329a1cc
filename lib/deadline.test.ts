import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { isAbortError, startDeadline } from "./deadline";

const never = () => new Promise<never>(() => undefined);

describe("startDeadline", () => {
  it("ends a wait that would never end, as a TimeoutError naming the limit", async () => {
    const deadline = startDeadline(30);
    const error = await deadline.race(never()).catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
    expect((error as Error).message).toBe("no answer within 30 ms");
    expect(deadline.timedOut()).toBe(true);
    expect(deadline.signal.aborted).toBe(true);
  });

  it("follows the caller's signal, and says it was not the time", async () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    const pending = deadline.race(never()).catch((caught: unknown) => caught);
    caller.abort(new Error("the reader went away"));
    expect(((await pending) as Error).message).toBe("the reader went away");
    expect(deadline.timedOut()).toBe(false);
    deadline.clear();
    const already = startDeadline(60_000, caller.signal);
    expect(already.signal.aborted).toBe(true);
    already.clear();
  });

  it("passes a settled answer through, and a cleared deadline never fires", async () => {
    const deadline = startDeadline(20);
    expect(await deadline.race(Promise.resolve("answer"))).toBe("answer");
    deadline.clear();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.timedOut()).toBe(false);
  });

  it("ends a response body that stalls half way, on a real socket", async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("half an ans");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const deadline = startDeadline(300);
      // Under load the headers may come after the limit too: either way the wait ends in time.
      const reading = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { signal: deadline.signal }).then((response) => response.text());
      const error = await deadline.race(reading).catch((caught: unknown) => caught);
      expect(isAbortError(error)).toBe(true);
      deadline.clear();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
