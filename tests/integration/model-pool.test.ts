import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleApiRequest } from "../../lib/api/handle-api-request";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type ModelPool, createModelPool } from "../../lib/rag/embed/model-pool";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { apiRequest, callApi } from "../support/api-request";
import { closeAfterAll } from "../support/close-after-all";
import { createUser, principalOf, testIndexSpace } from "../support/factories";
import { serviceRuntime } from "../support/service-runtime";
import { openTestDatabase } from "../support/test-database";
import { gate } from "../support/model-pool-gate";

/**
 * The model threads seen from the agent API: a full queue is a 503 with Retry-After from
 * /api/v1/search, and a search whose client went away while its query waited for a thread is
 * never embedded. The pool is the real one; its thread runs the test worker, whose "hold" job
 * keeps the one thread busy until the test lets go, so what waits is known without timing.
 */
const hash = createHashEmbedder({ dimension: 64 });
const origin = "http://mnemo.test";
const testWorker = new URL("../support/model-pool-test-worker.mjs", import.meta.url);

let db: Database;
let space: IndexSpace;
let token: string;
let models: ModelPool;

/** The hash embedder, its every call first taking a turn on the pool (the thread echoes the first text). */
const pooledEmbedder: Embedder = {
  ...hash,
  async embed(texts, kind, work) {
    await models.run({ op: "echo", value: texts[0] }, work);
    return hash.embed(texts, kind);
  },
};

function deps() {
  return serviceRuntime(db, { embedder: pooledEmbedder, space, descriptor: createDescriptorEmbedder(), origin }).apiDeps;
}

/** Lets the event loop turn until `condition` holds (bounded in turns, not in time). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100_000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, hash);
  const user = await createUser(db.prisma, { role: "researcher" });
  token = (await createApiToken(db.prisma, await principalOf(db.prisma, user.id), { name: "pool", expiresInDays: 30, scopes: ["read"] })).token;
  models = createModelPool({ workerFile: testWorker, threads: 1, queueLimit: 1 });
});
closeAfterAll(() => db);
afterAll(async () => models?.close());

describe("model threads behind /api/v1/search", () => {
  it("answers 503 with Retry-After while the model queue is full, and searches again once it drains", async () => {
    const held = gate();
    const running = models.run(held.task);
    const filler = models.run({ op: "echo", value: "filler" });
    const refused = await callApi(deps(), "semantic_search", { query: "harbour strike" }, { origin, token });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("unavailable");
    held.open();
    await Promise.all([running, filler]);
    const served = await callApi(deps(), "semantic_search", { query: "harbour strike" }, { origin, token });
    expect(served.status).toBe(200);
  });

  it("never embeds the query of a search whose client went away while it waited", async () => {
    const held = gate();
    const running = models.run(held.task);
    const client = new AbortController();
    const { operation, request, params } = apiRequest("semantic_search", { query: "abandoned question" }, { origin, token });
    const answer = handleApiRequest(operation, new Request(request, { signal: client.signal }), params, deps());
    await until(() => models.waiting("interactive") === 1);
    client.abort();
    expect((await answer).status).toBe(503);
    expect(models.waiting("interactive")).toBe(0);
    held.open();
    await running;
    expect((await callApi(deps(), "semantic_search", { query: "kept question" }, { origin, token })).status).toBe(200);
    const ran = await models.run<unknown[]>({ op: "ran" });
    expect(ran).toContain("kept question");
    expect(ran).not.toContain("abandoned question");
  });
});
