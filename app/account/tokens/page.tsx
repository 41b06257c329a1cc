import type { Metadata } from "next";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { requirePrincipal } from "@/lib/auth/get-principal";
import { getDatabase } from "@/lib/db";
import { formatDateTime } from "@/components/format";
import { NewTokenClient, RevokeTokenClient } from "./tokens-client";

export const metadata: Metadata = { title: "API tokens" };

/**
 * Your personal API tokens. A token acts as you, with your current access, for research tools
 * and agents; it stops working when it expires, when you revoke it, or when your password is
 * reset or your account deactivated.
 */
export default async function TokensPage() {
  const principal = await requirePrincipal("/account/tokens");
  const { prisma } = await getDatabase();
  const tokens = await listApiTokens(prisma, principal);
  return (
    <div>
      <h1 className="text-3xl font-semibold">API tokens</h1>
      <p className="mt-1 max-w-3xl text-sm text-stone-600">
        A token lets a research tool or an agent act as you, seeing exactly what you may see — no more. It stops working when it expires, when you revoke it, or
        when your password is reset or your account is deactivated.
      </p>
      <div className="mt-4 rounded-lg border border-stone-200 bg-white p-4">
        <NewTokenClient />
      </div>
      {tokens.length === 0 ? (
        <p className="notice mt-6">You have no tokens.</p>
      ) : (
        <table className="mt-6 w-full text-left text-sm" data-testid="tokens">
          <thead className="border-b border-stone-200 text-xs text-stone-500">
            <tr>
              <th scope="col" className="py-2 pr-3">Name</th>
              <th scope="col" className="py-2 pr-3">Token</th>
              <th scope="col" className="py-2 pr-3">Created</th>
              <th scope="col" className="py-2 pr-3">Expires</th>
              <th scope="col" className="py-2 pr-3">Last used</th>
              <th scope="col" className="py-2">Status</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => {
              const status = token.status;
              return (
                <tr key={token.id} className="border-b border-stone-100 align-top">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {token.name}
                  </th>
                  <td className="py-2 pr-3 font-mono text-xs">{token.prefix}…</td>
                  <td className="py-2 pr-3">{formatDateTime(token.createdAt)}</td>
                  <td className="py-2 pr-3">{formatDateTime(token.expiresAt)}</td>
                  <td className="py-2 pr-3">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"}</td>
                  <td className="py-2">{status === "active" ? <RevokeTokenClient id={token.id} name={token.name} /> : status}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
