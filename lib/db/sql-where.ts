/**
 * A WHERE clause built from optional filters: `equals` adds `column = $n` with the value bound
 * as the next parameter, and nothing when the filter is not set. Column names are code, never
 * input, and are checked to be plain (alias.)identifiers.
 */
export function whereEquals(where: string[], params: unknown[], column: string, value: string | number | undefined | null): void {
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/i.test(column)) throw new Error(`unsafe column name: ${column}`);
  if (value === undefined || value === null || value === "") return;
  params.push(value);
  where.push(`${column} = $${params.length}`);
}
