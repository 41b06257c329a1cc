import { z } from "zod";
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

export function createOpenAiCompatibleGenerator(options: ChatGeneratorOptions): Generator {
  const endpoint = chatCompletionsEndpoint(options.baseUrl);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  return {
    name: "openai-compatible",
    model: options.model,
    external: true,
    async *generate(request: GenerationRequest) {
      const body = await postForStream("The generation server", endpoint, {
        headers,
        timeoutMs: options.timeoutMs ?? 60_000,
        signal: request.signal,
        body: {
          model: options.model,
          stream: true,
          temperature: request.temperature,
          max_tokens: request.maxTokens,
          messages: [
            { role: "system", content: request.systemPrompt },
            { role: "user", content: formatSourcesPrompt(request.question, request.sources) },
          ],
        },
      });
      for await (const { data } of readServerSentEvents(body)) {
        if (data.trim() === "[DONE]") return;
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch (error) {
          throw new GenerationError("The generation server sent a stream event that is not JSON.", { cause: error });
        }
        const chunk = openAiChunk.safeParse(json);
        if (!chunk.success) throw new GenerationError("The generation server sent an unexpected stream event.");
        if (chunk.data.error) throw new GenerationError(`The generation server reported an error: ${JSON.stringify(chunk.data.error).slice(0, 200)}`);
        const text = chunk.data.choices?.[0]?.delta?.content;
        if (text) yield text;
      }
    },
  };
}

const anthropicEvent = z.object({
  type: z.string(),
  delta: z.object({ type: z.string(), text: z.string().optional() }).optional(),
  error: z.object({ message: z.string().optional() }).passthrough().optional(),
});

export function createAnthropicGenerator(options: ChatGeneratorOptions): Generator {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/messages`;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream", "anthropic-version": "2023-06-01" };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  return {
    name: "anthropic",
    model: options.model,
    external: true,
    async *generate(request: GenerationRequest) {
      const body = await postForStream("Anthropic", endpoint, {
        headers,
        timeoutMs: options.timeoutMs ?? 60_000,
        signal: request.signal,
        body: {
          model: options.model,
          stream: true,
          system: request.systemPrompt,
          max_tokens: request.maxTokens,
          temperature: request.temperature,
          messages: [{ role: "user", content: formatSourcesPrompt(request.question, request.sources) }],
        },
      });
      for await (const { data } of readServerSentEvents(body)) {
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch (error) {
          throw new GenerationError("Anthropic sent a stream event that is not JSON.", { cause: error });
        }
        const event = anthropicEvent.safeParse(json);
        if (!event.success) continue;
        if (event.data.type === "error") throw new GenerationError(`Anthropic reported an error: ${event.data.error?.message ?? "unknown"}`);
        if (event.data.type === "content_block_delta" && event.data.delta?.type === "text_delta" && event.data.delta.text) yield event.data.delta.text;
        if (event.data.type === "message_stop") return;
      }
    },
  };
}
