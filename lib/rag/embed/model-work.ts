import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who is waiting for the model work started inside a call: a request (interactive, with its
 * AbortSignal, so work queued for a client that went away is dropped) or the index worker
 * (background, overtaken by every interactive job). The route wrappers and the index worker
 * set it once, so services between them need not pass a signal down every call.
 */
export type ModelPriority = "interactive" | "background";

export interface ModelWork {
  priority: ModelPriority;
  signal?: AbortSignal;
}

// On globalThis: the route wrapper and the embedder may sit in different chunks of a bundle.
const storageKey = Symbol.for("mnemo.modelWork");
const holder = globalThis as { [storageKey]?: AsyncLocalStorage<ModelWork> };
const storage = (holder[storageKey] ??= new AsyncLocalStorage<ModelWork>());

/** Runs `work` with model jobs started inside it queued as `context` says. */
export function runWithModelWork<T>(context: ModelWork, work: () => T): T {
  return storage.run(context, work);
}

/** The model-work context of the current call, if a caller set one. */
export function currentModelWork(): ModelWork | undefined {
  return storage.getStore();
}
