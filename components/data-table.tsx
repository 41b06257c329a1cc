import type { ReactNode } from "react";

/** A column of a DataTable: its header, and whether its figures line up on the right. */
export type TableColumn = string | { label: ReactNode; numeric?: boolean };

/**
 * The app's table of rows: full width, small text, a header row of column headers (scope="col")
 * over a bottom rule. `className` places it (its margin, a maximum width); the rows are the children.
 */
export function DataTable({
  columns,
  className = "mt-4",
  testId,
  children,
}: {
  columns: TableColumn[];
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <table className={`${className} w-full text-left text-sm`} data-testid={testId}>
      <thead className="border-b border-stone-200 text-xs text-stone-500">
        <tr>
          {columns.map((column, index) => {
            const { label, numeric } = typeof column === "string" ? { label: column, numeric: false } : column;
            const classes = ["py-2", index < columns.length - 1 && "pr-3", numeric && "text-right"].filter(Boolean).join(" ");
            return (
              <th key={index} scope="col" className={classes}>
                {label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
