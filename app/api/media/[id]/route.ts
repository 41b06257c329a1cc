import { z } from "zod";
import { withApiToken } from "@/lib/api/api-deps";
import type { Principal } from "@/lib/acl";
import { mediaResponse } from "@/lib/archive/serve-media";
import { getConfig } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { authorizedRoute } from "@/lib/http/authorized";

/**
 * A media file the principal may read, with Range support for seeking players;
 * `?variant=thumb` serves an image's thumbnail (the original until the worker has made one).
 * Browsers come with their session; agents send their API token as a bearer (the links in API
 * results), and then no cookie is read.
 */
async function serve(request: Request, principal: Principal, id: string): Promise<Response> {
  const { prisma } = await getDatabase();
  return mediaResponse(prisma, principal, {
    id,
    range: request.headers.get("range"),
    method: request.method === "HEAD" ? "HEAD" : "GET",
    storageDir: getConfig().storageDir,
    variant: new URL(request.url).searchParams.get("variant") === "thumb" ? "thumb" : "original",
  });
}

const serveToSession = authorizedRoute(z.object({ id: z.string() }), async (request, { principal, params }) => serve(request, principal, params.id));

async function serveMedia(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  if (request.headers.has("authorization")) {
    const { id } = await context.params;
    return withApiToken(request, (principal) => serve(request, principal, id));
  }
  return serveToSession(request, context);
}

export const GET = serveMedia;
export const HEAD = serveMedia;
