import { z } from "zod";
import { type Deadline, isAbortError, startDeadline } from "../deadline";
import { type GenerationRequest, type Generator, GenerationError, formatSourcesPrompt, postForStream, readServerSentEvents } from "./generator";

/**
 * Streaming chat providers: any OpenAI-compatible chat-completions server (Ollama, vLLM,
 * llama.cpp server, OpenAI) and Anthropic's Messages API. Both send the sources inside
 * delimiters in the user turn and the instructions in the system prompt.
 */
export interface ChatGeneratorOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

const openAiChunk = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).partial().optional() })).optional(),
  error: z.unknown().optional(),
});

export function chatCompletionsEndpoint(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  if (trimmed.endsWith("/chat/completions")) return trimmed;
  return trimmed.endsWith("/v1") ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`;
}

/**
 * The shared shape of a streaming chat provider: POST a body, read server-sent events, and turn
 * each event's data into text (or the end of the answer, or an error).
 */
function streamingGenerator(spec: {
  name: string;
  provider: string;
  endpoint: string;
  headers: Record<string, string>;
  options: ChatGeneratorOptions;
  body: (request: GenerationRequest) => unknown;
  read: (json: unknown) => string | typeof endOfAnswer | undefined;
}): Generator {
  return {
    name: spec.name,
    model: spec.options.model,
    external: true,
    async *generate(request: GenerationRequest) {
      const timeoutMs = spec.options.timeoutMs ?? 60_000;
      const deadline = startDeadline(timeoutMs, request.signal);
      try {
        const stream = await postForStream(spec.provider, spec.endpoint, {
          headers: spec.headers,
          timeoutMs,
          deadline,
          body: spec.body(request),
        });
        yield* readAnswer(stream, deadline, timeoutMs);
      } finally {
        deadline.clear();
      }
    },
  };

  async function* readAnswer(stream: ReadableStream<Uint8Array>, deadline: Deadline, timeoutMs: number): AsyncIterable<string> {
    try {
      for await (const { data } of readServerSentEvents(stream, deadline)) {
        if (data.trim() === "[DONE]") return;
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch (error) {
          throw new GenerationError(`${spec.provider} sent a stream event that is not JSON.`, { cause: error });
        }
        const text = spec.read(json);
        if (text === endOfAnswer) return;
        if (text) yield text;
      }
    } catch (error) {
      // The answer had begun and then stopped: the time ran out, or the connection went.
      if (error instanceof GenerationError || (deadline.signal.aborted && !deadline.timedOut())) throw error;
      const origin = new URL(spec.endpoint).origin;
      throw new GenerationError(
        deadline.timedOut() || isAbortError(error)
          ? `${spec.provider} at ${origin} stopped answering: no complete answer within ${timeoutMs} ms.`
          : `${spec.provider} at ${origin}: the connection was lost before the answer was complete.`,
        { cause: error },
      );
    }
  }
}

const endOfAnswer = Symbol("end of answer");

export function createOpenAiCompatibleGenerator(options: ChatGeneratorOptions): Generator {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  return streamingGenerator({
    name: "openai-compatible",
    provider: "The generation server",
    endpoint: chatCompletionsEndpoint(options.baseUrl),
    headers,
    options,
    body: (request) => ({
      model: options.model,
      stream: true,
      temperature: request.temperature,
      max_tokens: request.maxTokens,
      messages: [
        { role: "system", content: request.systemPrompt },
        { role: "user", content: formatSourcesPrompt(request.question, request.sources) },
      ],
    }),
    read: (json) => {
      const chunk = openAiChunk.safeParse(json);
      if (!chunk.success) throw new GenerationError("The generation server sent an unexpected stream event.");
      if (chunk.data.error) throw new GenerationError(`The generation server reported an error: ${JSON.stringify(chunk.data.error).slice(0, 200)}`);
      return chunk.data.choices?.[0]?.delta?.content ?? undefined;
    },
  });
}

const anthropicEvent = z.object({
  type: z.string(),
  delta: z.object({ type: z.string(), text: z.string().optional() }).optional(),
  error: z.object({ message: z.string().optional() }).passthrough().optional(),
});

export function createAnthropicGenerator(options: ChatGeneratorOptions): Generator {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream", "anthropic-version": "2023-06-01" };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  return streamingGenerator({
    name: "anthropic",
    provider: "Anthropic",
    endpoint: `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/messages`,
    headers,
    options,
    body: (request) => ({
      model: options.model,
      stream: true,
      system: request.systemPrompt,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      messages: [{ role: "user", content: formatSourcesPrompt(request.question, request.sources) }],
    }),
    read: (json) => {
      const event = anthropicEvent.safeParse(json);
      if (!event.success) return undefined;
      if (event.data.type === "error") throw new GenerationError(`Anthropic reported an error: ${event.data.error?.message ?? "unknown"}`);
      if (event.data.type === "message_stop") return endOfAnswer;
      return event.data.type === "content_block_delta" && event.data.delta?.type === "text_delta" ? event.data.delta.text : undefined;
    },
  });
}
