import { z } from "zod";
import { mediaResponse } from "@/lib/archive/serve-media";
import { getConfig } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { authorizedRoute } from "@/lib/http/authorized";

/**
 * A media file the principal may read, with Range support for seeking players;
 * `?variant=thumb` serves an image's thumbnail (the original until the worker has made one).
 */
const serveMedia = authorizedRoute(z.object({ id: z.string() }), async (request, { principal, params }) => {
  const { prisma } = await getDatabase();
  return mediaResponse(prisma, principal, {
    id: params.id,
    range: request.headers.get("range"),
    method: request.method === "HEAD" ? "HEAD" : "GET",
    storageDir: getConfig().storageDir,
    variant: new URL(request.url).searchParams.get("variant") === "thumb" ? "thumb" : "original",
  });
});

export const GET = serveMedia;
export const HEAD = serveMedia;
