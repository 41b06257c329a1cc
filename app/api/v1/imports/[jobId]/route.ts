import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/imports/{jobId} — an import job's progress and problems (write scope). */
const route = apiRoute("get_import");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
