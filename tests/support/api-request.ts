import { contextBoundaryPattern } from "../../lib/api/agent-context";
import { type ApiDeps, handleApiRequest } from "../../lib/api/handle-api-request";
import { type ApiOperation, operations } from "../../lib/api/operations";

/**
 * Calls one agent API operation the way its route does: path parameters in the path, the rest
 * as the query string (GET) or a JSON body (POST), the token as a bearer.
 */
export const operationsByName = new Map((operations as readonly unknown[] as readonly ApiOperation[]).map((operation) => [operation.name, operation]));

export interface ApiRequestOptions {
  origin?: string;
  /** Bearer token; null sends no Authorization header. */
  token?: string | null;
  /** A raw Authorization header, instead of the token. */
  authorization?: string;
  headers?: Record<string, string>;
  method?: string;
  rawBody?: string;
}

export function apiRequest(
  name: string,
  input: Record<string, unknown>,
  options: ApiRequestOptions = {},
): { operation: ApiOperation; request: Request; params: Record<string, string> } {
  const operation = operationsByName.get(name);
  if (!operation) throw new Error(`no operation ${name}`);
  let path = operation.path;
  const params: Record<string, string> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (operation.pathParams.includes(key)) {
      params[key] = String(value);
      path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
    } else rest[key] = value;
  }
  const url = new URL(`/api/v1${path}`, options.origin ?? "http://mnemo.test");
  const method = options.method ?? operation.method;
  if (method === "GET") for (const [key, value] of Object.entries(rest)) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = {};
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (options.token) headers.authorization = `Bearer ${options.token}`;
  Object.assign(headers, options.headers ?? {});
  const body = method === "GET" ? undefined : (options.rawBody ?? JSON.stringify(rest));
  if (body !== undefined) headers["content-type"] = "application/json";
  return { operation, request: new Request(url, { method, headers, body }), params };
}

export function callApi(deps: ApiDeps, name: string, input: Record<string, unknown>, options: ApiRequestOptions = {}): Promise<Response> {
  const { operation, request, params } = apiRequest(name, input, options);
  return handleApiRequest(operation, request, params, deps);
}

/**
 * A response with agent context's fence boundary (random in every response) made constant, so
 * that two answers to the same request can be compared byte for byte.
 */
export function withSteadyBoundaries(text: string): string {
  return text.replace(contextBoundaryPattern, "record-text-0000000000000000");
}
