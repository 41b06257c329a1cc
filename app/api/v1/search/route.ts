import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/search — hybrid search, one result per record (see lib/api/operations/semantic-search.ts). */
const route = apiRoute("semantic_search");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
