import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/records/{recordId}/media — attach a file to a field (write scope). */
const route = apiRoute("attach_media");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
