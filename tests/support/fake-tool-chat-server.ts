import { createServer, type Server } from "node:http";
import { listenOnLoopback } from "./loopback-server";

/**
 * A stand-in for a tool-using chat model on 127.0.0.1 that speaks both wire formats at once:
 * OpenAI chat-completions (POST …/chat/completions: `tools`, `tool_calls`, `role: "tool"`) and
 * Anthropic Messages (POST …/v1/messages: `tool_use`, `tool_result`). Each request is read back
 * into one neutral view — the question and every tool result so far — and a script decides the
 * next turn: tool calls, a final text, or a fault (an HTTP status, a body that is not a turn, no
 * answer at all). Every request body is recorded, so a test can prove what reached the model.
 * Used by the integration tests and by scripts/fake-research-provider.ts (the e2e's model).
 */
export type Flavour = "openai" | "anthropic";

export interface ScriptToolResult {
  name: string;
  content: string;
  isError: boolean;
}

export interface ScriptView {
  flavour: Flavour;
  /** The first user message: the question. */
  question: string;
  /** The model turns already taken (0 on the first request). */
  turn: number;
  /** Every tool result the model has been sent, in order. */
  results: ScriptToolResult[];
  /** The names of the tools offered. */
  tools: string[];
  body: Record<string, unknown>;
}

export type ScriptedTurn =
  | { text: string; usage?: { input: number; output: number } }
  | { toolCalls: { name: string; arguments: unknown }[]; text?: string; usage?: { input: number; output: number } }
  | { fault: "hang" }
  | { fault: "status"; status: number; body?: string }
  | { fault: "raw"; body: string };

export type Script = (view: ScriptView) => ScriptedTurn;

export interface FakeToolChatServer {
  url: string;
  requests: { path: string; flavour: Flavour; body: Record<string, unknown> }[];
  script: Script;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** The neutral view of a request in either format. */
export function scriptViewOf(flavour: Flavour, body: Json): ScriptView {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Json[];
  const namesById = new Map<string, string>();
  const results: ScriptToolResult[] = [];
  let question = "";
  let turn = 0;
  for (const message of messages) {
    if (flavour === "openai") {
      if (message.role === "user" && !question) question = String(message.content ?? "");
      if (message.role === "assistant") {
        turn += 1;
        for (const call of (message.tool_calls ?? []) as { id: string; function: { name: string } }[]) namesById.set(call.id, call.function.name);
      }
      if (message.role === "tool") {
        const content = String(message.content ?? "");
        results.push({
          name: namesById.get(String(message.tool_call_id)) ?? "?",
          content: content.replace(/^Error: /, ""),
          isError: content.startsWith("Error: "),
        });
      }
    } else {
      const content = message.content;
      if (message.role === "user" && typeof content === "string" && !question) question = content;
      if (message.role === "assistant") {
        turn += 1;
        for (const block of (content ?? []) as Json[]) if (block.type === "tool_use") namesById.set(String(block.id), String(block.name));
      }
      if (message.role === "user" && Array.isArray(content)) {
        for (const block of content as Json[]) {
          if (block.type === "tool_result")
            results.push({ name: namesById.get(String(block.tool_use_id)) ?? "?", content: String(block.content ?? ""), isError: block.is_error === true });
        }
      }
    }
  }
  const tools = ((body.tools ?? []) as Json[]).map((tool) => String(flavour === "openai" ? (tool.function as Json | undefined)?.name : tool.name));
  return { flavour, question, turn, results, tools, body };
}

let callNumber = 0;

function answerBody(flavour: Flavour, turn: Exclude<ScriptedTurn, { fault: string }>, view: ScriptView): Json {
  const text = "text" in turn && turn.text ? turn.text : "";
  const calls = "toolCalls" in turn ? turn.toolCalls : [];
  const usage = turn.usage ?? { input: Math.ceil(JSON.stringify(view.body).length / 4), output: Math.ceil((text.length + JSON.stringify(calls).length) / 4) };
  if (flavour === "openai") {
    return {
      id: `chatcmpl-${++callNumber}`,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text || null,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call) => ({
                    id: `call_${++callNumber}`,
                    type: "function",
                    function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
                  })),
                }
              : {}),
          },
          finish_reason: calls.length > 0 ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  }
  return {
    id: `msg_${++callNumber}`,
    type: "message",
    role: "assistant",
    content: [
      ...(text ? [{ type: "text", text }] : []),
      ...calls.map((call) => ({ type: "tool_use", id: `toolu_${++callNumber}`, name: call.name, input: call.arguments })),
    ],
    stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

export async function startFakeToolChatServer(options: { script: Script; port?: number }): Promise<FakeToolChatServer> {
  const state: Pick<FakeToolChatServer, "requests" | "script"> = { requests: [], script: options.script };
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    request.on("end", () => {
      const path = request.url ?? "";
      const flavour: Flavour | null = path.endsWith("/chat/completions") ? "openai" : path.endsWith("/v1/messages") ? "anthropic" : null;
      if (request.method !== "POST" || !flavour) {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      let body: Json;
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "invalid JSON" } }));
        return;
      }
      state.requests.push({ path, flavour, body });
      const view = scriptViewOf(flavour, body);
      const turn = state.script(view);
      if ("fault" in turn) {
        if (turn.fault === "hang") return;
        if (turn.fault === "status") {
          response.writeHead(turn.status, { "content-type": "application/json" }).end(turn.body ?? JSON.stringify({ error: { message: "model overloaded" } }));
          return;
        }
        response.writeHead(200, { "content-type": "application/json" }).end(turn.body);
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answerBody(flavour, turn, view)));
    });
  });
  if (options.port !== undefined) {
    await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
    return Object.assign(state, {
      url: `http://127.0.0.1:${options.port}`,
      close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    });
  }
  return Object.assign(state, await listenOnLoopback(server));
}

