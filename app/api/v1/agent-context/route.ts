import { apiRoute } from "@/lib/api/api-deps";

/** POST /api/v1/agent-context — numbered passages, fenced as data, within a character budget. */
const route = apiRoute("get_agent_context");
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route;
