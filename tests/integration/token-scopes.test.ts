import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { type ApiDeps, handleApiRequest } from "../../lib/api/handle-api-request";
import { handleMcpRequest } from "../../lib/api/mcp-server";
import { openApiDocument } from "../../lib/api/openapi";
import { type ApiOperation, operations, toolOperationsFor } from "../../lib/api/operations";
import { defineOperation } from "../../lib/api/operations/operation";
import { authenticateApiTokenWithId, createApiToken, listApiTokens, revokeApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import type { AppError } from "../../lib/errors";
import { addMember, createProject, createUser, principalOf } from "../support/factories";
import { type ServedHandler, serveWebHandler } from "../support/serve-web-handler";
import { apiDepsWithoutModels } from "../support/service-runtime";
import { openTestDatabase } from "../support/test-database";

/**
 * Token scopes (issue 18): every token reads; `write` must be chosen when the token is made
 * (tokens made before scopes read only). The API refuses a write operation to a token without
 * write with a 403 `insufficient_scope` that is the same whatever the call aims at, before the
 * operation looks at anything; expired and revoked tokens get nothing; MCP offers no write
 * operation. The import operation's own scope tests (dry runs, jobs) are in import-api.test.ts.
 */
const origin = "http://mnemo.test";
let db: Database;
let curator: Principal;
let projectId: string;
const tokens = { read: "", write: "", expiredWrite: "", revokedWrite: "" };

/** Calls of the test write operation that reached its run function. */
const ran: { target: string; userId: string }[] = [];

/**
 * A write operation standing in for any write operation of the registry: the gate under test is
 * handleApiRequest's, which every operation passes through, so it must refuse this one alike.
 */
const touchProject = defineOperation({
  name: "touch_project",
  title: "Touch a project",
  description: "A write operation for the scope tests.",
  method: "POST",
  path: "/projects/{projectId}/touch",
  pathParams: ["projectId"],
  input: z.strictObject({ projectId: z.string().max(64), note: z.string().max(100).optional() }),
  output: z.object({ touched: z.string() }),
  cost: 1,
  scope: "write",
  async run(input, context) {
    ran.push({ target: input.projectId, userId: context.principal.userId });
    return { touched: input.projectId };
  },
});

const deps = (): ApiDeps => apiDepsWithoutModels(db, origin);

async function callOperation(operation: ApiOperation, token: string, target: string, body: Record<string, unknown> = {}) {
  const request = new Request(`${origin}/api/v1${operation.path.replace("{projectId}", target)}`, {
    method: operation.method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: operation.method === "POST" ? JSON.stringify(body) : undefined,
  });
  const response = await handleApiRequest(operation, request, { projectId: target }, deps());
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: JSON.parse(text) as { error?: { code: string; message: string } } & Record<string, unknown>,
  };
}

