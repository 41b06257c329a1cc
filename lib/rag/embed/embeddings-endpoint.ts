import "server-only";
import { z } from "zod";
import { isLoopback, redacted } from "../../acl/egress";
import { isAbortError, startDeadline } from "../../deadline";
import { EmbeddingError, errorMessage, normaliseVector } from "./embedder";

/** Where an endpoint counts as local, and how messages name it: lib/acl/egress.ts, shared with the speech-to-text client. */
export { isLoopback, redacted };

/**
 * One POST to an OpenAI-style `/v1/embeddings` endpoint, shared by the text embedder and the
 * CLIP-style image embedder: network failures, timeouts, HTTP errors, bodies that are not JSON
 * or not the expected shape, wrong counts, repeated indices and wrong dimensions all become an
 * EmbeddingError naming the endpoint without its credentials; retryable only where a retry can
 * help (network, 408, 429, 5xx).
 */

const responseSchema = z.object({
  data: z.array(
    z.object({
      // Zod 4 numbers refuse ±Infinity (1e400 in JSON parses to Infinity).
      embedding: z.array(z.number()),
      index: z.int().nonnegative(),
    }),
  ),
});

/** Longest piece of an error body quoted in a message: enough to diagnose, not to flood logs. */
const quotedBodyLength = 300;

export interface EmbeddingsRequest {
  endpoint: string;
  apiKey?: string;
  /** The JSON body; `input` must hold `expected` items. */
  body: Record<string, unknown>;
  expected: number;
  timeoutMs: number;
  model: string;
  dimension: number;
  /** How messages name the server and the model, e.g. "Embedding server" / "Embedding model". */
  serverLabel: string;
  modelLabel: string;
  /** What the inputs are, for count errors: "texts", "images". */
  what: string;
}

/** Unit vectors in input order, or an EmbeddingError. */
export async function postEmbeddings(request: EmbeddingsRequest): Promise<Float32Array[]> {
  const shown = redacted(request.endpoint);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  let response: Response;
  let text: string;
  const deadline = startDeadline(request.timeoutMs);
  try {
    response = await deadline.race(fetch(request.endpoint, { method: "POST", headers, body: JSON.stringify(request.body), signal: deadline.signal }));
    text = await deadline.race(response.text());
  } catch (error) {
    const reason = isAbortError(error) ? `no answer within ${request.timeoutMs} ms` : networkReason(error);
    throw new EmbeddingError(`${request.serverLabel} ${shown}: ${reason}.`, { retryable: true, cause: error });
  } finally {
    deadline.clear();
  }
  if (!response.ok) {
    const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
    throw new EmbeddingError(`${request.serverLabel} ${shown} answered HTTP ${response.status}: ${text.slice(0, quotedBodyLength)}`, { retryable });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EmbeddingError(`${request.serverLabel} ${shown} answered with something that is not JSON: ${text.slice(0, quotedBodyLength)}`, {
      retryable: false,
      cause: error,
    });
  }
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) {
    throw new EmbeddingError(`${request.serverLabel} ${shown} answered with an unexpected shape: ${z.prettifyError(parsed.error)}`, { retryable: false });
  }
  return inInputOrder(parsed.data.data, request);
}

function inInputOrder(items: z.infer<typeof responseSchema>["data"], request: EmbeddingsRequest): Float32Array[] {
  const { expected, what } = request;
  if (items.length !== expected) {
    throw new EmbeddingError(`${request.serverLabel} returned ${items.length} vectors for ${expected} ${what}.`, { retryable: false });
  }
  const vectors: (Float32Array | undefined)[] = new Array(expected);
  for (const item of items) {
    if (item.index >= expected || vectors[item.index]) {
      throw new EmbeddingError(`${request.serverLabel} returned index ${item.index}, out of range or repeated, for ${expected} ${what}.`, { retryable: false });
    }
    if (item.embedding.length !== request.dimension) {
      throw new EmbeddingError(
        `${request.modelLabel} "${request.model}" returned ${item.embedding.length} dimensions, but ${request.dimension} are configured.`,
        {
          retryable: false,
        },
      );
    }
    vectors[item.index] = normaliseVector(item.embedding);
  }
  // Counts match and no index repeats, so every slot is filled.
  return vectors as Float32Array[];
}

/** {baseUrl}/v1/embeddings, whether or not the configured base URL already ends in /v1. */
export function embeddingsEndpoint(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${trimmed}/v1/embeddings`;
}

function networkReason(error: unknown): string {
  // fetch wraps the socket error ("ECONNREFUSED …") in a generic "fetch failed".
  const cause = error instanceof Error ? error.cause : undefined;
  return cause ? `${errorMessage(error)} (${errorMessage(cause)})` : errorMessage(error);
}
