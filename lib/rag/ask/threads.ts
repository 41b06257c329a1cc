import "server-only";
import { z } from "zod";
import { type Principal, canRead } from "../../acl";
import { canReadSources } from "../../acl/derived-scope";
import { isUuid } from "../../ids";
import type { PrismaClient } from "../../db/generated/client";
import { notFound, parseInput } from "../../errors";
import { truncateText } from "../../storable-text";
import { type AskContext, type AskEvent, type AskOutcome, type Citation, ask, askRequestSchema } from "./ask";

/**
 * Questions and answers kept per user as threads. A thread belongs to the user who asked:
 * anyone else — and any malformed or unknown id — gets not found. Reopening a thread checks
 * the answer's sources again, as the records are now: an answer holding text of a record the
 * user can no longer read (a cited record, or one quoted by a source's passage, moved into a
 * restricted project or deleted) is withheld.
 */
export const askInThreadSchema = askRequestSchema.extend({
  threadId: z.string().max(64).optional(),
});

export interface ThreadSummary {
  id: string;
  title: string;
  updatedAt: Date;
}

export interface ThreadMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  status: string;
  citations: Citation[];
  withheld: { recordId: string; recordTitle: string; chunkId: string; timeStart: number | null }[];
  createdAt: Date;
}

export const noLongerReadableMessage = "This answer cited records you can no longer read, so it is not shown.";

async function ownThread(prisma: PrismaClient, principal: Principal, threadId: string) {
  if (!isUuid(threadId)) throw notFound();
  const thread = await prisma.chatThread.findFirst({ where: { id: threadId, userId: principal.userId } });
  if (!thread) throw notFound();
  return thread;
}

export async function listThreads(prisma: PrismaClient, principal: Principal): Promise<ThreadSummary[]> {
  return prisma.chatThread.findMany({
    where: { userId: principal.userId },
    orderBy: { updatedAt: "desc" },
    take: 50,
    select: { id: true, title: true, updatedAt: true },
  });
}

export async function getThread(prisma: PrismaClient, principal: Principal, threadId: string): Promise<ThreadSummary & { messages: ThreadMessage[] }> {
  const thread = await ownThread(prisma, principal, threadId);
  const messages = await prisma.chatMessage.findMany({ where: { threadId: thread.id }, orderBy: { createdAt: "asc" } });
  const sourcesOf = (message: (typeof messages)[number]) => [
    ...new Set([...(message.citations as unknown as Citation[]).map((citation) => citation.recordId), ...(message.sourceRecordIds ?? [])]),
  ];
  const withheldIds = messages.flatMap((message) =>
    ((message.provenance as { withheld?: { recordId: string }[] }).withheld ?? []).map((item) => item.recordId),
  );
  const records = await prisma.record.findMany({
    where: { id: { in: [...new Set([...messages.flatMap(sourcesOf), ...withheldIds])] } },
    select: { id: true, projectId: true },
  });
  const found = new Map(records.map((record) => [record.id, record]));
  const readable = new Set(records.filter((record) => canRead(principal, record)).map((record) => record.id));
  return {
    id: thread.id,
    title: thread.title,
    updatedAt: thread.updatedAt,
    messages: messages.map((message) => {
      const citations = message.citations as unknown as Citation[];
      const withheld = ((message.provenance as { withheld?: ThreadMessage["withheld"] }).withheld ?? []).filter((item) => readable.has(item.recordId));
      const stillReadable = canReadSources(principal, sourcesOf(message), found);
      return {
        id: message.id,
        role: message.role,
        content: stillReadable ? message.content : noLongerReadableMessage,
        status: stillReadable ? message.status : "withdrawn",
        citations: stillReadable ? citations : [],
        withheld,
        createdAt: message.createdAt,
      };
    }),
  };
}

export async function deleteThread(prisma: PrismaClient, principal: Principal, threadId: string): Promise<void> {
  const thread = await ownThread(prisma, principal, threadId);
  await prisma.chatThread.delete({ where: { id: thread.id } });
}

export type ThreadEvent = { type: "thread"; threadId: string; title: string } | AskEvent | { type: "saved"; messageId: string };

/**
 * Asks in a new or an existing thread of the principal's: saves the question first, streams the
 * answer's events, and saves the outcome (answer, refusal, restriction or failure) with its
 * citations and provenance.
 */
export async function* askInThread(prisma: PrismaClient, context: AskContext, principal: Principal, input: unknown): AsyncGenerator<ThreadEvent, AskOutcome> {
  const { threadId, ...request } = parseInput(askInThreadSchema, input, { fieldErrors: false });
  const thread = threadId
    ? await ownThread(prisma, principal, threadId)
    : await prisma.chatThread.create({
        data: { userId: principal.userId, title: truncateText(request.question, 120), scope: request.scope },
      });
  yield { type: "thread", threadId: thread.id, title: thread.title };
  await prisma.chatMessage.create({ data: { threadId: thread.id, role: "user", content: request.question } });

  let outcome: AskOutcome | undefined;
  try {
    const events = ask(context, principal, request);
    for (;;) {
      const next = await events.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      yield next.value;
    }
  } finally {
    // Whatever happened — an answer, a refusal, or a dropped connection — the thread records it.
    const saved = await prisma.chatMessage.create({
      data: {
        threadId: thread.id,
        role: "assistant",
        content: outcome?.text ?? "The answer was interrupted.",
        status: outcome?.status ?? "failed",
        citations: (outcome?.citations ?? []) as object[],
        sourceRecordIds: outcome?.sourceRecordIds ?? [],
        provenance: (outcome?.provenance ?? {}) as object,
      },
    });
    await prisma.chatThread.update({ where: { id: thread.id }, data: { updatedAt: new Date() } });
    if (outcome) yield { type: "saved", messageId: saved.id };
  }
  return outcome;
}
