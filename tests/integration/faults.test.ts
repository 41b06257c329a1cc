import { type AddressInfo, type Socket, connect, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Principal } from "../../lib/acl";
import { closedCors } from "../../lib/api/cors";
import { handleApiRequest } from "../../lib/api/handle-api-request";
import { type ApiOperation, operations } from "../../lib/api/operations";
import { createRateLimiter } from "../../lib/rate-limit";
import { authenticateApiTokenWithId, createApiToken } from "../../lib/auth/api-tokens";
import { saveRecord } from "../../lib/archive/save-record";
import { retryFailed } from "../../lib/admin/reindex-jobs";
import { type Database, openDatabase } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { createOpenAiCompatibleGenerator } from "../../lib/llm/chat-generators";
import { type AskContext, type AskOutcome, askUnavailableMessage, failureMessage } from "../../lib/rag/ask/ask";
import { askInThread, getThread } from "../../lib/rag/ask/threads";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { createOpenAiCompatibleEmbedder } from "../../lib/rag/embed/openai-compatible-embedder";
import { ensureIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { createHttpReranker, rerankSkippedNote } from "../../lib/rag/search/rerank";
import { type SearchContext, meaningSearchUnavailableMessage, searchArchive } from "../../lib/rag/search/search-archive";
import { testMediaStorage } from "../support/service-runtime";
import { type FakeChatServer, startFakeChatServer } from "../support/fake-chat-server";
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from "../support/fake-embedding-server";
import { type FakeRerankServer, startFakeRerankServer } from "../support/fake-rerank-server";
import {
  addMember,
  createProject,
  createRecord,
  createSection,
  createUser,
  principalOf,
  titleSummaryFields,
  saveAllGroup,
  testIndexSpace,
} from "../support/factories";
import { duplicatePassages } from "../support/index-checks";
import { openTestDatabase, serveTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Provider outages over real HTTP against loopback fakes: the embedding model (connection
 * refused, HTTP 500, HTTP 401, no answer in time), the reranker and the answer model. Search
 * says in a sentence that meaning search is unavailable (503); queued indexing backs off,
 * parks with its reason and is indexed once the provider is back and an admin retries; a failed
 * reranker leaves the fused order with a note; a failed answer model leaves an ask "failed"
 * with no answer text; the agent API says the same. (Refused and 503 answer models:
 * ask.test.ts.)
 */
const dimension = 32;
/** Clients meant to meet an outage give up quickly; clients of a healthy server never should. */
const timeoutMs = 400;
const steadyTimeoutMs = 30_000;
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };
const outages = ["refused", "error", "hang"] as const;
type Outage = (typeof outages)[number];

let db: Database;
let fake: FakeEmbeddingServer;
let embedder: Embedder;
let hastyEmbedder: Embedder;
let space: IndexSpace;
let context: SearchContext;
let hastyContext: SearchContext;
let section: { id: string; slug: string };
let projectId: string;
let admin: Principal;
let reader: Principal;

/** Puts the embedding server into an outage for the duration of `work`. */
async function during<T>(outage: Outage | "unauthorized", work: () => Promise<T>): Promise<T> {
  if (outage === "refused") await fake.down();
  else fake.outage = outage;
  try {
    return await work();
  } finally {
    if (outage === "refused") await fake.up();
    else fake.outage = "none";
  }
}

beforeAll(async () => {
  db = await openTestDatabase();
  fake = await startFakeEmbeddingServer({ dimension });
  // The same model twice: the hasty client meets the outages; the steady one does the healthy
  // work, which a loaded machine may slow past the hasty client's bound.
  embedder = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "fake-model", dimension, timeoutMs: steadyTimeoutMs });
  hastyEmbedder = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "fake-model", dimension, timeoutMs });
  space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
  section = await createSection(db.prisma, titleSummaryFields);
  // External rerankers and answer models may read it, so their outages are what is tested.
  await db.prisma.section.update({ where: { id: section.id }, data: { egressPolicy: "allow_external" } });
  await saveAllGroup(db.prisma, db.sql, section.slug, ["title", "summary"], 64);
  projectId = (await createProject(db.prisma)).id;
  for (let index = 0; index < 8; index++) {
    await createRecord(db.prisma, section, projectId, {
      title: `Harbour log ${index}`,
      summary: `The harbour master counted ${index + 2} boats and the lamp oil in the lighthouse store.`,
    });
  }
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10 });
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, projectId);
  reader = await principalOf(db.prisma, readerUser.id);
  context = { sql: db.sql, embedder, space, prepare: noBridge };
  hastyContext = { sql: db.sql, embedder: hastyEmbedder, space, prepare: noBridge };
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await db?.close();
});

