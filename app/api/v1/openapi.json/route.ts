import { openApiDocument } from "@/lib/api/openapi";

/** The OpenAPI 3.1 document of /api/v1, generated from the operations' zod schemas. Public: it describes, it holds no data. */
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
