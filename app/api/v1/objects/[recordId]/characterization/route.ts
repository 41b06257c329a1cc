import { apiRoute } from "@/lib/api/api-deps";

/** GET /api/v1/objects/{recordId}/characterization — typology, material, period and date proposals. */
const route = apiRoute("characterize_object");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