describe(`embedding provider outage (${testDatabaseMode()})`, () => {
  it("search says in a sentence that meaning search is unavailable (503) when the model refuses, fails or does not answer in time; keyword search still answers", async () => {
    for (const outage of outages) {
      await during(outage, async () => {
        for (const mode of ["hybrid", "semantic"] as const) {
          const failure = await searchArchive(hastyContext, reader, { query: "lighthouse lamp oil", mode }).catch((error: unknown) => error);
          expect(failure, `${outage}, ${mode}`).toBeInstanceOf(AppError);
          expect(failure).toMatchObject({ code: "unavailable", status: 503, message: meaningSearchUnavailableMessage });
        }
        const words = await searchArchive(hastyContext, reader, { query: "lighthouse lamp oil", mode: "keyword" });
        expect(words.hits.length, outage).toBeGreaterThan(0);
      });
    }
    expect((await searchArchive(context, reader, { query: "lighthouse lamp oil" })).hits.length).toBeGreaterThan(0);
  });

  it("queued indexing backs off, parks after the last attempt with its reason (at once for a refused key), and indexes once the provider is back and an admin retries", async () => {
    const queue = { maxAttempts: 3, leaseSeconds: 60, backoffBaseSeconds: 1 };
    const reasons: Record<Outage | "unauthorized", RegExp> = {
      refused: /ECONNREFUSED/,
      error: /HTTP 500/,
      hang: new RegExp(`no answer within ${timeoutMs} ms`),
      unauthorized: /HTTP 401/,
    };
    const parked: string[] = [];
    for (const outage of [...outages, "unauthorized"] as const) {
      const record = await createRecord(db.prisma, section, projectId, {
        title: `Outage ${outage}`,
        summary: `Written while the model was ${outage}: the tide table for the quay.`,
      });
      const attempts: { attempts: number; status: string; delaySeconds: number }[] = [];
      const observed: Promise<void>[] = [];
      const progress = await during(outage, () =>
        runWorker({
          prisma: db.prisma,
          sql: db.sql,
          embedder: hastyEmbedder,
          space,
          drain: true,
          idleMs: 50,
          queue,
          // Each attempt's outcome, read as soon as the worker has recorded it.
          onRecord: (event) => {
            if (event.phase !== "end") return;
            observed.push(
              db.sql
                .query<{ attempts: number; status: string; delay: number }>(
                  `SELECT attempts, status::text, extract(epoch FROM available_at - updated_at)::float8 AS delay FROM index_queue WHERE record_id = $1`,
                  [record.id],
                )
                .then(([row]) => void attempts.push({ attempts: row!.attempts, status: row!.status, delaySeconds: Math.round(row!.delay) })),
            );
          },
        }),
      );
      await Promise.all(observed);
      const permanent = outage === "unauthorized";
      expect(progress, outage).toMatchObject({ indexed: 0, parked: 1, failed: permanent ? 1 : queue.maxAttempts });
      // Waits of 1 s, then 2 s (base × 2ⁿ), then parked; a refused key is not worth retrying.
      expect(attempts, outage).toEqual(
        permanent
          ? [{ attempts: 1, status: "parked", delaySeconds: 0 }]
          : [
              { attempts: 1, status: "pending", delaySeconds: 1 },
              { attempts: 2, status: "pending", delaySeconds: 2 },
              { attempts: 3, status: "parked", delaySeconds: 0 },
            ],
      );
      const row = await db.prisma.indexQueueItem.findUniqueOrThrow({ where: { recordId: record.id } });
      expect(row.lastError, outage).toMatch(reasons[outage]);
      expect(await db.prisma.chunk.count({ where: { recordId: record.id } })).toBe(0);
      parked.push(record.id);
    }

    // The provider is back: the admin's "Retry failed" puts them in line, and they are indexed once.
    expect(await retryFailed(db.prisma, db.sql, admin, { sectionSlug: section.slug })).toBe(parked.length);
    const progress = await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, queue });
    expect(progress).toMatchObject({ indexed: parked.length, parked: 0 });
    expect(await db.prisma.indexQueueItem.count()).toBe(0);
    for (const recordId of parked) expect(await db.prisma.chunk.count({ where: { recordId } })).toBeGreaterThan(0);
    expect(await duplicatePassages(db.sql)).toBe(0);
    const found = await searchArchive(context, admin, { query: "Outage hang tide table quay", mode: "semantic", limit: 20 });
    expect(found.hits.map((hit) => hit.recordId)).toEqual(expect.arrayContaining(parked));
  }, 60_000);

  it("a worker that stalls past its lease while the record is edited never writes the older version over the newer", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Tide table", summary: "First draft: high water at noon." });
    let release!: () => void;
    let stalled!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (stalled = resolve));
    // The same model (so the same space), but this worker freezes inside its first embedding call.
    const stalling: Embedder = {
      ...embedder,
      embed: async (texts, kind) => {
        stalled();
        await gate;
        return embedder.embed(texts, kind);
      },
    };
    const queue = { maxAttempts: 3, leaseSeconds: 1, backoffBaseSeconds: 0 };
    const first = runWorker({ prisma: db.prisma, sql: db.sql, embedder: stalling, space, drain: true, idleMs: 20, queue, workerId: "stalled-worker" });
    await reached;
    await saveRecord(db.prisma, admin, {
      id: record.id,
      version: 1,
      sectionSlug: section.slug,
      projectId,
      values: { title: "Tide table", summary: "Second draft: high water at half past twelve." },
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Another worker takes the record over and indexes the newer version.
    await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 20, queue, workerId: "second-worker" });
    release();
    await first;
    const passages = await db.prisma.chunk.findMany({ where: { recordId: record.id }, select: { text: true } });
    expect(passages.map((passage) => passage.text).join(" ")).toContain("Second draft");
    expect(passages.map((passage) => passage.text).join(" ")).not.toContain("First draft");
    expect(await db.prisma.indexQueueItem.count()).toBe(0);
    expect(await duplicatePassages(db.sql)).toBe(0);
  });
});

