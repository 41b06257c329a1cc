import { z } from "zod";
import { isAbortError, startDeadline } from "../deadline";
import { GenerationError } from "./generator";
import { chatCompletionsEndpoint } from "./chat-generators";

/**
 * Tool-using chat models for research mode: one turn at a time (a request with the whole
 * conversation, a complete answer back, not streamed) in either wire format — OpenAI's
 * chat-completions `tools`/`tool_calls`/`role: "tool"` messages (Ollama, vLLM, llama.cpp server,
 * OpenAI) or Anthropic's Messages `tools`/`tool_use`/`tool_result` blocks. Answers are checked
 * with zod; a malformed one, an HTTP error or no answer in time is a GenerationError that names
 * the provider. Such a model is external (egress rules apply to what it receives) unless
 * declared inside the institution (`external: false`, MNEMO_RESEARCH_EXTERNAL=0).
 */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object). */
  inputSchema: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** As the model sent them: a JSON string (OpenAI) or an object (Anthropic). */
  arguments: unknown;
}

export interface ToolResult {
  id: string;
  name: string;
  content: string;
  isError: boolean;
}

export type ToolChatMessage =
  { role: "user"; text: string } | { role: "assistant"; text: string; toolCalls: ToolCall[] } | { role: "tool"; results: ToolResult[] };

export interface ToolTurnRequest {
  system: string;
  messages: ToolChatMessage[];
  tools: ToolDefinition[];
  /** Most tokens the model may write this turn. */
  maxTokens: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Time for this turn (the run's remaining time). */
  timeoutMs: number;
}

export interface ToolTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: { input: number; output: number };
  /** Why the model stopped: "tool_calls" when it wants tools run, else its own reason ("stop", "end_turn", "max_tokens"…). */
  stop: string;
}

export interface ToolChatProvider {
  readonly name: "openai-compatible" | "anthropic";
  readonly model: string;
  /**
   * Whether it is another service that egress rules apply to: true unless the configuration
   * declares the model inside the institution (MNEMO_RESEARCH_EXTERNAL=0), even on loopback (a
   * local proxy may forward to anyone).
   */
  readonly external: boolean;
  turn(request: ToolTurnRequest): Promise<ToolTurn>;
}

export interface ToolChatOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Default true: the model receives no text of local-only sections. */
  external?: boolean;
}

// ---- OpenAI chat-completions

export function openAiToolRequestBody(model: string, request: Omit<ToolTurnRequest, "signal" | "timeoutMs">): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [{ role: "system", content: request.system }];
  for (const message of request.messages) {
    if (message.role === "user") messages.push({ role: "user", content: message.text });
    else if (message.role === "assistant") {
      messages.push({
        role: "assistant",
        content: message.text || null,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: "function",
                function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}) },
              })),
            }
          : {}),
      });
    } else {
      for (const result of message.results)
        messages.push({ role: "tool", tool_call_id: result.id, content: result.isError ? `Error: ${result.content}` : result.content });
    }
  }
  return {
    model,
    messages,
    tools: request.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })),
    tool_choice: "auto",
    max_tokens: request.maxTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    stream: false,
  };
}

const openAiResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string().min(1), type: z.string().optional(), function: z.object({ name: z.string(), arguments: z.string().nullish() }) }))
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nonnegative(), completion_tokens: z.number().nonnegative() }).partial().nullish(),
});

export function parseOpenAiToolTurn(json: unknown, provider = "The research model"): ToolTurn {
  const parsed = openAiResponse.safeParse(json);
  if (!parsed.success)
    throw new GenerationError(
      `${provider} sent an answer that is not a chat completion (${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message}).`,
    );
  const choice = parsed.data.choices[0]!;
  const toolCalls = (choice.message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? "{}" }));
  return {
    text: choice.message.content ?? "",
    toolCalls,
    usage: { input: parsed.data.usage?.prompt_tokens ?? 0, output: parsed.data.usage?.completion_tokens ?? 0 },
    stop: toolCalls.length > 0 ? "tool_calls" : (choice.finish_reason ?? "stop"),
  };
}

// ---- Anthropic Messages

