import { unknownApiRoute } from "@/lib/api/api-deps";

/** Anything under /api/v1 that names no operation: a JSON 404 pointing at the OpenAPI document. */
const route = unknownApiRoute();
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