beforeAll(async () => {
  db = await openTestDatabase();
  const curatorUser = await createUser(db.prisma, { role: "curator" });
  projectId = (await createProject(db.prisma)).id;
  // Write is offered only to someone who edits some project.
  await addMember(db.prisma, curatorUser.id, projectId, "editor");
  curator = await principalOf(db.prisma, curatorUser.id);
  tokens.read = (await createApiToken(db.prisma, curator, { name: "reader", expiresInDays: 30 })).token;
  tokens.write = (await createApiToken(db.prisma, curator, { name: "writer", expiresInDays: 30, scopes: ["read", "write"] })).token;
  const expired = await createApiToken(db.prisma, curator, { name: "expired writer", expiresInDays: 1, scopes: ["read", "write"] });
  await db.prisma.apiToken.update({ where: { id: expired.summary.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  tokens.expiredWrite = expired.token;
  const revoked = await createApiToken(db.prisma, curator, { name: "revoked writer", expiresInDays: 30, scopes: ["read", "write"] });
  await revokeApiToken(db.prisma, curator, revoked.summary.id);
  tokens.revokedWrite = revoked.token;
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe("token scopes", () => {
  it("read only unless write is chosen; read always included; listed and audited", async () => {
    const plain = await createApiToken(db.prisma, curator, { name: "plain", expiresInDays: 7 });
    expect(plain.summary.scopes).toEqual(["read"]);
    // "write" alone still reads: a token that cannot read what it changed would be no use.
    const writer = await createApiToken(db.prisma, curator, { name: "importer", expiresInDays: 7, scopes: ["write", "write"] });
    expect(writer.summary.scopes).toEqual(["read", "write"]);
    const listed = new Map((await listApiTokens(db.prisma, curator)).map((token) => [token.name, token.scopes]));
    expect(listed.get("plain")).toEqual(["read"]);
    expect(listed.get("importer")).toEqual(["read", "write"]);
    const audit = await db.prisma.auditEvent.findFirstOrThrow({ where: { action: "token.create", targetId: writer.summary.id } });
    expect(audit.details).toMatchObject({ scopes: ["read", "write"] });
    expect((await authenticateApiTokenWithId(db.prisma, writer.token))?.scopes).toEqual(["read", "write"]);

    const refused = (await createApiToken(db.prisma, curator, { name: "admin", expiresInDays: 7, scopes: ["admin"] }).catch(
      (error: unknown) => error,
    )) as AppError;
    expect(refused.code).toBe("bad_request");
    expect(refused.fieldErrors?.["scopes.0"]).toEqual(["A scope is read or write."]);
  });

  it("gives write only to someone who may edit some project", async () => {
    const researcher = await createUser(db.prisma, { role: "researcher" });
    await addMember(db.prisma, researcher.id, projectId, "reader");
    const reader = await principalOf(db.prisma, researcher.id);
    const refused = (await createApiToken(db.prisma, reader, { name: "writer", expiresInDays: 7, scopes: ["read", "write"] }).catch(
      (error: unknown) => error,
    )) as AppError;
    expect(refused.code).toBe("bad_request");
    expect(refused.fieldErrors?.scopes).toEqual(["You may not edit any project, so a token of yours cannot write. Choose read."]);
    expect((await createApiToken(db.prisma, reader, { name: "reader", expiresInDays: 7 })).summary.scopes).toEqual(["read"]);
    // A curator who edits nothing is no writer either.
    const idle = await principalOf(db.prisma, (await createUser(db.prisma, { role: "curator" })).id);
    expect(
      ((await createApiToken(db.prisma, idle, { name: "writer", expiresInDays: 7, scopes: ["read", "write"] }).catch((error: unknown) => error)) as AppError)
        .code,
    ).toBe("bad_request");
  });

  it("gives tokens made before scopes read only, and the database refuses a token that cannot read", async () => {
    const user = await db.prisma.user.findUniqueOrThrow({ where: { id: curator.userId } });
    const id = randomUUID();
    // As the migration found existing rows: no scopes column written.
    await db.sql.query(
      `INSERT INTO api_tokens (id, user_id, name, token_hash, prefix, session_version, expires_at) VALUES ($1, $2, 'old', $3, 'mnemo_old', $4, now() + interval '1 day')`,
      [id, user.id, `hash-${id}`, user.sessionVersion],
    );
    expect((await db.prisma.apiToken.findUniqueOrThrow({ where: { id } })).scopes).toEqual(["read"]);
    for (const scopes of [`ARRAY['write']::"ApiTokenScope"[]`, `ARRAY[]::"ApiTokenScope"[]`, "NULL"]) {
      await expect(db.sql.query(`UPDATE api_tokens SET scopes = ${scopes} WHERE id = $1`, [id]), scopes).rejects.toThrow(/api_tokens_scopes_read/);
    }
  });

  it("refuses a write operation to a read token with 403 insufficient_scope, the same whatever it aims at, without running it", async () => {
    const existing = await callOperation(touchProject, tokens.read, projectId, { note: "hello" });
    const missing = await callOperation(touchProject, tokens.read, randomUUID());
    const malformed = await callOperation(touchProject, tokens.read, "not-an-id", { note: 42 });
    for (const response of [existing, missing, malformed]) {
      expect(response.status).toBe(403);
      expect(response.json.error?.code).toBe("insufficient_scope");
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="mnemo", error="insufficient_scope", scope="write"');
    }
    expect(existing.json.error?.message).toBe(
      "touch_project needs a token with the write scope, and this token does not have it. Create a token with read and write access at /account/tokens.",
    );
    // Not an existence oracle: a real, a missing and a malformed target get the same answer, byte for byte.
    expect(missing.text).toBe(existing.text);
    expect(malformed.text).toBe(existing.text);
    expect(ran).toEqual([]);
  });

  it("runs a write operation for a write token, as its user", async () => {
    const response = await callOperation(touchProject, tokens.write, projectId, { note: "hello" });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ touched: projectId });
    expect(ran).toEqual([{ target: projectId, userId: curator.userId }]);
  });

  it("gives expired and revoked tokens nothing, write scope or not", async () => {
    ran.length = 0;
    const listSections = operations.find((operation) => operation.name === "list_sections") as unknown as ApiOperation;
    for (const token of [tokens.expiredWrite, tokens.revokedWrite]) {
      for (const operation of [touchProject as unknown as ApiOperation, listSections]) {
        const response = await callOperation(operation, token, projectId);
        expect(response.status, operation.name).toBe(401);
        expect(response.json.error?.code).toBe("unauthorized");
      }
    }
    expect(ran).toEqual([]);
  });

  it("lets every token, read or write, call the read operations", async () => {
    const listSections = operations.find((operation) => operation.name === "list_sections") as unknown as ApiOperation;
    for (const token of [tokens.read, tokens.write]) expect((await callOperation(listSections, token, projectId)).status).toBe(200);
  });
});

describe("the registry, OpenAPI and MCP", () => {
  let served: ServedHandler;
  beforeAll(async () => {
    const apiDeps = deps();
    served = await serveWebHandler(async (request) => handleMcpRequest(request, apiDeps));
  });
  afterAll(async () => {
    await served?.close();
  });

  const all = operations as readonly unknown[] as readonly ApiOperation[];

  it("names a scope for every operation; without MNEMO_MCP_ALLOW_WRITE the agent tools are exactly the read operations", () => {
    for (const operation of all) expect(["read", "write"], operation.name).toContain(operation.scope);
    const readOnly = all.filter((operation) => operation.scope === "read").map((operation) => operation.name);
    expect(toolOperationsFor({ scopes: ["read", "write"], allowWrite: false }).map((operation) => operation.name)).toEqual(readOnly);
    expect(toolOperationsFor({ scopes: ["read"], allowWrite: true }).map((operation) => operation.name)).toEqual(readOnly);
  });

  it("offers no write operation as an MCP tool, even to a write token, while the server does not allow MCP writes", async () => {
    const client = new Client({ name: "scope-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", served.url), { requestInit: { headers: { authorization: `Bearer ${tokens.write}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name).sort();
      expect(names).toEqual(
        all
          .filter((operation) => operation.scope === "read")
          .map((operation) => operation.name)
          .sort(),
      );
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      for (const operation of all.filter((item) => item.scope !== "read")) {
        expect(names).not.toContain(operation.name);
        const result = await client.callTool({ name: operation.name, arguments: {} });
        expect(result.isError, operation.name).toBe(true);
      }
    } finally {
      await client.close();
    }
  });

  it("states each operation's scope in the OpenAPI document, and a 403 for write operations", () => {
    const document = openApiDocument() as {
      paths: Record<
        string,
        Record<
          string,
          { operationId: string; security: Record<string, string[]>[]; responses: Record<string, unknown>; "x-token-scope": string; "x-mcp-tool"?: string }
        >
      >;
    };
    const described = Object.values(document.paths).flatMap((path) => Object.values(path));
    // Research mode reads, and is no operation and no MCP tool.
    const research = described.find((entry) => entry.operationId === "research")!;
    expect(research).toMatchObject({ security: [{ bearerToken: ["read"] }], "x-token-scope": "read" });
    expect(research["x-mcp-tool"]).toBeUndefined();
    expect("403" in research.responses).toBe(false);
    // So do the XML downloads (EAD3, EAC-CPF): no operations, no MCP tools.
    const downloads = described.filter((entry) => entry.operationId === "project_ead3" || entry.operationId === "person_eac_cpf");
    expect(downloads).toHaveLength(2);
    for (const download of downloads) {
      expect(download).toMatchObject({ security: [{ bearerToken: ["read"] }], "x-token-scope": "read" });
      expect(download["x-mcp-tool"]).toBeUndefined();
      expect("403" in download.responses).toBe(false);
    }
    const entries = described.filter((entry) => entry !== research && !downloads.includes(entry));
    expect(entries.map((entry) => entry.operationId).sort()).toEqual(all.map((operation) => operation.name).sort());
    for (const entry of entries) {
      const operation = all.find((item) => item.name === entry.operationId)!;
      expect(entry.security).toEqual([{ bearerToken: [operation.scope] }]);
      expect(entry["x-token-scope"]).toBe(operation.scope);
      expect("403" in entry.responses, entry.operationId).toBe(operation.scope === "write");
      // Write operations are tools too (for write tokens, with MNEMO_MCP_ALLOW_WRITE), except imports.
      expect(entry["x-mcp-tool"], entry.operationId).toBe(operation.name.endsWith("_import") ? undefined : operation.name);
    }
  });
});
