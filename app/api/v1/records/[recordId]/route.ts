import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/records/{recordId} — a readable record; PATCH — update its fields (write scope). */
const route = apiRoute("read_record", "update_record");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
