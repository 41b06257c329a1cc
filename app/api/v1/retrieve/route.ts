import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/retrieve — whole passages with citations. */
const route = apiRoute("retrieve");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
