/**
 * `npm run --silent mcp`: Mnemo's MCP server on stdio, for desktop agents that launch their
 * tools as processes. It forwards every request to a running Mnemo's /api/mcp with your token,
 * so the server's ACL, rate limits and audit apply exactly as over HTTP, and no second process
 * ever opens the embedded database.
 *
 *   MNEMO_API_TOKEN  a personal token from /account/tokens (required); a "Read and write" token
 *                    also gets the write tools when the server sets MNEMO_MCP_ALLOW_WRITE, since
 *                    the tool list is the server's for that token
 *   MNEMO_URL        the Mnemo server (default http://127.0.0.1:3000)
 *
 * Use --silent so npm's banner does not corrupt the protocol on stdout; messages go to stderr.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

function fail(message: string): never {
  process.stderr.write(`mnemo mcp: ${message}\n`);
  process.exit(1);
}

const token = process.env.MNEMO_API_TOKEN?.trim();
if (!token) fail("set MNEMO_API_TOKEN to a personal API token (create one at /account/tokens).");
let endpoint: URL;
try {
  endpoint = new URL("/api/mcp", process.env.MNEMO_URL?.trim() || "http://127.0.0.1:3000");
} catch {
  fail(`MNEMO_URL is not a URL: ${process.env.MNEMO_URL}`);
}

const upstream = new Client({ name: "mnemo-stdio", version: "0.1.0" });
try {
  await upstream.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
} catch (error) {
  const text = error instanceof Error ? error.message : String(error);
  if (/401|unauthori[sz]ed/i.test(text)) fail("the server refused the token: it is unknown, expired or revoked.");
  if (/ECONNREFUSED|fetch failed/i.test(text)) fail(`no Mnemo server answers at ${endpoint.origin}; start it (npm run demo) or set MNEMO_URL.`);
  fail(`could not connect to ${endpoint.href}: ${text}`);
}

const server = new Server(upstream.getServerVersion() ?? { name: "mnemo", version: "0.1.0" }, {
  capabilities: { tools: {} },
  instructions: upstream.getInstructions(),
});
server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, async (request) => upstream.callTool(request.params));
server.onclose = () => {
  void upstream.close();
};
await server.connect(new StdioServerTransport());
process.stderr.write(`mnemo mcp: serving ${endpoint.origin} on stdio\n`);
