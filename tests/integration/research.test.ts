import { randomUUID } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../lib/api/openapi";
import type { Principal } from "../../lib/acl";
import { passagesAllowedOut, recordsAllowedOut } from "../../lib/acl/egress-lookup";
import { createApiToken } from "../../lib/auth/api-tokens";
import { parseConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import type { ApiDeps } from "../../lib/api/handle-api-request";
import { research } from "../../lib/api/research/research-loop";
import { handleResearchRequest, handleResearchSession } from "../../lib/api/research/research-request";
import { type ResearchStreamEvent, researchCost, researchStreamEvent } from "../../lib/api/research/research-schemas";
import { withheldMarker } from "../../lib/api/research/research-tools";
import { type ResearchBudgets, researchModelFromConfig, researchNotSetUp } from "../../lib/llm/research-model";
import { type ToolChatProvider, createAnthropicToolChat, createOpenAiToolChat } from "../../lib/llm/tool-chat";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, saveAllGroup, testIndexSpace } from "../support/factories";
import {
  type FakeToolChatServer,
  type Flavour,
  type Script,
  defaultResearchScript,
  resultJson,
  startFakeToolChatServer,
} from "../support/fake-tool-chat-server";
import { serviceRuntime } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Research mode against a real database and a scripted loopback model speaking both wire
 * formats: the same script run by an insider and by a reader who may not see a restricted
 * record gives each the right result (the reader's step is the "not found" of a missing id, and
 * nothing restricted reaches the reader or the model); local-only text never reaches the model
 * and the step says so; a model that loops, calls unknown tools, sends malformed arguments,
 * hangs or fails ends cleanly; unsupported citations are dropped; the routes stream, validate,
 * charge, and answer 503 without a model.
 */
const embedder = createHashEmbedder({ dimension: 128 });
const origin = "http://mnemo.test";
/** Words only the restricted record holds, and only the local-only record holds. */
const restrictedCanary = "quokkavelvet";
const localCanary = "qwertystone";

let db: Database;
let space: IndexSpace;
let fake: FakeToolChatServer;
let insider: Principal;
let reader: Principal;
let outsider: Principal;
let readerToken: string;
const ids: Record<"diary" | "mill" | "secret", string> = { diary: "", mill: "", secret: "" };
const titles = { diary: "Lighthouse keeper's diary", mill: "Lighthouse mill ledger", secret: "Secret lighthouse smuggling report" };

const budgets: ResearchBudgets = { maxTurns: 6, maxToolCalls: 10, maxSeconds: 30, maxTokens: 60_000 };

function deps(overrides: Partial<ApiDeps> = {}): ApiDeps {
  const { apiDeps } = serviceRuntime(db, { embedder, space, descriptor: createDescriptorEmbedder(), origin });
  return { ...apiDeps, ...overrides };
}

function provider(flavour: Flavour, external?: boolean): ToolChatProvider {
  return flavour === "openai"
    ? createOpenAiToolChat({ baseUrl: `${fake.url}/v1`, model: "fake-research", external })
    : createAnthropicToolChat({ baseUrl: fake.url, model: "claude-fake", apiKey: "test-key", external });
}

async function run(
  flavour: Flavour,
  principal: Principal,
  question: string,
  script: Script,
  options: { budgets?: ResearchBudgets; signal?: AbortSignal; scope?: { sections?: string[] }; runtime?: Partial<ApiDeps["runtime"]>; external?: boolean } = {},
): Promise<{ events: ResearchStreamEvent[]; sent: string }> {
  fake.script = script;
  const before = fake.requests.length;
  const events: ResearchStreamEvent[] = [];
  const context = { runtime: { ...deps().runtime, ...options.runtime }, principal, origin: "" };
  for await (const event of research({
    context,
    provider: provider(flavour, options.external),
    budgets: options.budgets ?? budgets,
    request: { question, scope: options.scope },
    signal: options.signal,
  })) {
    events.push(researchStreamEvent.parse(event));
  }
  const sent = fake.requests
    .slice(before)
    .map((request) => JSON.stringify(request.body))
    .join("\n");
  return { events, sent };
}

const steps = (events: ResearchStreamEvent[]) => events.filter((event): event is Extract<ResearchStreamEvent, { type: "step" }> => event.type === "step");
const answerOf = (events: ResearchStreamEvent[]) => events.find((event): event is Extract<ResearchStreamEvent, { type: "answer" }> => event.type === "answer");
const doneOf = (events: ResearchStreamEvent[]) => events.at(-1);

