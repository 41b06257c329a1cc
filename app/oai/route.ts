import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { oaiPageSize } from "@/lib/archive/oai/answer-oai-request";
import { oaiResponse } from "@/lib/http/oai-response";

/**
 * OAI-PMH 2.0 (lib/archive/oai): GET or form POST, without a session. Whoever calls, the records
 * harvested are those of public projects only — a signed-in person or a token is not widened to
 * their own projects here (OAI is for public harvesting).
 */
const answer = publicRoute(z.unknown(), async (request, { runtime }) => {
  const { prisma, sql } = runtime.database;
  const { config } = runtime;
  return oaiResponse(request, {
    prisma,
    sql,
    origin: linkOrigin(request, config),
    repositoryName: config.MNEMO_OAI_REPOSITORY_NAME,
    adminEmail: config.MNEMO_OAI_ADMIN_EMAIL,
    pageSize: oaiPageSize,
    tokenKey: config.AUTH_SECRET ?? "",
  });
});

export const GET = answer;
export const POST = answer;
