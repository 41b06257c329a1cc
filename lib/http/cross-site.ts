/**
 * Whether a request that changes something (anything but GET, HEAD and OPTIONS) to a page — a
 * server action — was sent by another site. Next.js makes this check for server actions
 * itself, but answers a mismatch, `Origin: null` (sandboxed frames, some redirects) and an
 * Origin that is not a URL with a 500; proxy.ts refuses them first with a 403. The comparison
 * is Next.js's own: the Origin's host against the first X-Forwarded-Host, else Host. A request
 * without Origin passes, as it does in Next.js: browsers send one with every POST, and a
 * hand-made request carries no cookies but its sender's.
 */
export function isCrossSiteWrite(request: { method: string; headers: Headers }): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return false;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  return !host || originHost !== host;
}
