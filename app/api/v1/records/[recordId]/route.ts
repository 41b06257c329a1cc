import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/records/{recordId} — a readable record. */
const route = apiRoute("read_record");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
