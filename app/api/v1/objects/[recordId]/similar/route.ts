import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/objects/{recordId}/similar — objects most alike. */
const route = apiRoute("similar_objects");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
