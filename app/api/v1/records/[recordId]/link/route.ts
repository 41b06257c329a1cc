import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/records/{recordId}/link — link it to another record (write scope). */
const route = apiRoute("link_record");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
