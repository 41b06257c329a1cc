import { afterEach, describe, expect, it, vi } from "vitest";
import { describeError } from "../../errors";
import { EmbeddingError } from "./embedder";
import { createLocalUseEmbedder } from "./local-use-embedder";
import { type ModelPool, ModelJobCancelledError, ModelPoolBusyError, createModelPool, modelThreadCount, modelWorkerFile } from "./model-pool";
import { runWithModelWork } from "./model-work";
import { gate } from "../../../tests/support/model-pool-gate";

const testWorker = new URL("../../../tests/support/model-pool-test-worker.mjs", import.meta.url);

const pools: ModelPool[] = [];
function pool(options: { threads?: number; queueLimit?: number; workerFile?: string | URL; backgroundShareMs?: number; clock?: () => number } = {}): ModelPool {
  const created = createModelPool({
    workerFile: options.workerFile ?? testWorker,
    threads: options.threads ?? 1,
    queueLimit: options.queueLimit ?? 8,
    backgroundShareMs: options.backgroundShareMs,
    clock: options.clock,
  });
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

describe("model thread pool", () => {
  it("starts interactive jobs before background jobs queued earlier", async () => {
    const models = pool();
    const held = gate();
    const order: string[] = [];
    const track = (promise: Promise<unknown>) => promise.then((value) => void order.push(String(value)));
    const done = [
      track(models.run(held.task)),
      track(models.run({ op: "echo", value: "index batch 1" }, { priority: "background" })),
      track(models.run({ op: "echo", value: "index batch 2" }, { priority: "background" })),
      track(models.run({ op: "echo", value: "query" }, { priority: "interactive" })),
    ];
    expect(models.waiting("background")).toBe(2);
    expect(models.waiting("interactive")).toBe(1);
    held.open();
    await Promise.all(done);
    expect(order).toEqual(["held", "query", "index batch 1", "index batch 2"]);
  });

  it("gives the index worker's batches a turn under a constant stream of requests, which still go first until then", async () => {
    // The clock moves 100 ms per finished request: the background job is due after ten of them.
    let now = 0;
    const models = pool({ backgroundShareMs: 1000, clock: () => now });
    const held = gate();
    const running = models.run(held.task);
    const order: string[] = [];
    let backgroundDone = false;
    const background = models.run({ op: "echo", value: "index batch" }, { priority: "background" }).then((value) => {
      backgroundDone = true;
      order.push(String(value));
    });
    let sent = 0;
    // Two clients, each asking again the moment its answer arrives: a request always waits.
    const client = async (): Promise<void> => {
      while (sent < 60) {
        const value = await models.run<string>({ op: "echo", value: `request ${++sent}` });
        order.push(value);
        now += 100;
        if (backgroundDone && sent >= 20) return;
      }
    };
    const clients = [client(), client()];
    held.open();
    await Promise.all([running, background, ...clients]);
    const turn = order.indexOf("index batch");
    // Requests first, while the batch had not waited its share; then the batch, with requests still coming.
    expect(order.slice(0, 9).every((value) => value.startsWith("request"))).toBe(true);
    expect(turn).toBeGreaterThanOrEqual(9);
    expect(turn).toBeLessThan(15);
    expect(order.length).toBeGreaterThan(turn + 1);
  });

  it("lets only one thread at a time take a due background job while requests wait", async () => {
    let now = 0;
    const models = pool({ threads: 2, backgroundShareMs: 1000, clock: () => now });
    const [first, second, batch] = [gate(), gate(), gate()];
    const running = [models.run(first.task), models.run(second.task)];
    const order: string[] = [];
    const track = (promise: Promise<unknown>) => promise.then((value) => void order.push(String(value)));
    const background = [
      track(models.run(batch.task, { priority: "background" })),
      track(models.run({ op: "echo", value: "index batch 2" }, { priority: "background" })),
    ];
    const query = track(models.run({ op: "echo", value: "query" }));
    now = 5000;
    first.open();
    await running[0];
    // The first free thread took the due batch (it holds it); the second serves the request, not the other due batch.
    second.open();
    await query;
    expect(order).toEqual(["query"]);
    batch.open();
    await Promise.all([...running, ...background]);
    // With no request waiting, the second batch may run beside the first.
    expect(order.slice(1).sort()).toEqual(["held", "index batch 2"]);
  });

  it("takes the priority and signal from the caller's model-work context", async () => {
    const models = pool();
    const held = gate();
    const order: string[] = [];
    const running = models.run(held.task);
    const background = runWithModelWork({ priority: "background" }, () => models.run({ op: "echo", value: "background" })).then((value) =>
      order.push(String(value)),
    );
    const interactive = models.run({ op: "echo", value: "interactive" }).then((value) => order.push(String(value)));
    held.open();
    await Promise.all([running, background, interactive]);
    expect(order).toEqual(["interactive", "background"]);
  });

  it("refuses an interactive job with a 503 and Retry-After when the queue is full, and still takes background work", async () => {
    const models = pool({ queueLimit: 2 });
    const held = gate();
    const running = models.run(held.task);
    const queued = [models.run({ op: "echo", value: 1 }), models.run({ op: "echo", value: 2 })];
    const refused = await models.run({ op: "echo", value: 3 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ModelPoolBusyError);
    expect(refused).toMatchObject({ code: "unavailable", status: 503 });
    expect((refused as ModelPoolBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const background = models.run({ op: "echo", value: "index" }, { priority: "background" });
    held.open();
    expect(await Promise.all([running, ...queued, background])).toEqual(["held", 1, 2, "index"]);
    expect(await models.run({ op: "ran" })).toEqual([1, 2, "index"]);
  });

  it("reports a dropped job as the client's cancellation, not as a server error", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const infos = vi.spyOn(console, "info").mockImplementation(() => undefined);
    try {
      expect(describeError(new ModelJobCancelledError())).toEqual({ code: "unavailable", message: "The request was cancelled." });
      expect(errors).not.toHaveBeenCalled();
      expect(infos).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
  });

  it("never runs a queued job whose request was aborted", async () => {
    const models = pool();
    const held = gate();
    const running = models.run(held.task);
    const client = new AbortController();
    const abandoned = models.run({ op: "echo", value: "abandoned" }, { signal: client.signal });
    const kept = models.run({ op: "echo", value: "kept" });
    client.abort();
    await expect(abandoned).rejects.toBeInstanceOf(ModelJobCancelledError);
    expect(models.waiting("interactive")).toBe(1);
    held.open();
    await Promise.all([running, kept]);
    expect(await models.run({ op: "ran" })).toEqual(["kept"]);
    // A request already gone does not even queue.
    await expect(models.run({ op: "echo", value: "late" }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(ModelJobCancelledError);
  });

  it("fails the job of a thread that dies, replaces the thread and runs what waited", async () => {
    const models = pool();
    const dying = models.run({ op: "exit" });
    const waiting = models.run({ op: "echo", value: "after the crash" });
    const error = await dying.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({ retryable: true });
    expect(await waiting).toBe("after the crash");
    // A task that throws fails its job only; the thread keeps serving.
    await expect(models.run({ op: "fail" })).rejects.toMatchObject({ name: "EmbeddingError", retryable: false });
    expect(await models.run({ op: "ran" })).toEqual(["after the crash"]);
  });

  it("sizes itself to the cores (at most four) unless told; auto leaves one for pages", () => {
    expect(modelThreadCount(undefined, 2)).toBe(2);
    expect(modelThreadCount(undefined, 1)).toBe(1);
    expect(modelThreadCount(undefined, 16)).toBe(4);
    expect(modelThreadCount(-1, 2)).toBe(1);
    expect(modelThreadCount(-1, 1)).toBe(1);
    expect(modelThreadCount(-1, 8)).toBe(7);
    expect(modelThreadCount(0, 8)).toBe(0);
    expect(modelThreadCount(3, 2)).toBe(3);
  });
});

describe("local sentence encoder on the model threads", () => {
  it("returns the same vectors, bit for bit, as on the calling thread, for requests and for the index worker", { timeout: 120_000 }, async () => {
    const texts = [
      "The harbour strike of 1951.",
      "A weaver from Sabadell remembers the mill.",
      "Bronze coin, Empúries.",
      "Letters",
      "What did the dockers demand?",
    ];
    const here = await createLocalUseEmbedder({ batchSize: 2, pool: null }).embed(texts, "passage");
    const pooled = createLocalUseEmbedder({ batchSize: 2, pool: pool({ threads: 2, workerFile: modelWorkerFile() }) });
    const asked = await pooled.embed(texts, "query");
    const indexed = await pooled.embed(texts, "passage", { priority: "background" });
    const bytes = (vectors: Float32Array[]) => vectors.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64"));
    expect(here).toHaveLength(texts.length);
    expect(bytes(asked)).toEqual(bytes(here));
    expect(bytes(indexed)).toEqual(bytes(here));
  });
});

describe("the index worker's batches on the model threads", () => {
  /** A pool that answers at once, noting each batch's size and how many ran together; text "tN" comes back as a vector pointing along axis N. */
  function countingPool(threads: number, requestsWaiting = 0) {
    const seen = { sizes: [] as number[], mostAtOnce: 0 };
    let running = 0;
    const fake: ModelPool = {
      threads,
      waiting: (priority) => (priority === "interactive" ? requestsWaiting : 0),
      close: async () => undefined,
      async run<Result>(task: { op: string; [field: string]: unknown }): Promise<Result> {
        const texts = task.texts as string[];
        seen.sizes.push(texts.length);
        running++;
        seen.mostAtOnce = Math.max(seen.mostAtOnce, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return texts.map((text) => Array.from({ length: 512 }, (_, axis) => (axis === Number(text.slice(1)) ? 1 : 0))) as Result;
      },
    };
    return { fake, seen };
  }
  const axes = (vectors: Float32Array[]) => vectors.map((vector) => vector.indexOf(1));
  const texts = (count: number) => Array.from({ length: count }, (_, index) => `t${index}`);

  it("keeps every thread busy, in order, however few the texts", async () => {
    const many = countingPool(2);
    const vectors = await createLocalUseEmbedder({ batchSize: 16, pool: many.fake }).embed(texts(40), "passage", { priority: "background" });
    expect(axes(vectors)).toEqual(texts(40).map((_, index) => index));
    expect(many.seen.mostAtOnce).toBe(2);
    expect(many.seen.sizes).toEqual([16, 16, 8]);

    // Sixteen coins' passages, one batch's worth, are shared between the two threads.
    const few = countingPool(2);
    await createLocalUseEmbedder({ batchSize: 16, pool: few.fake }).embed(texts(16), "passage", { priority: "background" });
    expect(few.seen).toEqual({ sizes: [8, 8], mostAtOnce: 2 });
  });

  it("takes small batches while requests wait for the threads", async () => {
    const busy = countingPool(2, 1);
    const vectors = await createLocalUseEmbedder({ batchSize: 16, pool: busy.fake }).embed(texts(16), "passage", { priority: "background" });
    expect(axes(vectors)).toEqual(texts(16).map((_, index) => index));
    expect(busy.seen.sizes).toEqual([4, 4, 4, 4]);
  });
});
