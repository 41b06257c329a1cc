import "server-only";
import type { Principal } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { ndjsonResponse } from "./ndjson";
import { maxJsonBodyBytes, readJsonBody } from "./request-body";
import { refuseUnstorableText } from "../storable-text";
import type { AskContext } from "../rag/ask/ask";
import { resolvePanelScope } from "../rag/ask/ask-scope";
import { askInThread } from "../rag/ask/threads";

/**
 * POST /api/ask: a question ({question, threadId?, scope?}) — the scope as the panel sends it
 * (sections by slug, projects, records, or the list's current search). The answer streams back
 * as NDJSON events: thread, sources, delta…, final (answered | refused | restricted | failed),
 * saved. The body is bounded like the API's (256 KiB). Validation and thread ownership fail
 * before anything streams, as a normal JSON error.
 */
export async function askResponse(prisma: PrismaClient, askContext: () => Promise<AskContext>, principal: Principal, request: Request): Promise<Response> {
  const body = await readJsonBody(request, maxJsonBodyBytes, "the question");
  refuseUnstorableText(body);
  const context = await askContext();
  const input = (body && typeof body === "object" ? body : {}) as { scope?: unknown };
  const scope = await resolvePanelScope(prisma, context, principal, input.scope);
  const events = askInThread(prisma, context, principal, { ...input, scope });
  return ndjsonResponse(events);
}