describe(`rerank provider outage (${testDatabaseMode()})`, () => {
  let reranker: FakeRerankServer;
  beforeAll(async () => {
    reranker = await startFakeRerankServer();
  });
  afterAll(async () => {
    await reranker?.close();
  });

  it("an unreachable, failing or slow reranker leaves the fused order, with a note a person understands", async () => {
    const query = "harbour boats lamp oil";
    const plain = await searchArchive(context, reader, { query, limit: 8 });
    const order = (result: typeof plain) => result.hits.map((hit) => hit.recordId);
    const working = await searchArchive({ ...context, reranker: createHttpReranker({ url: reranker.url, timeoutMs: steadyTimeoutMs }) }, reader, {
      query,
      limit: 8,
    });
    expect(working.rerank).toMatchObject({ applied: true });
    expect(order(working)).not.toEqual(order(plain));
    for (const outage of outages) {
      const url = outage === "refused" ? "http://127.0.0.1:9" : reranker.url;
      reranker.outage = outage === "refused" ? "none" : outage;
      try {
        const result = await searchArchive({ ...context, reranker: createHttpReranker({ url, timeoutMs }) }, reader, { query, limit: 8 });
        expect(result.rerank, outage).toMatchObject({ name: "http", applied: false, note: rerankSkippedNote });
        expect(order(result), outage).toEqual(order(plain));
      } finally {
        reranker.outage = "none";
      }
    }
  });
});

