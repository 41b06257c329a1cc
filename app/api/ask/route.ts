import { z } from "zod";
import { getDatabase } from "@/lib/db";
import { AppError, describeError } from "@/lib/errors";
import { authorizedRoute } from "@/lib/http/authorized";
import { getAskContext } from "@/lib/rag/ask/ask-context";
import { resolvePanelScope } from "@/lib/rag/ask/ask-scope";
import { askInThread } from "@/lib/rag/ask/threads";

/**
 * POST a question ({question, threadId?, scope?}) — the scope as the panel sends it (sections by
 * slug, projects, records, or the list's current search). The answer streams back as NDJSON events:
 * thread, sources, delta…, final (answered | refused | restricted | failed), saved.
 */
export const POST = authorizedRoute(z.unknown(), async (request, { principal }) => {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new AppError("bad_request", "Send the question as JSON.");
  }
  const { prisma } = await getDatabase();
  const context = await getAskContext();
  const input = (body && typeof body === "object" ? body : {}) as { scope?: unknown };
  const scope = await resolvePanelScope(prisma, context, principal, input.scope);
  const events = askInThread(prisma, context, principal, { ...input, scope });
  // Validation and thread ownership fail before anything streams, as a normal JSON error.
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
});
