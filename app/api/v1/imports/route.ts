import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/imports — import a file into a section of a project (write scope). */
const route = apiRoute("create_import");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
