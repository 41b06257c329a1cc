import type { Metadata } from "next";
import Link from "next/link";
import { type AuditLogKind, type AuditLogPage, auditLogKinds, listAuditLog } from "@/lib/admin/audit-log";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { isAppError } from "@/lib/errors";
import { formatDateTime } from "@/components/format";
import { DataTable } from "@/components/data-table";
import { AdminPageHeader } from "@/components/page-header";
import { PageSection } from "@/components/page-section";
import { LabelledField } from "@/components/labelled-field";

export const metadata: Metadata = { title: "Audit log" };

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const kindLabels: Record<AuditLogKind, string> = {
  all: "Everything",
  records: "Records",
  proposals: "Proposals",
  configuration: "Configuration",
  "sign-ins": "Sign-ins",
};

const detailsLimit = 160;

/** Sign-ins that did not go through, shown in red. */
const refusedSignIns = new Set(["sign-in.failed", "sign-in.throttled", "sign-in.refused"]);

/** Details as compact `key: value` text; objects and arrays as JSON. */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value)}`)
    .join(" · ");
}

function truncate(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1).trimEnd()}…` : text;
}

/**
 * The audit log, for admins: record saves, proposal decisions, configuration changes and
 * sign-ins, newest first, filtered by kind, actor and dates, 50 a page. The filters live in the
 * URL (a GET form), so a filtered view can be bookmarked and shared. Anyone else: not found.
 */
export default async function AdminAuditPage({ searchParams }: PageProps) {
  const { principal, runtime } = await authorizedAdminPage("/admin/audit");
  const query = await searchParams;
  const first = (name: string) => {
    const value = Array.isArray(query[name]) ? query[name][0] : query[name];
    return value?.trim() ? value.trim() : undefined;
  };
  const filters = { kind: first("kind"), actor: first("actor"), from: first("from"), to: first("to") };
  const { sql } = runtime.database;

  let log: AuditLogPage | null = null;
  let problem: string | null = null;
  try {
    log = await listAuditLog(sql, principal, { ...filters, page: first("page") });
  } catch (error) {
    if (!isAppError(error) || error.code !== "bad_request") throw error;
    problem = error.message;
  }

  const href = (page: number) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) if (value && !(name === "kind" && value === "all")) search.set(name, value);
    if (page > 1) search.set("page", String(page));
    const text = search.toString();
    return text ? `/admin/audit?${text}` : "/admin/audit";
  };
  const selectedKind = auditLogKinds.find((kind) => kind === filters.kind) ?? "all";
  const filtered = selectedKind !== "all" || Boolean(filters.actor || filters.from || filters.to);

  return (
    <div>
      <AdminPageHeader title="Audit log">Record saves, proposal decisions, configuration changes and sign-ins, newest first. Times are in UTC.</AdminPageHeader>

      <form
        action="/admin/audit"
        method="get"
        role="search"
        aria-label="Filter the audit log"
        className="mt-6 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4"
      >
        <LabelledField htmlFor="audit-kind" label="Kind">
          <select id="audit-kind" name="kind" defaultValue={selectedKind} className="field-input">
            {auditLogKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabels[kind]}
              </option>
            ))}
          </select>
        </LabelledField>
        <LabelledField className="min-w-56 flex-1" htmlFor="audit-actor" label="Who (email contains)">
          <input id="audit-actor" name="actor" type="search" defaultValue={filters.actor} maxLength={200} className="field-input" />
        </LabelledField>
        <LabelledField htmlFor="audit-from" label="From">
          <input id="audit-from" name="from" type="date" defaultValue={filters.from} className="field-input" />
        </LabelledField>
        <LabelledField htmlFor="audit-to" label="To">
          <input id="audit-to" name="to" type="date" defaultValue={filters.to} className="field-input" />
        </LabelledField>
        <button type="submit" className="btn btn-primary">
          Apply
        </button>
        {filtered && (
          <Link href="/admin/audit" className="link self-center text-sm">
            Clear filters
          </Link>
        )}
      </form>

      <PageSection id="events" title={<>Events {log && <span className="text-base font-normal text-stone-500">({log.total})</span>}</>} className="mt-8">
        {problem !== null ? (
          <p role="alert" className="notice-error mt-3">
            {problem}
          </p>
        ) : !log || log.entries.length === 0 ? (
          <p className="notice mt-3">No events match these filters.</p>
        ) : (
          <DataTable columns={["When", "Action", "Who", "Target", "Project", "Details"]} className="mt-3" testId="audit-log">
            {log.entries.map((entry) => {
              const details = detailsText(entry.details);
              return (
                <tr key={entry.id} className="border-b border-stone-100 align-top">
                  <td className="py-2 pr-3 whitespace-nowrap text-stone-600">
                    <time dateTime={entry.at.toISOString()}>{formatDateTime(entry.at)}</time>
                  </td>
                  <td className={`py-2 pr-3 font-mono text-xs whitespace-nowrap ${refusedSignIns.has(entry.action) ? "text-red-700" : ""}`}>{entry.action}</td>
                  <td className="py-2 pr-3 break-all">{entry.actor ?? <span className="text-stone-400">—</span>}</td>
                  <td className="py-2 pr-3">{entry.target}</td>
                  <td className="py-2 pr-3">{entry.project ?? <span className="text-stone-400">—</span>}</td>
                  <td className="py-2 text-xs break-all text-stone-600" title={details.length > detailsLimit ? truncate(details, 2000) : undefined}>
                    {truncate(details, detailsLimit)}
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
        {log && log.pageCount > 1 && (
          <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
            {log.page > 1 ? (
              <Link href={href(log.page - 1)} className="link">
                Previous
              </Link>
            ) : (
              <span className="text-stone-400">Previous</span>
            )}
            <span>
              Page {log.page} of {log.pageCount}
            </span>
            {log.page < log.pageCount ? (
              <Link href={href(log.page + 1)} className="link">
                Next
              </Link>
            ) : (
              <span className="text-stone-400">Next</span>
            )}
          </nav>
        )}
      </PageSection>
    </div>
  );
}