export function anthropicToolRequestBody(model: string, request: Omit<ToolTurnRequest, "signal" | "timeoutMs">): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  for (const message of request.messages) {
    if (message.role === "user") messages.push({ role: "user", content: message.text });
    else if (message.role === "assistant") {
      const content: Record<string, unknown>[] = [];
      if (message.text) content.push({ type: "text", text: message.text });
      for (const call of message.toolCalls) content.push({ type: "tool_use", id: call.id, name: call.name, input: toolInputObject(call.arguments) });
      messages.push({ role: "assistant", content });
    } else {
      messages.push({
        role: "user",
        content: message.results.map((result) => ({
          type: "tool_result",
          tool_use_id: result.id,
          content: result.content,
          ...(result.isError ? { is_error: true } : {}),
        })),
      });
    }
  }
  return {
    model,
    system: request.system,
    max_tokens: request.maxTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
    messages,
  };
}

/** Anthropic's tool_use input must be an object: what a model sent as a string is parsed, anything else sent as it was wrapped. */
function toolInputObject(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === "object" && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Kept as the model wrote it.
    }
  }
  return { value: raw ?? null };
}

const anthropicResponse = z.object({
  content: z.array(
    z.discriminatedUnion("type", [
      z.object({ type: z.literal("text"), text: z.string() }),
      z.object({ type: z.literal("tool_use"), id: z.string().min(1), name: z.string(), input: z.unknown() }),
      z.object({ type: z.literal("thinking") }).passthrough(),
      z.object({ type: z.literal("redacted_thinking") }).passthrough(),
    ]),
  ),
  stop_reason: z.string().nullish(),
  usage: z.object({ input_tokens: z.number().nonnegative(), output_tokens: z.number().nonnegative() }).partial().nullish(),
});

export function parseAnthropicToolTurn(json: unknown, provider = "Anthropic"): ToolTurn {
  const parsed = anthropicResponse.safeParse(json);
  if (!parsed.success)
    throw new GenerationError(
      `${provider} sent an answer that is not a message (${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message}).`,
    );
  const text = parsed.data.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  const toolCalls = parsed.data.content.flatMap((block) => (block.type === "tool_use" ? [{ id: block.id, name: block.name, arguments: block.input }] : []));
  return {
    text,
    toolCalls,
    usage: { input: parsed.data.usage?.input_tokens ?? 0, output: parsed.data.usage?.output_tokens ?? 0 },
    stop: toolCalls.length > 0 ? "tool_calls" : (parsed.data.stop_reason ?? "end_turn"),
  };
}

// ---- The HTTP exchange, shared

async function postTurn(provider: string, url: string, headers: Record<string, string>, body: unknown, request: ToolTurnRequest): Promise<unknown> {
  const origin = new URL(url).origin;
  const deadline = startDeadline(request.timeoutMs, request.signal);
  try {
    let response: Response;
    try {
      response = await deadline.race(fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: deadline.signal }));
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new GenerationError(`${provider} at ${origin}: ${isAbortError(error) ? `no answer within ${request.timeoutMs} ms` : "could not be reached"}.`, {
        cause: error,
      });
    }
    let text: string;
    try {
      text = await deadline.race(response.text());
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw new GenerationError(
        `${provider} at ${origin}: ${deadline.timedOut() ? `no complete answer within ${request.timeoutMs} ms` : "the connection was lost before the answer was complete"}.`,
        { cause: error },
      );
    }
    if (!response.ok) throw new GenerationError(`${provider} at ${origin} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new GenerationError(`${provider} at ${origin} sent an answer that is not JSON.`, { cause: error });
    }
  } finally {
    deadline.clear();
  }
}

export function createOpenAiToolChat(options: ToolChatOptions): ToolChatProvider {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const endpoint = chatCompletionsEndpoint(options.baseUrl);
  const provider = "The research model";
  return {
    name: "openai-compatible",
    model: options.model,
    external: options.external ?? true,
    async turn(request) {
      return parseOpenAiToolTurn(await postTurn(provider, endpoint, headers, openAiToolRequestBody(options.model, request), request), provider);
    },
  };
}

export function anthropicMessagesEndpoint(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/messages`;
}

export function createAnthropicToolChat(options: ToolChatOptions): ToolChatProvider {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", "anthropic-version": "2023-06-01" };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const endpoint = anthropicMessagesEndpoint(options.baseUrl);
  return {
    name: "anthropic",
    model: options.model,
    external: options.external ?? true,
    async turn(request) {
      return parseAnthropicToolTurn(await postTurn("Anthropic", endpoint, headers, anthropicToolRequestBody(options.model, request), request));
    },
  };
}
