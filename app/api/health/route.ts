import type { Principal } from "@/lib/acl";
import { authenticateApiTokenWithId } from "@/lib/auth/api-tokens";
import { getPrincipal } from "@/lib/auth/get-principal";
import { healthReport } from "@/lib/health";
import { getRuntime } from "@/lib/runtime";

/**
 * Public on purpose (load balancers, operators, scripts waiting for `ready`): it reports
 * services and whether search is ready, never archive content. A session or an API token adds
 * each readable section's indexing progress, counted over the records that principal may read;
 * a token that is not valid is answered as an anonymous caller (health never refuses).
 */
export async function GET(request: Request): Promise<Response> {
  const { database } = await getRuntime();
  const report = await healthReport(database.sql, database.mode, undefined, {}, await callerOf(request, database.prisma));
  return Response.json(report, { status: report.status === "down" ? 503 : 200, headers: { "cache-control": "no-store", vary: "Cookie, Authorization" } });
}

async function callerOf(request: Request, prisma: Parameters<typeof authenticateApiTokenWithId>[0]): Promise<Principal | null> {
  try {
    const authorization = request.headers.get("authorization");
    if (authorization) return (await authenticateApiTokenWithId(prisma, authorization))?.principal ?? null;
    return await getPrincipal();
  } catch {
    return null;
  }
}
