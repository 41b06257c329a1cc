/** A CSV file the browser saves rather than shows: UTF-8, attachment, never cached. */
export function csvDownload(csv: string, fileName: string): Response {
  const safeName = fileName.replace(/[^A-Za-z0-9._-]+/g, "-");
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
