import { z } from "zod";
import { publicRoute } from "@/lib/api/public-route";
import type { Principal } from "@/lib/acl";
import { mediaResponse } from "@/lib/archive/serve-media";
import type { Runtime } from "@/lib/runtime";

/**
 * A media file the principal may read, with Range support for seeking players;
 * `?variant=thumb` serves an image's thumbnail (the original until the worker has made one),
 * `?variant=stream` a recording's streamable copy (the original when it needs none or has none yet);
 * `?page=N` a scan's page image (same access rule, same not_found).
 * Browsers come with their session; agents send their API token as a bearer (the links in API
 * results), and then no cookie is read; without either, the media of public projects' records
 * are served to anyone (IIIF viewers, harvesters) and everything else is not found.
 */
async function serve(request: Request, { principal, runtime }: { principal: Principal; runtime: Runtime }, id: string): Promise<Response> {
  return mediaResponse(runtime.database.prisma, principal, {
    id,
    range: request.headers.get("range"),
    method: request.method === "HEAD" ? "HEAD" : "GET",
    storageDir: runtime.config.storageDir,
    variant: mediaVariant(new URL(request.url).searchParams.get("variant")),
    page: pageOf(new URL(request.url).searchParams.get("page")),
  });
}

function mediaVariant(requested: string | null): "thumb" | "stream" | "original" {
  return requested === "thumb" || requested === "stream" ? requested : "original";
}

/** `?page=N` asks for a scan's page image; anything but a page number finds nothing. */
function pageOf(value: string | null): number | undefined {
  if (value === null) return undefined;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 0;
}

/** Signed in, with a token, or without either for a record of a public project (lib/api/public-route.ts). */
const serveMedia = publicRoute(z.object({ id: z.string() }), async (request, context) => serve(request, context, context.params.id));

export const GET = serveMedia;
export const HEAD = serveMedia;
