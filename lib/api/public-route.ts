import "server-only";
import type { z } from "zod";
import { type Principal, publicReader, withPublicProjects } from "../acl";
import { publicProjectIds } from "../archive/public-projects";
import { getPrincipal } from "../auth/get-principal";
import { parseRouteParams, runAuthorizedRoute } from "../http/run-authorized";
import { type Runtime, getRuntime } from "../runtime";
import { withApiToken } from "./api-deps";

type RouteContext = { params: Promise<unknown> };

export interface PublicRouteContext {
  principal: Principal;
  runtime: Runtime;
}

/**
 * The wrapper of the routes that also serve public projects (IIIF, OAI-PMH, media files):
 * - an `Authorization` header: the token's user (rate limit, CORS as in the API), plus the public projects;
 * - a session: the signed-in person, plus the public projects;
 * - neither: the public reader (lib/acl publicReader), who reads the public projects only.
 * The handler decides nothing about access: its services scope by the principal as everywhere,
 * so a record outside these projects is the same 404 as a missing one. A sessionless answer is
 * readable from any origin (IIIF viewers and harvesters run elsewhere); a browser never exposes a
 * credentialed answer to another origin under `*`, so no session or token leaks through it.
 */
export function publicRoute<ParamsSchema extends z.ZodType>(
  paramsSchema: ParamsSchema,
  handler: (request: Request, context: PublicRouteContext & { params: z.output<ParamsSchema> }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    if (request.headers.has("authorization")) {
      return withApiToken(request, async ({ principal, runtime }) => {
        const params = parseRouteParams(paramsSchema, await context.params);
        return handler(request, { principal: withPublicProjects(principal, await publicProjectIds(runtime.database.prisma)), runtime, params });
      });
    }
    let anonymous = false;
    const response = await runAuthorizedRoute(
      paramsSchema,
      async (incoming, { principal, params }) => handler(incoming, { principal, params, runtime: await getRuntime() }),
      async () => {
        const ids = await publicProjectIds((await getRuntime()).database.prisma);
        const person = await getPrincipal();
        anonymous = person === null;
        return person ? withPublicProjects(person, ids) : publicReader(ids);
      },
      request,
      context.params,
    );
    if (anonymous) response.headers.set("Access-Control-Allow-Origin", "*");
    response.headers.append("Vary", "Cookie");
    return response;
  };
}
