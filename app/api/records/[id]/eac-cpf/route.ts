import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { authorizedRoute } from "@/lib/http/authorized";
import { personEacCpfResponse } from "@/lib/http/finding-aid-download";

/**
 * A person (a record of the People section) as an EAC-CPF record, for the signed-in reader. A
 * record they may not read is the same 404 as a missing one; only readable records are its relations.
 */
export const GET = authorizedRoute(z.object({ id: z.string().max(100) }), async (request, { principal, runtime, params }) =>
  personEacCpfResponse(runtime.database.prisma, principal, {
    id: params.id,
    origin: linkOrigin(request, runtime.config),
    agency: runtime.config.MNEMO_OAI_REPOSITORY_NAME,
  }),
);
