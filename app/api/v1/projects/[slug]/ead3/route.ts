import { projectEad3Route } from "@/lib/api/api-deps";

/** GET /api/v1/projects/{slug}/ead3 — the project as an EAD3 finding aid, as the token's user may read it. */
export const { GET } = projectEad3Route();
