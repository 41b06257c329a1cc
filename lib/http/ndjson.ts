import { describeError, isCancellation, logCancellation } from "../errors";

/**
 * A stream of events as NDJSON, one JSON object per line. The first event is awaited before the
 * response is made, so an input the generator refuses at once is still a plain JSON error with
 * its status; an error after that ends the stream with an `error` event. Cancelling the response
 * (the client went away) stops the generator, after `onCancel` (which may abort what it awaits):
 * what it still yields is dropped, and an error it throws on the way out (an aborted fetch, dropped
 * model work) is a cancellation, logged at info.
 */
export async function ndjsonResponse(events: AsyncGenerator<unknown>, headers: Record<string, string> = {}, onCancel?: () => void): Promise<Response> {
  const first = await events.next();
  const encoder = new TextEncoder();
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // A cancelled stream refuses more chunks: enqueueing one would throw.
      const send = (event: unknown) => {
        if (!cancelled) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      };
      try {
        if (!first.done) send(first.value);
        for await (const event of events) {
          if (cancelled) break;
          send(event);
        }
      } catch (error) {
        if (!cancelled && isCancellation(error)) logCancellation("a streamed response", error);
        else if (!cancelled) send({ type: "error", error: describeError(error) });
      } finally {
        if (!cancelled) controller.close();
      }
    },
    async cancel(reason) {
      cancelled = true;
      logCancellation("a streamed response", reason);
      // A generator busy awaiting (a model's answer) sees return() only once that settles: onCancel aborts it first.
      onCancel?.();
      await events.return(undefined);
    },
  });
  return new Response(stream, { status: 200, headers: { "cache-control": "no-store", ...headers, "content-type": "application/x-ndjson; charset=utf-8" } });
}
