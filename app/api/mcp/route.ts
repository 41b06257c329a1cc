import { mcpRoute } from "@/lib/api/api-deps";

/** The MCP server over streamable HTTP (stateless, bearer token): see lib/api/mcp-server.ts. */
const route = mcpRoute();
export const { GET, POST, DELETE, OPTIONS } = route;
