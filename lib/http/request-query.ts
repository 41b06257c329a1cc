/** A request's query as an object: the first value of each name, or every value of the `lists`. */
export function queryOf(request: Request, lists: readonly string[] = []): Record<string, string | string[]> {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) query[name] = lists.includes(name) ? params.getAll(name) : params.get(name)!;
  return query;
}