/** Reads one record, then answers quoting it (or says it found nothing): the same script for everyone. */
const readSecretScript: Script = (view) => {
  if (view.results.length === 0) return { toolCalls: [{ name: "read_record", arguments: { recordId: ids.secret } }] };
  const record = resultJson(view.results[0]);
  if (!record) return { text: "I found no record I can read about this." };
  return { text: `The report says "Smugglers hid ${restrictedCanary} tobacco in the lighthouse cellar" [${record.source}].` };
};

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  const localSection = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "summary", label: "Summary", type: "longtext" },
  ]);
  const externalSection = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "summary", label: "Summary", type: "longtext" },
    { key: "related", label: "Related", type: "relation", targetSection: localSection.slug, multiple: true },
  ]);
  await db.prisma.section.update({ where: { id: externalSection.id }, data: { egressPolicy: "allow_external" } });
  await saveAllGroup(db.prisma, db.sql, localSection.slug, ["title", "summary"]);
  await saveAllGroup(db.prisma, db.sql, externalSection.slug, ["title", "summary"]);
  const open = (await createProject(db.prisma)).id;
  const closed = (await createProject(db.prisma, { restricted: true })).id;

  ids.mill = (
    await createRecord(db.prisma, localSection, open, {
      title: titles.mill,
      summary: `The lighthouse mill ground flour with the ${localCanary} wheel for the keeper.`,
    })
  ).id;
  ids.diary = (
    await createRecord(db.prisma, externalSection, open, {
      title: titles.diary,
      summary: "The lighthouse keeper lit the lamp every night. The lighthouse lamp burned whale oil until 1902.",
      related: [ids.mill],
    })
  ).id;
  ids.secret = (
    await createRecord(db.prisma, externalSection, closed, {
      title: titles.secret,
      summary: `Smugglers hid ${restrictedCanary} tobacco in the lighthouse cellar.`,
    })
  ).id;
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });

  const insiderUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, insiderUser.id, open);
  await addMember(db.prisma, insiderUser.id, closed);
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, open);
  insider = await principalOf(db.prisma, insiderUser.id);
  reader = await principalOf(db.prisma, readerUser.id);
  outsider = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  readerToken = (await createApiToken(db.prisma, reader, { name: "research", expiresInDays: 30 })).token;
  fake = await startFakeToolChatServer({ script: defaultResearchScript });
}, 180_000);

afterAll(async () => {
  await fake?.close();
  await db?.close();
});