describe(`answer model outage (${testDatabaseMode()})`, () => {
  let chat: FakeChatServer;
  // Everything retrieved counts as evidence, so the model is always called.
  const settings = { minSimilarity: -1, strongSimilarity: -1, minTermCoverage: 0, refuseUnknownTerms: false };
  const answer = "The lamp burned whale oil [1]. Sharks were seen off the quay every winter [1].";
  // Hasty where the outage is met: the answer model by default, the embedding model when asked.
  const askContext = (baseUrl: string, hasty: { embedder?: boolean; generator?: boolean } = { generator: true }): AskContext => ({
    ...(hasty.embedder ? hastyContext : context),
    settings,
    generator: createOpenAiCompatibleGenerator({ baseUrl, model: "fake", timeoutMs: hasty.generator ? timeoutMs : steadyTimeoutMs }),
  });

  async function askAndSave(askWith: AskContext): Promise<{ outcome: AskOutcome; deltas: string; saved: { content: string; status: string } }> {
    let outcome: AskOutcome | undefined;
    let threadId = "";
    let deltas = "";
    for await (const event of askInThread(db.prisma, askWith, reader, { question: "What did the lighthouse lamp burn?" })) {
      if (event.type === "thread") threadId = event.threadId;
      if (event.type === "delta") deltas += event.text;
      if (event.type === "final") outcome = event.outcome;
    }
    const thread = await getThread(db.prisma, reader, threadId);
    const last = thread.messages.at(-1)!;
    return { outcome: outcome!, deltas, saved: { content: last.content, status: last.status ?? "" } };
  }

  beforeAll(async () => {
    chat = await startFakeChatServer({ flavour: "openai", answer });
  });
  afterAll(async () => {
    await chat?.close();
  });

  it("a model that fails, never answers, stalls or drops the connection mid-answer ends the ask as failed, with a clear reason and none of the model's text", async () => {
    const reasons = {
      error: /answered HTTP 500/,
      hang: new RegExp(`no answer within ${timeoutMs} ms`),
      stall: new RegExp(`stopped answering: no complete answer within ${timeoutMs} ms`),
      drop: /the connection was lost before the answer was complete/,
    };
    for (const fault of ["error", "hang", "stall", "drop"] as const) {
      if (fault === "error") chat.status = 500;
      else chat.fault = fault;
      try {
        const { outcome, deltas, saved } = await askAndSave(askContext(chat.url));
        expect(outcome.status, fault).toBe("failed");
        expect(outcome.text, fault).toMatch(new RegExp(`^${failureMessage}: `));
        expect(outcome.text, fault).toMatch(reasons[fault]);
        expect(outcome.citations).toEqual([]);
        // Half an answer may have streamed; none of it is kept as the answer.
        if (fault === "stall" || fault === "drop") expect(deltas.length, fault).toBeGreaterThan(0);
        expect(outcome.text).not.toMatch(/whale|Sharks/);
        expect(saved).toEqual({ content: outcome.text, status: "failed" });
      } finally {
        chat.status = 200;
        chat.fault = "none";
      }
    }
    const { outcome } = await askAndSave(askContext(chat.url, {}));
    expect(outcome.status).toBe("answered");
  });

  it("an ask while the embedding model is down ends as failed with a clear message, without calling the answer model", async () => {
    const before = chat.requests.length;
    for (const outage of outages) {
      const { outcome, saved } = await during(outage, () => askAndSave(askContext(chat.url, { embedder: true })));
      expect(outcome, outage).toMatchObject({ status: "failed", text: askUnavailableMessage, citations: [] });
      expect(saved).toEqual({ content: askUnavailableMessage, status: "failed" });
    }
    expect(chat.requests.length).toBe(before);
  });
});