/** A tool result's JSON, or null when it is an error or not JSON. */
export function resultJson(result: ScriptToolResult | undefined): Json | null {
  if (!result || result.isError) return null;
  try {
    return JSON.parse(result.content) as Json;
  } catch {
    return null;
  }
}

/** The first sentence of a text worth quoting: three words or more, no quotation marks or brackets. */
function quotableSentence(text: string): string | null {
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    const clean = sentence.trim();
    if (clean.split(/\s+/).length >= 3 && !/[“”"«»[\]［］]/.test(clean)) return clean.split(/\s+/).slice(0, 25).join(" ");
  }
  return null;
}

function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value && typeof value === "object") for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

export const nothingFoundAnswer = "The records you can read do not answer this question.";

/**
 * The deterministic research script the e2e uses: turn 1 searches for the question; turn 2 reads
 * the first hit it may see (or says it found nothing); turn 3 answers with one sentence quoted
 * from that record, cited by the record's source number (shown as [1] after renumbering).
 */
export const defaultResearchScript: Script = (view) => {
  if (view.results.length === 0) return { toolCalls: [{ name: "semantic_search", arguments: { query: view.question.split("\n")[0]!.slice(0, 1000) } }] };
  const last = view.results.at(-1)!;
  if (last.name === "semantic_search") {
    const results = (resultJson(last)?.results ?? []) as Json[];
    const first = results.find((result) => typeof result.recordId === "string");
    if (!first) return { text: nothingFoundAnswer };
    return { toolCalls: [{ name: "read_record", arguments: { recordId: first.recordId } }] };
  }
  if (last.name === "read_record") {
    const record = resultJson(last);
    if (!record || typeof record.source !== "number") return { text: "I could not read the record I found, so I cannot answer from it." };
    for (const text of stringsIn(record.values)) {
      const sentence = quotableSentence(text);
      if (sentence) return { text: `The record ${String(record.title)} says: "${sentence}" [${record.source}].` };
    }
    return { text: `The record “${String(record.title)}” holds no sentence to quote.` };
  }
  return { text: nothingFoundAnswer };
};
