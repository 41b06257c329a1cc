import "server-only";
import { z } from "zod";
import { askStreamEvent, errorSchema } from "./api-schemas";
import { maxJsonBodyBytes } from "../http/request-body";
import { type ApiOperation, operations, toolOperations } from "./operations";
import { researchCost, researchRequestSchema, researchStreamEvent } from "./research/research-schemas";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the operations' own zod schemas (the ones
 * that validate input and filter output), so the description cannot drift from the code.
 */
type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (no $schema key): OpenAPI and research mode's tool definitions. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const errorRef = { $ref: "#/components/schemas/Error" };

/** A response of the one error shape, described. */
const error = (description: string) => ({ description, content: { "application/json": { schema: errorRef } } });

function errorResponses(operation: ApiOperation): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    "400": error("The input is not valid; fieldErrors names each problem."),
    "401": error("No token, or an expired, revoked or unknown one."),
    "429": {
      ...error("Too many requests with this token."),
      headers: { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } } },
    },
    "503": error("Search by meaning or the answer model is unavailable for now."),
  };
  if (operation.path.startsWith("/imports")) {
    responses["404"] = error("No such project, section or import job, or one the token's user may not import into or follow: the two are answered alike.");
  } else if (operation.scope === "write") {
    responses["404"] = error("No such record or project, or one the token's user may not read: the two are answered alike.");
  } else if (operation.pathParams.length > 0 || operation.name === "read_record") {
    responses["404"] = error("No such record, or one the token's user may not read: the two are answered alike.");
  }
  if (operation.scope !== "read") {
    responses["403"] = error(
      operation.path.startsWith("/imports")
        ? `insufficient_scope: the token lacks the ${operation.scope} scope (whatever the call aims at).`
        : `insufficient_scope: the token lacks the ${operation.scope} scope (whatever the call aims at); or forbidden: the token's user may read the record or project but not edit it.`,
    );
  }
  if (operation.scope === "write" && !operation.path.startsWith("/imports")) {
    responses["409"] = error(
      "conflict: the version sent is not the record's version (someone saved it since it was read: read it again), or, for a proposal, the role is catalogued or already has one awaiting a decision. Nothing was written.",
    );
  }
  if (operation.method !== "GET") responses["413"] = error(`The body is over ${bodyLimitText(operation)}.`);
  return responses;
}

function bodyLimitText(operation: ApiOperation): string {
  const bytes = operation.maxBodyBytes?.() ?? maxJsonBodyBytes;
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function tagOf(operation: ApiOperation): string {
  if (operation.name.includes("import")) return "imports";
  if (operation.name.includes("object") || operation.path.startsWith("/objects")) return "objects";
  return operation.name === "ask" ? "answers" : "records";
}

function pascal(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());
}

/** Research mode: not an operation (no MCP tool), described here by hand from its own schemas. */
function researchPath(): Record<string, unknown> {
  return {
    operationId: "research",
    summary: "Research a question (a tool-using model, streamed)",
    description:
      "A chat model plans several steps over the archive's read tools (semantic_search, retrieve, read_record, similar_records, similar_objects, list_sections, embed_groups), each run as the token's user, and ends with an answer whose citations are verified. " +
      "The response is NDJSON, one ResearchStreamEvent a line: start, a step per tool call (tool, arguments, summary, links, how many results were withheld from the model), then answer, budget or error, and done last. " +
      "Text of local-only sections never reaches the model. The run is capped by model turns, tool calls, seconds and tokens (MNEMO_RESEARCH_MAX_*). 503 when the server has no research model.",
    tags: ["answers"],
    security: [{ bearerToken: ["read"] }],
    requestBody: { required: true, content: { "application/json": { schema: jsonSchema(researchRequestSchema, "input") } } },
    responses: {
      "200": {
        description: "NDJSON events, one per line.",
        content: { "application/x-ndjson": { schema: { $ref: "#/components/schemas/ResearchStreamEvent" } } },
      },
      "400": error("The input is not valid; fieldErrors names each problem."),
      "401": error("No token, or an expired, revoked or unknown one."),
      "413": error(`The body is over ${Math.round(maxJsonBodyBytes / 1024)} KiB.`),
      "429": {
        ...error("Too many requests with this token."),
        headers: { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } } },
      },
      "503": error("No research model is configured (the message says which variables to set)."),
    },
    "x-token-scope": "read",
    "x-rate-limit-cost": researchCost,
  };
}

/**
 * The archival XML downloads (not operations: no MCP tool, no JSON result), by hand. Each reads as
 * the token's user; what they may not read is left out, and an unreadable project or person is a
 * 404 like an unknown one.
 */
