import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../acl";
import { AppError, describeError } from "../errors";
import { errorResponse } from "../http/error-response";
import { refuseUnstorableText } from "../storable-text";
import { corsHeaders, preflightResponse } from "./cors";
import { maxJsonBodyBytes } from "../http/request-body";
import { type ApiDeps, rateLimitHeaders, rateLimitedError, requestOrigin, unauthorizedError } from "./handle-api-request";
import { type ApiOperation, type OperationContext, operations } from "./operations";

/**
 * The MCP server: one read-only tool per API operation (the same names, input schemas, output
 * schemas and services), built per request for the token's user. Over streamable HTTP at
 * /api/mcp it is stateless: every POST carries the bearer token, is rate-limited like the JSON
 * API, and gets a fresh server, so no session outlives a revoked token.
 */
export const mcpServerInfo = { name: "mnemo", version: "0.1.0" };

export const mcpInstructions =
  "Mnemo is a research archive (oral histories, object catalogues, publications, people) in English, Spanish and Catalan. " +
  "Every tool sees only what your token's user may read. Ground answers in retrieved passages and cite them as [n] with the citation's url; " +
  "when ask refuses, the readable records hold no evidence: say so rather than guess.";

type LooseOperation = ApiOperation;

function toolResult(operation: LooseOperation, output: Record<string, unknown>): CallToolResult {
  const text = operation.toolText ? operation.toolText(output as never) : JSON.stringify(output);
  return { content: [{ type: "text", text }], structuredContent: output };
}

export function toolError(error: unknown): CallToolResult {
  const described = describeError(error);
  return { isError: true, content: [{ type: "text", text: `${described.code}: ${described.message}${described.fieldErrors ? ` ${JSON.stringify(described.fieldErrors)}` : ""}` }] };
}

/** An MCP server whose tools act as `principal`; `charge` takes a call's extra rate-limit cost. */
export function createMcpServer(context: OperationContext, charge: (extraCost: number) => void = () => {}): McpServer {
  const server = new McpServer(mcpServerInfo, { instructions: mcpInstructions, capabilities: { tools: {} } });
  for (const operation of operations as readonly unknown[] as readonly LooseOperation[]) {
    server.registerTool(
      operation.name,
      {
        title: operation.title,
        description: operation.description,
        inputSchema: operation.toolInput ?? operation.input,
        outputSchema: operation.output,
        annotations: { title: operation.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        try {
          // A record id (a path parameter in the API) is left to the operation: malformed is not found, as missing is.
          refuseUnstorableText(Object.fromEntries(Object.entries(args).filter(([key]) => !operation.pathParams.includes(key))));
          charge(operation.cost - 1);
          const output = operation.output.parse(await operation.run(args as never, context));
          return toolResult(operation, output);
        } catch (error) {
          return toolError(error);
        }
      },
    );
  }
  return server;
}

/** POST /api/mcp: JSON-RPC over streamable HTTP, stateless, JSON responses. */
export async function handleMcpRequest(request: Request, deps: ApiDeps): Promise<Response> {
  if (request.method === "OPTIONS") return preflightResponse(deps.cors, request, ["POST"]);
  const headers: Record<string, string> = { ...corsHeaders(deps.cors, request), "cache-control": "no-store" };
  const finish = (response: Response) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  try {
    if (request.method !== "POST") {
      // Stateless: no server-initiated stream to GET and no session to DELETE.
      throw new AppError("method_not_allowed", "This MCP endpoint is stateless: send JSON-RPC messages with POST.", { headers: { allow: "POST, OPTIONS" } });
    }
    const auth = await deps.authenticate(request.headers.get("authorization"));
    if (!auth) throw unauthorizedError();
    const decision = deps.limiter.take(auth.tokenId, 1);
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);

    const principal: Principal = auth.principal;
    const context: OperationContext = { runtime: deps.runtime, principal, origin: requestOrigin(request, deps.origin) };
    const charge = (extra: number) => {
      if (extra <= 0) return;
      const more = deps.limiter.take(auth.tokenId, extra);
      if (!more.allowed) throw rateLimitedError(more);
    };
    const server = createMcpServer(context, charge);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: maxJsonBodyBytes });
    await server.connect(transport);
    try {
      return finish(await transport.handleRequest(request));
    } finally {
      await server.close();
    }
  } catch (error) {
    return finish(errorResponse(error));
  }
}
