import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/objects/{recordId}/proposals — propose a value for a curator to decide (write scope). */
const route = apiRoute("propose_value");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
