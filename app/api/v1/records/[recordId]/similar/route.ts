import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/records/{recordId}/similar — records nearest in meaning. */
const route = apiRoute("similar_records");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
