import { personEacCpfRoute } from "@/lib/api/api-deps";

/** GET /api/v1/records/{recordId}/eac-cpf — a person as an EAC-CPF record, as the token's user may read it. */
export const { GET } = personEacCpfRoute();
