import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/records — create a record (write scope). */
const route = apiRoute("create_record");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
