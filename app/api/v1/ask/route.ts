import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/ask — a cited answer, or NDJSON events with stream: true. */
const route = apiRoute("ask");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
