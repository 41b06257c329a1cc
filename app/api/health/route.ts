import { healthReport } from "@/lib/health";
import { getRuntime } from "@/lib/runtime";

/** Public on purpose (load balancers, operators): it reports services, never archive content. */
export async function GET(): Promise<Response> {
  const { database } = await getRuntime();
  const report = await healthReport(database.sql, database.mode);
  return Response.json(report, { status: report.status === "down" ? 503 : 200, headers: { "cache-control": "no-store" } });
}
