import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/records/{recordId}/history — a readable record's saved versions, newest first. */
const route = apiRoute("read_record_history");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
