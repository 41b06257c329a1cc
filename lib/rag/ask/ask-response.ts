import "server-only";
import type { Principal } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, describeError } from "../../errors";
import { refuseUnstorableText } from "../../storable-text";
import type { AskContext } from "./ask";
import { resolvePanelScope } from "./ask-scope";
import { askInThread } from "./threads";

/**
 * POST /api/ask: a question ({question, threadId?, scope?}) — the scope as the panel sends it
 * (sections by slug, projects, records, or the list's current search). The answer streams back
 * as NDJSON events: thread, sources, delta…, final (answered | refused | restricted | failed),
 * saved. Validation and thread ownership fail before anything streams, as a normal JSON error.
 */
export async function askResponse(prisma: PrismaClient, askContext: () => Promise<AskContext>, principal: Principal, request: Request): Promise<Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new AppError("bad_request", "Send the question as JSON.");
  }
  refuseUnstorableText(body);
  const context = await askContext();
  const input = (body && typeof body === "object" ? body : {}) as { scope?: unknown };
  const scope = await resolvePanelScope(prisma, context, principal, input.scope);
  const events = askInThread(prisma, context, principal, { ...input, scope });
  const first = await events.next();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      try {
        if (!first.done) send(first.value);
        for await (const event of events) send(event);
      } catch (error) {
        send({ type: "error", error: describeError(error) });
      } finally {
        controller.close();
      }
    },
    async cancel() {
      await events.return(undefined as never);
    },
  });
  return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}
