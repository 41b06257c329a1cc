import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/sections/{section}/embed-groups — a section's embed groups. */
const route = apiRoute("embed_groups");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