function xmlDownloadPaths(): Record<string, { get: Record<string, unknown> }> {
  const download = (options: { id: string; summary: string; description: string; param: string; paramDescription: string; mediaType: string }) => ({
    get: {
      operationId: options.id,
      summary: options.summary,
      description: options.description,
      tags: ["records"],
      security: [{ bearerToken: ["read"] }],
      parameters: [
        {
          name: options.param,
          in: "path",
          required: true,
          description: options.paramDescription,
          schema: { type: "string", maxLength: options.param === "slug" ? 200 : 100 },
        },
      ],
      responses: {
        "200": { description: "The XML document, as a download.", content: { [options.mediaType]: { schema: { type: "string" } } } },
        "401": error("No token, or an expired, revoked or unknown one."),
        "404": error("No such record or project, or one the token's user may not read."),
        "429": {
          ...error("Too many requests with this token."),
          headers: { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } } },
        },
      },
      "x-token-scope": "read",
    },
  });
  return {
    "/projects/{slug}/ead3": download({
      id: "project_ead3",
      summary: "A project as an EAD3 finding aid",
      description:
        "The project's sections as series and its records as items (EAD3 1.1.1), with dates, extents, languages, makers and authority links; only what the token's user may read.",
      param: "slug",
      paramDescription: "The project's slug.",
      mediaType: "application/xml",
    }),
    "/records/{recordId}/eac-cpf": download({
      id: "person_eac_cpf",
      summary: "A person as an EAC-CPF record",
      description: "Names, dates of existence, biography, places, relations the token's user may read and authority links (EAC-CPF 2.0).",
      param: "recordId",
      paramDescription: "The person's record id.",
      mediaType: "application/xml",
    }),
  };
}

export function openApiDocument(serverUrl = "/api/v1"): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { Error: jsonSchema(errorSchema, "output") };

  for (const operation of operations as readonly unknown[] as readonly ApiOperation[]) {
    const outputName = `${pascal(operation.name)}Result`;
    schemas[outputName] = jsonSchema(operation.output, "output");
    const input = jsonSchema(operation.input, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    const properties = input.properties ?? {};
    const required = new Set(input.required ?? []);

    const parameters = Object.entries(properties)
      .filter(([name]) => operation.method === "GET" || operation.pathParams.includes(name))
      .map(([name, schema]) => {
        const { description, ...rest } = schema;
        const inPath = operation.pathParams.includes(name);
        return { name, in: inPath ? "path" : "query", required: inPath || required.has(name), ...(description ? { description } : {}), schema: rest };
      });

    const okContent: Record<string, unknown> = { "application/json": { schema: { $ref: `#/components/schemas/${outputName}` } } };
    if (operation.stream) {
      schemas.AskStreamEvent = jsonSchema(askStreamEvent, "output");
      okContent["application/x-ndjson"] = { schema: { $ref: "#/components/schemas/AskStreamEvent" } };
    }

    const entry: Record<string, unknown> = {
      operationId: operation.name,
      summary: operation.title,
      description: operation.description,
      tags: [tagOf(operation)],
      // OpenAPI 3.1 lets a bearer scheme's requirement name roles: here, the token scope the call needs.
      security: [{ bearerToken: [operation.scope] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      responses: {
        "200": { description: operation.stream ? "The result; with stream: true, NDJSON events, one per line." : "The result.", content: okContent },
        ...errorResponses(operation),
      },
      ...(toolOperations.includes(operation) ? { "x-mcp-tool": operation.name } : {}),
      // Write tools are listed over MCP only for write tokens, and only when the server sets this.
      ...(toolOperations.includes(operation) && operation.scope === "write" ? { "x-mcp-requires": "MNEMO_MCP_ALLOW_WRITE" } : {}),
      "x-token-scope": operation.scope,
      "x-rate-limit-cost": operation.cost,
    };
    if (operation.method !== "GET") {
      const bodyProperties = Object.fromEntries(Object.entries(properties).filter(([name]) => !operation.pathParams.includes(name)));
      entry.requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: { ...input, properties: bodyProperties, required: [...required].filter((name) => !operation.pathParams.includes(name)) },
          },
        },
      };
    }
    paths[operation.path] = { ...(paths[operation.path] ?? {}), [operation.method.toLowerCase()]: entry };
  }

  schemas.ResearchStreamEvent = jsonSchema(researchStreamEvent, "output");
  paths["/research"] = { post: researchPath() };
  Object.assign(paths, xmlDownloadPaths());

  return {
    openapi: "3.1.0",
    info: {
      title: "Mnemo agent API",
      version: "1.0.0",
      description:
        "Search, passages, cited answers and object characterisation over the archive, as the token's user: nothing a user may not read is ever returned, and a record they may not read is answered exactly like one that does not exist. " +
        "Create a token at /account/tokens and send it as `Authorization: Bearer mnemo_…`. " +
        "A token has scopes: every token has `read` (search, passages, answers, records); `write` (imports, creating and updating records, links, media, proposals) must be chosen when the token is made, and is still bounded by what its user may edit. " +
        "Changes to a record carry the version read (read_record's `version`): a stale one is refused with 409 and nothing is written. Every change goes through the record editor's save: the same validation, indexing and audit. " +
        "A call whose token lacks the operation's scope (`x-token-scope`, and the scope named in its security requirement) is refused with 403 `insufficient_scope`, whatever it aims at. " +
        "The read operations are also MCP tools at /api/mcp (streamable HTTP, same token); the record write operations are MCP tools too, for write tokens, when the server sets MNEMO_MCP_ALLOW_WRITE (`x-mcp-requires`). Imports are HTTP only.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerToken: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal API token (mnemo_…) with scopes: `read` (every token) and, when chosen at /account/tokens, `write`. Tokens made before scopes existed read only.",
        },
      },
      schemas,
    },
  };
}
