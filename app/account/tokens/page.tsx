import type { Metadata } from "next";
import { headers } from "next/headers";
import { requestOrigin } from "@/lib/api/handle-api-request";
import { rateLimitFromConfig } from "@/lib/rate-limit";
import { listApiTokens, mayHaveWriteTokens } from "@/lib/auth/api-tokens";
import { isAdmin } from "@/lib/acl";
import { authorizedPage } from "@/lib/http/authorized";
import { formatDateTime } from "@/components/format";
import { NewTokenClient, RevokeTokenClient } from "./tokens-client";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";

export const metadata: Metadata = { title: "API tokens" };

/**
 * Your personal API tokens. A token acts as you, with your current access, for research tools
 * and agents; it stops working when it expires, when you revoke it, or when your password is
 * reset or your account deactivated.
 */
export default async function TokensPage() {
  const { principal, runtime } = await authorizedPage("/account/tokens");
  const { prisma } = runtime.database;
  const tokens = await listApiTokens(prisma, principal);
  const requestHeaders = await headers();
  const origin = requestOrigin(
    new Request("http://localhost/", {
      headers: { host: requestHeaders.get("host") ?? "localhost:3000", "x-forwarded-proto": requestHeaders.get("x-forwarded-proto") ?? "http" },
    }),
    runtime.config.AUTH_URL ? new URL(runtime.config.AUTH_URL).origin : undefined,
  );
  const { perMinute } = rateLimitFromConfig(runtime.config);
  return (
    <div>
      <PageHeader title="API tokens">
        A token lets a research tool or an agent act as you, seeing exactly what you may see — no more. It stops working when it expires, when you revoke it, or
        when your password is reset or your account is deactivated.
      </PageHeader>
      <div className="mt-4 rounded-lg border border-stone-200 bg-white p-4">
        <NewTokenClient writeOffered={mayHaveWriteTokens(principal)} />
      </div>
      {tokens.length === 0 ? (
        <p className="notice mt-6">You have no tokens.</p>
      ) : (
        <DataTable columns={["Name", "Token", "Access", "Created", "Expires", "Last used", "Status"]} className="mt-6" testId="tokens">
          {tokens.map((token) => {
            const status = token.status;
            return (
              <tr key={token.id} className="border-b border-stone-100 align-top">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {token.name}
                </th>
                <td className="py-2 pr-3 font-mono text-xs">{token.prefix}…</td>
                <td className="py-2 pr-3" data-testid="token-scopes">
                  {token.scopes.join(", ")}
                </td>
                <td className="py-2 pr-3">{formatDateTime(token.createdAt)}</td>
                <td className="py-2 pr-3">{formatDateTime(token.expiresAt)}</td>
                <td className="py-2 pr-3">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"}</td>
                <td className="py-2">{status === "active" ? <RevokeTokenClient id={token.id} name={token.name} /> : status}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <section className="mt-8 max-w-3xl" aria-labelledby="using-tokens">
        <h2 id="using-tokens" className="text-xl font-semibold">
          Using a token
        </h2>
        <p className="mt-1 text-sm text-stone-600">
          Send it in an <code>Authorization: Bearer mnemo_…</code> header. Each token may make {perMinute} requests a minute (an answer counts as five); past
          that the server answers 429 with <code>Retry-After</code>.
        </p>
        <h3 className="mt-4 font-medium">JSON API</h3>
        <p className="text-sm text-stone-600">
          Search, passages, passages for a prompt, similar records and objects, proposals and cited answers with any token; with a read and write token also
          imports (<code>POST /api/v1/imports</code>), creating and updating records (<code>POST /api/v1/records</code>, <code>PATCH /api/v1/records/…</code>{" "}
          with the version you read), links, files and proposed values — only where you may edit. Described in{" "}
          <a className="link" href="/api/v1/openapi.json">
            the OpenAPI document
          </a>
          .
        </p>
        <pre className="mt-2 overflow-x-auto rounded bg-stone-100 p-3 text-xs">
          {`curl -H "Authorization: Bearer $MNEMO_API_TOKEN" -H "content-type: application/json" \\\n  -d '{"query": "mine closure", "limit": 5}' ${origin}/api/v1/search`}
        </pre>
        <h3 className="mt-4 font-medium">MCP, for agents</h3>
        <p className="text-sm text-stone-600">
          Streamable HTTP at <code>{`${origin}/api/mcp`}</code> with the same header, or on stdio from a Mnemo checkout. Its tools read;{" "}
          {runtime.config.MNEMO_MCP_ALLOW_WRITE
            ? "a read and write token also gets tools that create and change records where you may edit."
            : isAdmin(principal)
              ? "this server offers no write tools (set MNEMO_MCP_ALLOW_WRITE=1 to offer them)."
              : "this server offers no write tools (an administrator can enable them)."}
        </p>
        <pre className="mt-2 overflow-x-auto rounded bg-stone-100 p-3 text-xs">
          {JSON.stringify({ command: "npm", args: ["run", "--silent", "mcp"], env: { MNEMO_URL: origin, MNEMO_API_TOKEN: "mnemo_…" } }, null, 2)}
        </pre>
      </section>
    </div>
  );
}
