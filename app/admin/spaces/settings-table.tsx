import { settingRows } from "@/lib/rag/config/settings";
import { DataTable } from "@/components/data-table";
import { PageSection } from "@/components/page-section";

const tableTitles = { search: "Search", answer: "Ask" } as const;

/**
 * The tuned numbers search and Ask run with, read from lib/rag/config/settings.ts: each with its
 * value, the reason it has it, and where an admin may override it. Read only: a value is changed
 * in code (or, where named, by the override).
 */
export function SettingsTable() {
  const rows = settingRows();
  return (
    <PageSection id="settings" title="Ranking and answering settings" className="mt-8">
      <p className="mt-2 text-sm text-stone-600">The defaults in force; an override, where one is named, replaces the value here.</p>
      <DataTable columns={["Setting", "Value", "Reason", "Overridden by"]} testId="ranking-settings">
        {(["search", "answer"] as const).flatMap((table) => [
          <tr key={table} className="border-b border-stone-200">
            <th scope="colgroup" colSpan={4} className="pt-4 pb-1 text-xs font-semibold uppercase text-stone-500">
              {tableTitles[table]}
            </th>
          </tr>,
          ...rows
            .filter((row) => row.table === table)
            .map((row) => (
              <tr key={`${table}.${row.name}`} className="border-b border-stone-100 align-top">
                <th scope="row" className="py-2 pr-3 font-mono text-xs font-normal">
                  {row.name}
                </th>
                <td className="py-2 pr-3 tabular-nums">{String(row.value)}</td>
                <td className="py-2 pr-3 text-stone-700">{row.reason}</td>
                <td className="py-2 text-stone-600">{row.overriddenBy ?? "–"}</td>
              </tr>
            )),
        ])}
      </DataTable>
    </PageSection>
  );
}