describe(`the agent API during outages (${testDatabaseMode()})`, () => {
  let token: string;
  let chat: FakeChatServer;
  let reranker: FakeRerankServer;
  beforeAll(async () => {
    token = (await createApiToken(db.prisma, reader, { name: "outages", expiresInDays: 1 })).token;
    chat = await startFakeChatServer({ flavour: "openai", answer: "The lamp burned whale oil [1]." });
    reranker = await startFakeRerankServer();
  });
  afterAll(async () => {
    await chat?.close();
    await reranker?.close();
  });

  /** `hasty` names the providers whose outage the call meets; the others get a steady client. */
  async function call(
    name: string,
    body: Record<string, unknown>,
    hasty: { embedder?: boolean; reranker?: boolean; generator?: boolean } = {},
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const searchContext = hasty.embedder ? hastyContext : context;
    const rerankTimeoutMs = hasty.reranker ? timeoutMs : steadyTimeoutMs;
    const generatorTimeoutMs = hasty.generator ? timeoutMs : steadyTimeoutMs;
    const operation = (operations as readonly unknown[] as readonly ApiOperation[]).find((item) => item.name === name)!;
    const request = new Request(`http://127.0.0.1/api/v1${operation.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const response = await handleApiRequest(
      operation,
      request,
      {},
      {
        runtime: {
          prisma: db.prisma,
          search: async () => ({ ...searchContext, reranker: createHttpReranker({ url: reranker.url, timeoutMs: rerankTimeoutMs }) }),
          ask: async () => ({
            ...searchContext,
            settings: { minSimilarity: -1, strongSimilarity: -1, minTermCoverage: 0, refuseUnknownTerms: false },
            generator: createOpenAiCompatibleGenerator({ baseUrl: chat.url, model: "fake", timeoutMs: generatorTimeoutMs }),
          }),
          objects: async () => Promise.reject(new Error("not used")),
          media: testMediaStorage(),
        },
        limiter: createRateLimiter({ perMinute: 100_000 }),
        cors: closedCors,
        authenticate: (authorization) => authenticateApiTokenWithId(db.prisma, authorization),
      },
    );
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  it("answers 503 with the same sentence when meaning search is down, notes a skipped reranker, and reports failed answers as failed", async () => {
    const search = { query: "harbour lamp oil" };
    expect(await during("error", () => call("semantic_search", search, { embedder: true }))).toEqual({
      status: 503,
      json: { error: { code: "unavailable", message: meaningSearchUnavailableMessage } },
    });
    const working = await call("semantic_search", search);
    expect(working.status).toBe(200);
    expect(working.json.notice).toBeUndefined();
    reranker.outage = "hang";
    try {
      const degraded = await call("semantic_search", search, { reranker: true });
      expect(degraded).toMatchObject({ status: 200, json: { notice: rerankSkippedNote } });
      expect((degraded.json.results as unknown[]).length).toBeGreaterThan(0);
    } finally {
      reranker.outage = "none";
    }

    const question = { question: "What did the lighthouse lamp burn?" };
    expect(await during("hang", () => call("ask", question, { embedder: true }))).toMatchObject({
      status: 200,
      json: { status: "failed", answer: askUnavailableMessage, citations: [] },
    });
    chat.fault = "stall";
    try {
      const failed = await call("ask", question, { generator: true });
      expect(failed).toMatchObject({ status: 200, json: { status: "failed", citations: [] } });
      expect(String(failed.json.answer)).toMatch(new RegExp(`^${failureMessage}: .*stopped answering`));
      expect(String(failed.json.answer)).not.toContain("whale");
    } finally {
      chat.fault = "none";
    }
    expect(await call("ask", question)).toMatchObject({ status: 200, json: { status: "answered" } });
  });
});

/**
 * A loopback relay between a pool and the database server: cutting its sockets is a server
 * restart, a failover or an administrator's pg_terminate_backend as the pool sees it, in every
 * mode; while `refusing`, a connection is closed as soon as it opens (a server that is down).
 */
async function startRelay(serverUrl: string) {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  const state = { refusing: false };
  const server = createServer((client) => {
    if (state.refusing) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(serverUrl);
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    sockets,
    state,
    cut: () => sockets.forEach((socket) => socket.destroy()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe(`database server dropping connections (${testDatabaseMode()})`, () => {
  it("a connection the server closes while idle in the pool, or inside a transaction, is let go (the transaction fails), never thrown; the next query opens another", async () => {
    const served = await serveTestDatabase({ maxConnections: 6 });
    const relay = await startRelay(served.url);
    const relayed = relay.sockets;
    const database = await openDatabase({ url: relay.url, poolSize: 2, migrateOnOpen: false });
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((line: unknown) => void warnings.push(String(line)));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.prependListener("uncaughtException", onUncaught);
    try {
      // Two connections, both idle in the pool once their queries are answered.
      await Promise.all([database.sql.query("SELECT pg_sleep(0.05)"), database.sql.query("SELECT pg_sleep(0.05)")]);
      expect(relayed.size).toBe(4);
      for (const socket of relayed) socket.destroy();
      await vi.waitFor(() => expect(warnings.filter((line) => line.startsWith("[db] the database server closed an idle connection")).length).toBe(2));
      expect(uncaught).toEqual([]);
      const [row] = await database.sql.query<{ answer: number }>("SELECT 41 + 1 AS answer");
      expect(row).toEqual({ answer: 42 });
      expect(await database.prisma.user.count()).toBeGreaterThanOrEqual(0);

      // Inside a transaction, between two statements: the work fails, and nothing is thrown past it.
      const cut = database.sql.transaction(async (tx) => {
        await tx.query("SELECT 1");
        const open = relayed.size;
        for (const socket of relayed) socket.destroy();
        await vi.waitFor(() => expect(relayed.size).toBeLessThan(open));
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.query("SELECT 2");
      });
      await expect(cut).rejects.toThrow();
      expect(uncaught).toEqual([]);
      const [again] = await database.sql.query<{ answer: number }>("SELECT 6 * 7 AS answer");
      expect(again).toEqual({ answer: 42 });
    } finally {
      process.removeListener("uncaughtException", onUncaught);
      warn.mockRestore();
      await database.close();
      await relay.close();
      await served.close();
    }
  });

  it("the index worker waits out a database it cannot reach, says so once, and indexes what was queued meanwhile when it answers again", async () => {
    const served = await serveTestDatabase({ maxConnections: 6 });
    const relay = await startRelay(served.url);
    const direct = served.database;
    const database = await openDatabase({ url: relay.url, poolSize: 2, migrateOnOpen: false });
    const local = createHashEmbedder({ dimension: 32 });
    const localSpace = await testIndexSpace(direct.sql, local);
    const notes = await createSection(direct.prisma, titleSummaryFields);
    await saveAllGroup(direct.prisma, direct.sql, notes.slug, ["title", "summary"], 64);
    const project = (await createProject(direct.prisma)).id;
    const lines: string[] = [];
    const controller = new AbortController();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      relay.state.refusing = true;
      const worker = runWorker({
        prisma: database.prisma,
        sql: database.sql,
        embedder: local,
        space: localSpace,
        idleMs: 20,
        signal: controller.signal,
        log: (line) => void lines.push(line),
      });
      await vi.waitFor(() => expect(lines.filter((line) => line.startsWith("[index] the database cannot be reached"))).toHaveLength(1), { timeout: 15_000 });
      const saved: string[] = [];
      for (let index = 0; index < 3; index++)
        saved.push(
          (await createRecord(direct.prisma, notes, project, { title: `Tide gauge ${index}`, summary: "The gauge on the quay read high water at noon." })).id,
        );
      // Still down a while longer: the worker keeps waiting, and says it only once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines.filter((line) => line.startsWith("[index] the database cannot be reached"))).toHaveLength(1);
      relay.state.refusing = false;
      await vi.waitFor(async () => expect(await direct.prisma.indexQueueItem.count()).toBe(0), { timeout: 30_000, interval: 100 });
      expect(lines.some((line) => line.startsWith("[index] the database answers again"))).toBe(true);
      for (const recordId of saved) expect(await direct.prisma.chunk.count({ where: { recordId } })).toBeGreaterThan(0);
      // Cut again mid-run, then stopped while it waits: it stops at once, with what it did.
      relay.state.refusing = true;
      relay.cut();
      await vi.waitFor(() => expect(lines.filter((line) => line.startsWith("[index] the database cannot be reached"))).toHaveLength(2), { timeout: 15_000 });
      controller.abort();
      await expect(worker).resolves.toMatchObject({ indexed: 3, failed: 0, parked: 0 });
    } finally {
      controller.abort();
      warn.mockRestore();
      await database.close();
      await relay.close();
      await served.close();
    }
  }, 90_000);
});
