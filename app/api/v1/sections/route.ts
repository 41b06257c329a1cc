import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/sections — the archive's sections. */
const route = apiRoute("list_sections");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
