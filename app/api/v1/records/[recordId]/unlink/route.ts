import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/records/{recordId}/unlink — remove a link to another record (write scope). */
const route = apiRoute("unlink_record");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
