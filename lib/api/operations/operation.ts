import "server-only";
import type { z } from "zod";
import type { Principal } from "../../acl";
import type { ApiTokenScope } from "../../auth/api-token-limits";
import type { PrismaClient } from "../../db/generated/client";
import type { AskContext } from "../../rag/ask/ask";
import type { ObjectsRuntime } from "../../rag/objects/similar-objects";
import type { SearchContext } from "../../rag/search/search-archive";
import type { askStreamEvent } from "../api-schemas";

/**
 * What an agent API operation is: a name (the MCP tool's), an HTTP method and path, a zod input
 * schema (validated at the boundary, and the source of the OpenAPI parameters and the MCP input
 * schema), an output schema (the allow-list of what leaves the server), the token scope it needs
 * (read, or write for operations that change the archive: MCP lists those only for write tokens
 * and only when MNEMO_MCP_ALLOW_WRITE is on), and a run function that
 * calls the same ACL-scoped services the web pages call, as the token's user. Each operation is
 * one file beside this one; index.ts lists them.
 */
export interface ApiRuntime {
  prisma: PrismaClient;
  /** Where uploaded media go and the largest upload (MNEMO_STORAGE_DIR, MAX_UPLOAD_BYTES): attach_media stores there as the record form does. */
  media: { storageDir: string; maxBytes: number };
  search(): Promise<SearchContext>;
  ask(): Promise<AskContext>;
  objects(): Promise<ObjectsRuntime>;
}

export interface OperationContext {
  runtime: ApiRuntime;
  principal: Principal;
  /** Prefix for links in results, e.g. "https://archive.example.org" ("" for relative links). */
  origin: string;
  /** The token the call came with and over what: written operations name it in their audit events. */
  via?: { channel: "api" | "mcp"; tokenId: string };
}

export interface ApiOperation<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  method: "GET" | "POST" | "PATCH";
  /** OpenAPI path under /api/v1, with {param} for path parameters. */
  path: string;
  pathParams: readonly string[];
  input: Input;
  /** The MCP tool's input, when it differs (ask has no stream flag there). */
  toolInput?: z.ZodObject;
  output: Output;
  /** Rate-limit cost of one call (an answer costs more than a lookup). */
  cost: number;
  /** The token scope a call needs: `read` for lookups, `write` for changes (an MCP tool only for write tokens, with MNEMO_MCP_ALLOW_WRITE). */
  scope: ApiTokenScope;
  /** The largest body a call may send, when larger than the JSON API's 256 KiB (an import carries a file). */
  maxBodyBytes?(): number;
  run(input: z.output<Input>, context: OperationContext): Promise<z.input<Output>>;
  /** Streamed variant (ask with stream: true): events as NDJSON. */
  stream?(input: z.output<Input>, context: OperationContext): AsyncGenerator<z.input<typeof askStreamEvent>>;
  /** MCP annotations of a write tool: whether calling it again with the same input changes nothing more, and whether it removes or replaces data. */
  writeHints?: { idempotent: boolean; destructive: boolean };
  /** The text an agent reads in an MCP result (JSON of the output when absent). */
  toolText?(output: z.output<Output>): string;
}

export function defineOperation<Input extends z.ZodObject, Output extends z.ZodObject>(operation: ApiOperation<Input, Output>): ApiOperation<Input, Output> {
  return operation;
}
