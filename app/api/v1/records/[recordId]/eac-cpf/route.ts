import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { tokenRoute } from "@/lib/api/token-route";
import { personEacCpfResponse } from "@/lib/http/finding-aid-download";

/** GET /api/v1/records/{recordId}/eac-cpf — a person as an EAC-CPF record, as the token's user may read it. */
export const GET = tokenRoute(z.object({ recordId: z.string().max(100) }), async (request, { principal, runtime, params }) =>
  personEacCpfResponse(runtime.database.prisma, principal, { id: params.recordId, origin: linkOrigin(request, runtime.config), agency: runtime.config.MNEMO_OAI_REPOSITORY_NAME }),
);
