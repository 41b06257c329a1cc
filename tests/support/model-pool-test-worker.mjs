// A model thread for the pool's tests (lib/rag/embed/model-pool.ts), speaking the protocol of
// lib/rag/embed/model-worker.mjs with tasks a test controls: a job that holds the thread until
// the test opens its gate, so what waits in the queue is known without timing anything.
//   { op: "hold", gate }    waits until Int32Array(gate)[0] becomes 1 (Atomics)
//   { op: "echo", value }   answers value, and notes it as run
//   { op: "ran" }           the values this thread has echoed, in order
//   { op: "exit" }          the thread dies mid-job
//   { op: "fail" }          the task throws: the job fails, the thread lives on
import { parentPort } from "node:worker_threads";

const ran = [];

parentPort.on("message", ({ id, task }) => {
  switch (task.op) {
    case "hold": {
      const gate = new Int32Array(task.gate);
      while (Atomics.load(gate, 0) === 0) Atomics.wait(gate, 0, 0);
      parentPort.postMessage({ id, ok: true, result: "held" });
      return;
    }
    case "echo":
      ran.push(task.value);
      parentPort.postMessage({ id, ok: true, result: task.value });
      return;
    case "ran":
      parentPort.postMessage({ id, ok: true, result: [...ran] });
      return;
    case "exit":
      process.exit(3);
      return;
    case "fail":
      parentPort.postMessage({ id, ok: false, message: "the task failed on purpose" });
      return;
  }
});