describe(`research (${testDatabaseMode()})`, () => {
  describe.each(["openai", "anthropic"] as const)("over the %s wire format", (flavour) => {
    it("gives an insider and a reader different, correct results from the same script; denied is a missing id", async () => {
      const insiderRun = await run(flavour, insider, "What did the smugglers hide?", readSecretScript);
      expect(steps(insiderRun.events)).toHaveLength(1);
      expect(steps(insiderRun.events)[0]).toMatchObject({
        tool: "read_record",
        withheld: 0,
        links: [{ title: titles.secret, href: `/records/${ids.secret}` }],
      });
      expect(steps(insiderRun.events)[0]!.error).toBeUndefined();
      const insiderAnswer = answerOf(insiderRun.events)!;
      expect(insiderAnswer.text).toContain(`${restrictedCanary} tobacco`);
      expect(insiderAnswer.text).toMatch(/\[1\]\.$/);
      expect(insiderAnswer.citations).toMatchObject([{ id: "1", recordId: ids.secret, recordTitle: titles.secret, chunkId: null }]);
      expect(insiderRun.sent).toContain(restrictedCanary);
      expect(doneOf(insiderRun.events)).toEqual({ type: "done", status: "answered" });

      const readerRun = await run(flavour, reader, "What did the smugglers hide?", readSecretScript);
      const [readerStep] = steps(readerRun.events);
      expect(readerStep).toMatchObject({ tool: "read_record", summary: "Not found.", links: [], withheld: 0, error: "not_found: Not found." });
      const readerAnswer = answerOf(readerRun.events)!;
      expect(readerAnswer).toMatchObject({ text: "I found no record I can read about this.", citations: [], dropped: [] });
      const readerVisible = JSON.stringify(readerRun.events);
      for (const secret of [restrictedCanary, titles.secret, "tobacco"]) {
        expect(readerVisible).not.toContain(secret);
        expect(readerRun.sent).not.toContain(secret);
      }

      // Denied ≡ missing: the step for a record that does not exist is the same, but for its arguments.
      const missingScript: Script = (view) =>
        view.results.length === 0 ? { toolCalls: [{ name: "read_record", arguments: { recordId: randomUUID() } }] } : readSecretScript(view);
      const missingRun = await run(flavour, reader, "What did the smugglers hide?", missingScript);
      const strip = (events: ResearchStreamEvent[]) => events.map((event) => (event.type === "step" ? { ...event, arguments: null } : event));
      expect(strip(missingRun.events)).toEqual(strip(readerRun.events));
    });

    it("runs the default script: search, read the first readable hit, answer quoting it with [1]", async () => {
      const question = "Where did the smugglers hide the tobacco by the lighthouse?";
      const readerRun = await run(flavour, reader, question, defaultResearchScript);
      const [search, read] = steps(readerRun.events);
      expect(search).toMatchObject({ index: 1, tool: "semantic_search", arguments: { query: question } });
      expect(search!.summary).toMatch(/^\d+ hits?: /);
      expect(search!.links.map((link) => link.href)).not.toContain(`/records/${ids.secret}`);
      expect(read!.tool).toBe("read_record");
      const answer = answerOf(readerRun.events)!;
      expect(answer.citations).toHaveLength(1);
      expect(answer.citations[0]!.id).toBe("1");
      expect(answer.text).toMatch(/\[1\]\.$/);
      expect([ids.diary, ids.mill]).toContain(answer.citations[0]!.recordId);
      for (const secret of [restrictedCanary, titles.secret]) {
        expect(JSON.stringify(readerRun.events)).not.toContain(secret);
        expect(readerRun.sent).not.toContain(secret);
      }

      // The insider's search finds the report too, and an answer about it.
      const insiderRun = await run(flavour, insider, question, defaultResearchScript);
      expect(steps(insiderRun.events)[0]!.links.map((link) => link.href)).toContain(`/records/${ids.secret}`);
    });

    it("never sends local-only text to the model, and says in the step what was withheld", async () => {
      const script: Script = (view) => {
        if (view.results.length === 0)
          return {
            toolCalls: [
              { name: "retrieve", arguments: { query: "lighthouse mill flour wheel keeper" } },
              { name: "read_record", arguments: { recordId: ids.mill } },
              { name: "read_record", arguments: { recordId: ids.diary } },
            ],
          };
        return { text: "Some of what I found was withheld from me." };
      };
      const { events, sent } = await run(flavour, reader, "What did the mill grind?", script);
      const [retrieved, readMill, readDiary] = steps(events);
      expect(retrieved!.links.map((link) => link.href)).toContain(`/records/${ids.mill}`);
      expect(retrieved!.withheld).toBeGreaterThanOrEqual(1);
      expect(readMill).toMatchObject({ tool: "read_record", withheld: 1, links: [{ title: titles.mill, href: `/records/${ids.mill}` }] });
      expect(readMill!.error).toBeUndefined();
      // The diary goes out, but not the title of the local-only record it links to.
      expect(readDiary).toMatchObject({ tool: "read_record", withheld: 1 });
      expect(sent).toContain("whale oil");
      expect(sent).toContain("withheld: this text may not be sent");
      expect(sent).not.toContain(localCanary);
      expect(sent).not.toContain(titles.mill);
      expect(withheldMarker).toContain("local-only");
      expect(doneOf(events)).toEqual({ type: "done", status: "answered" });
    });

    it("sends local-only text to a model declared inside the institution (MNEMO_RESEARCH_EXTERNAL=0), and still nothing the reader may not read", async () => {
      const script: Script = (view) => {
        if (view.results.length === 0)
          return {
            toolCalls: [
              { name: "read_record", arguments: { recordId: ids.mill } },
              { name: "read_record", arguments: { recordId: ids.secret } },
            ],
          };
        return { text: "I read what I could." };
      };
      const { events, sent } = await run(flavour, reader, "What did the mill grind?", script, { external: false });
      const [readMill, readSecret] = steps(events);
      expect(readMill).toMatchObject({ tool: "read_record", withheld: 0, links: [{ title: titles.mill, href: `/records/${ids.mill}` }] });
      expect(readSecret).toMatchObject({ tool: "read_record", summary: "Not found.", withheld: 0, error: "not_found: Not found." });
      expect(sent).toContain(localCanary);
      expect(sent).toContain(titles.mill);
      expect(sent).not.toContain("withheld: this text may not be sent");
      expect(sent).not.toContain(restrictedCanary);
      expect(doneOf(events)).toEqual({ type: "done", status: "answered" });
    });

    it("answers an unknown tool and malformed arguments with tool errors, and goes on", async () => {
      const script: Script = (view) => {
        if (view.turn === 0) {
          return {
            toolCalls: [
              { name: "delete_everything", arguments: {} },
              { name: "read_record", arguments: flavour === "openai" ? "{not json" : ["not", "an", "object"] },
              { name: "semantic_search", arguments: { query: 5 } },
              { name: "ask", arguments: { question: "What did the lamp burn?" } },
            ],
          };
        }
        expect(view.results.map((result) => result.isError)).toEqual([true, true, true, true]);
        return { text: "The tools I tried did not work." };
      };
      const { events } = await run(flavour, reader, "What did the lamp burn?", script);
      const errors = steps(events).map((step) => step.error);
      expect(errors[0]).toMatch(/^no such tool: delete_everything/);
      expect(errors[1]).toBe("bad_request: the arguments must be a JSON object.");
      expect(errors[2]).toMatch(/^bad_request: Some values are not valid\. .*query/);
      expect(errors[3]).toMatch(/^no such tool: ask/);
      expect(answerOf(events)!.text).toBe("The tools I tried did not work.");
      expect(doneOf(events)).toEqual({ type: "done", status: "answered" });
    });
  });

  it("reads egress back by id, and never allows what it cannot find (default deny)", async () => {
    const chunks = await db.sql.query<{ id: string; record_id: string }>(`SELECT id, record_id FROM chunks WHERE record_id = ANY($1::text[])`, [
      [ids.diary, ids.mill],
    ]);
    const diaryChunk = chunks.find((chunk) => chunk.record_id === ids.diary)!.id;
    const millChunk = chunks.find((chunk) => chunk.record_id === ids.mill)!.id;
    expect(await passagesAllowedOut(db.sql, [diaryChunk, millChunk, randomUUID(), ""])).toEqual(new Set([diaryChunk]));
    expect(await recordsAllowedOut(db.sql, [ids.diary, ids.mill, ids.secret, randomUUID()])).toEqual(new Set([ids.diary, ids.secret]));
  });

  it("stops a model that never stops calling tools at the turns budget, keeping the steps", async () => {
    const looping: Script = () => ({ toolCalls: [{ name: "list_sections", arguments: {} }] });
    const { events } = await run("openai", reader, "Tell me everything.", looping, { budgets: { ...budgets, maxTurns: 3 } });
    expect(steps(events)).toHaveLength(3);
    expect(events.at(-2)).toMatchObject({ type: "budget", budget: "turns", message: expect.stringMatching(/3 model turns.*MNEMO_RESEARCH_MAX_TURNS/) });
    expect(doneOf(events)).toEqual({ type: "done", status: "budget" });
    expect(answerOf(events)).toBeUndefined();
  });

  it("stops at the tool-call and token budgets", async () => {
    const greedy: Script = () => ({
      toolCalls: [
        { name: "list_sections", arguments: {} },
        { name: "list_sections", arguments: {} },
      ],
    });
    const calls = await run("anthropic", reader, "Tell me everything.", greedy, { budgets: { ...budgets, maxToolCalls: 3 } });
    expect(steps(calls.events)).toHaveLength(3);
    expect(calls.events.at(-2)).toMatchObject({ type: "budget", budget: "tool_calls" });

    const costly: Script = () => ({ toolCalls: [{ name: "list_sections", arguments: {} }], usage: { input: 900, output: 200 } });
    const tokens = await run("openai", reader, "Tell me everything.", costly, { budgets: { ...budgets, maxTokens: 2000 } });
    expect(steps(tokens.events)).toHaveLength(2);
    expect(tokens.events.at(-2)).toMatchObject({ type: "budget", budget: "tokens", message: expect.stringContaining("2000 tokens") });
  });

  it("ends a model that does not answer with the time budget, and one that fails with an error", async () => {
    const started = Date.now();
    const hung = await run("openai", reader, "Anyone there?", () => ({ fault: "hang" }), { budgets: { ...budgets, maxSeconds: 1 } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(hung.events.at(-2)).toMatchObject({ type: "budget", budget: "time", message: expect.stringContaining("1 seconds") });
    expect(doneOf(hung.events)).toEqual({ type: "done", status: "budget" });

    // A tool that never returns (here, the objects runtime) ends the run at the time budget too.
    const slowTool = await run(
      "anthropic",
      reader,
      "Anyone there?",
      (view) => (view.turn === 0 ? { toolCalls: [{ name: "similar_objects", arguments: { recordId: ids.diary } }] } : { text: "Never." }),
      {
        budgets: { ...budgets, maxSeconds: 1 },
        runtime: { objects: () => new Promise(() => undefined) },
      },
    );
    expect(slowTool.events.at(-2)).toMatchObject({ type: "budget", budget: "time" });
    expect(steps(slowTool.events)).toEqual([]);

    const failing = await run("anthropic", reader, "Anyone there?", () => ({ fault: "status", status: 529 }));
    expect(failing.events.at(-2)).toMatchObject({
      type: "error",
      message: expect.stringMatching(/^The research model failed: Anthropic at http:\/\/127\.0\.0\.1:\d+ answered HTTP 529/),
    });
    expect(doneOf(failing.events)).toEqual({ type: "done", status: "failed" });

    const garbled = await run("openai", reader, "Anyone there?", () => ({ fault: "raw", body: JSON.stringify({ choices: [] }) }));
    expect(garbled.events.at(-2)).toMatchObject({ type: "error", message: expect.stringContaining("not a chat completion") });
  });

  it("stops at once when the client goes away, aborting the model's request", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const { events } = await run("openai", reader, "Anyone there?", () => ({ fault: "hang" }), { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(doneOf(events)).toEqual({ type: "done", status: "cancelled" });
  });

  it("drops citations the sources do not support, with their statements, and renumbers the rest", async () => {
    const script: Script = (view) => {
      if (view.turn === 0) return { toolCalls: [{ name: "retrieve", arguments: { query: "lighthouse lamp whale oil keeper" } }] };
      const passages = (resultJson(view.results[0])?.passages ?? []) as { source?: number; text?: string }[];
      const diary = passages.find((passage) => passage.text?.includes("whale oil"))!;
      return {
        text: `The keeper wrote that "the lighthouse lamp burned whale oil until 1902" [${diary.source}]. The lamp was painted "bright purple every spring" [${diary.source}]. The moon is made of cheese [42].`,
      };
    };
    const { events } = await run("openai", reader, "What did the lamp burn?", script);
    const answer = answerOf(events)!;
    expect(answer.text).toBe('The keeper wrote that "the lighthouse lamp burned whale oil until 1902" [1].');
    expect(answer.citations).toMatchObject([{ id: "1", recordId: ids.diary, recordTitle: titles.diary }]);
    expect(answer.citations[0]!.chunkId).toEqual(expect.any(String));
    expect(answer.dropped).toEqual([
      { number: expect.any(Number), reason: "quote_not_found", quote: "bright purple every spring" },
      { number: 42, reason: "unknown_source" },
    ]);
  });

  it("keeps the researcher's scope over the model's searches", async () => {
    const script: Script = (view) =>
      view.turn === 0 ? { toolCalls: [{ name: "semantic_search", arguments: { query: "lighthouse", sections: [] } }] } : { text: "Done." };
    const section = await db.prisma.record.findUniqueOrThrow({ where: { id: ids.mill }, include: { section: true } });
    const { events, sent } = await run("openai", insider, "What about the lighthouse?", script, { scope: { sections: [section.section.slug] } });
    expect(steps(events)[0]!.links.map((link) => link.href)).toEqual([`/records/${ids.mill}`]);
    expect(sent).toContain("narrowed the searches");
  });

  describe("routes", () => {
    const available = () =>
      researchModelFromConfig(
        parseConfig({ MNEMO_RESEARCH_PROVIDER: "openai-compatible", MNEMO_RESEARCH_BASE_URL: fake.url, MNEMO_RESEARCH_MODEL: "fake-research" }),
      );

    async function post(body: unknown, options: { token?: string | null; deps?: ApiDeps; method?: string } = {}) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.token !== null) headers.authorization = `Bearer ${options.token ?? readerToken}`;
      const request = new Request(`${origin}/api/v1/research`, {
        method: options.method ?? "POST",
        headers,
        body: options.method === "GET" ? undefined : JSON.stringify(body),
      });
      return handleResearchRequest(request, options.deps ?? deps({ research: available() }));
    }

    it("streams a run over the token API with absolute links, charging well above ask", async () => {
      fake.script = defaultResearchScript;
      const response = await post({ question: "What did the lighthouse lamp burn?" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("application/x-ndjson");
      expect(Number(response.headers.get("ratelimit-limit")) - Number(response.headers.get("ratelimit-remaining"))).toBe(researchCost);
      const events = (await response.text())
        .trim()
        .split("\n")
        .map((line) => researchStreamEvent.parse(JSON.parse(line)));
      expect(events[0]).toMatchObject({ type: "start", maxTurns: 8, tools: expect.arrayContaining(["semantic_search", "read_record"]) });
      expect(events[0]).toMatchObject({ type: "start" });
      expect((events[0] as { tools: string[] }).tools).not.toContain("ask");
      expect(steps(events)[0]!.links[0]!.href).toMatch(new RegExp(`^${origin}/records/`));
      expect(answerOf(events)!.citations[0]!.url).toMatch(new RegExp(`^${origin}/records/`));
      expect(doneOf(events)).toEqual({ type: "done", status: "answered" });
      expect(researchCost).toBeGreaterThan(5);
      // The OpenAPI document describes every event actually sent.
      const document = openApiDocument() as {
        paths: Record<string, { post?: { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } }>;
        components: object;
      };
      const ajv = new Ajv2020({ strict: false });
      ajv.addSchema({ $id: "mnemo:openapi", components: document.components }, "mnemo:openapi");
      const validate = ajv.getSchema(`mnemo:openapi${document.paths["/research"]!.post!.responses["200"]!.content["application/x-ndjson"]!.schema.$ref}`)!;
      for (const event of events) expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    });

    it("refuses without a token, a bad body, a wrong method, and answers 503 without a model", async () => {
      expect((await post({ question: "What did the lamp burn?" }, { token: null })).status).toBe(401);
      expect((await post({ question: "What did the lamp burn?" }, { token: "mnemo_nonsense" })).status).toBe(401);
      const bad = await post({ question: "x", extra: 1 });
      expect(bad.status).toBe(400);
      expect(Object.keys(((await bad.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors).sort()).toEqual(
        ["_form", "question"].sort(),
      );
      expect((await post({}, { method: "GET" })).status).toBe(405);
      const unavailable = await post({ question: "What did the lamp burn?" }, { deps: deps({ research: researchModelFromConfig(parseConfig({})) }) });
      expect(unavailable.status).toBe(503);
      // A researcher learns what it means for them; how to set it up is for an administrator.
      expect(((await unavailable.json()) as { error: { message: string } }).error.message).toBe(researchNotSetUp);
      const adminUser = await createUser(db.prisma, { role: "admin" });
      const adminToken = (await createApiToken(db.prisma, await principalOf(db.prisma, adminUser.id), { name: "research", expiresInDays: 30 })).token;
      const forAdmin = await post(
        { question: "What did the lamp burn?" },
        { token: adminToken, deps: deps({ research: researchModelFromConfig(parseConfig({})) }) },
      );
      expect(forAdmin.status).toBe(503);
      expect(((await forAdmin.json()) as { error: { message: string } }).error.message).toMatch(
        /^Research mode needs a chat model: set MNEMO_RESEARCH_PROVIDER/,
      );
      const withoutResearch = await post({ question: "What did the lamp burn?" }, { deps: deps() });
      expect(withoutResearch.status).toBe(503);
    });

    it("runs for the signed-in panel with relative links, and a principal who may read nothing sees nothing", async () => {
      fake.script = defaultResearchScript;
      const request = () =>
        new Request(`${origin}/api/research`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ question: "Where did the smugglers hide the tobacco by the lighthouse?" }),
        });
      const response = await handleResearchSession(request(), insider, deps({ research: available() }));
      const events = (await response.text())
        .trim()
        .split("\n")
        .map((line) => researchStreamEvent.parse(JSON.parse(line)));
      expect(steps(events)[0]!.links.some((link) => link.href === `/records/${ids.secret}`)).toBe(true);

      const nothing = await handleResearchSession(request(), outsider, deps({ research: available() }));
      const outsiderEvents = (await nothing.text())
        .trim()
        .split("\n")
        .map((line) => researchStreamEvent.parse(JSON.parse(line)));
      expect(steps(outsiderEvents)).toMatchObject([{ tool: "semantic_search", summary: "No hits.", links: [], withheld: 0 }]);
      expect(answerOf(outsiderEvents)).toMatchObject({ citations: [] });
      for (const title of Object.values(titles)) expect(JSON.stringify(outsiderEvents)).not.toContain(title);
    });
  });
});
