import { researchRoute } from "@/lib/api/api-deps";

/** POST /api/v1/research — research mode: the model's steps and its verified answer as NDJSON events. */
const route = researchRoute();
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
