/**
 * A job for tests/support/model-pool-test-worker.mjs that holds its thread until the test opens
 * the gate: a queue can be filled and watched without timing anything.
 */
export function gate() {
  const buffer = new SharedArrayBuffer(4);
  const cells = new Int32Array(buffer);
  return {
    task: { op: "hold", gate: buffer },
    open() {
      Atomics.store(cells, 0, 1);
      Atomics.notify(cells, 0);
    },
  };
}
