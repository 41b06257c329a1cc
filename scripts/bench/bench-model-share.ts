/**
 * `npm run bench:model-share`: does the index worker's embedding get done while requests keep
 * the model threads busy? The real sentence encoder on two model threads (lib/rag/embed/
 * model-pool.ts); BENCH_SHARE_CLIENTS (default 8) clients embed a query each, again and again,
 * so requests always wait; beside them the index worker's loop embeds a record's passages
 * (16 at a time, background priority, in lanes as indexing does). For BENCH_SHARE_SECONDS
 * (default 15) with interactive jobs always first (the pool before the change) and with a
 * background batch due after 1 s (`backgroundShareMs`, the default now). Figures only.
 */
import { cpus } from "node:os";
import { createLocalUseEmbedder } from "../../lib/rag/embed/local-use-embedder";
import { createModelPool, defaultBackgroundShareMs, modelWorkerFile } from "../../lib/rag/embed/model-pool";

const clients = Number(process.env.BENCH_SHARE_CLIENTS ?? 8);
const seconds = Number(process.env.BENCH_SHARE_SECONDS ?? 15);
const threads = 2;

const passage = (index: number) =>
  `Record ${index}: the lighthouse keeper wrote in the logbook that the lamp burned whale oil until the storm of ${1850 + (index % 100)}.`;
const query = (index: number) => `what did the lighthouse keeper burn in ${1850 + (index % 100)}`;

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;

console.log(
  `bench:model-share — USE lite on ${threads} model threads; ${clients} clients embedding queries back to back, the index loop embedding 16 passages at a time; ${seconds} s per run; ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}; Node ${process.version}`,
);
console.log("| pool | requests | requests/s | request p50 ms | request p95 ms | passages embedded by the index loop | index batches |");
console.log("|---|---|---|---|---|---|---|");
for (const [label, backgroundShareMs] of [
  ["interactive always first (before)", Number.POSITIVE_INFINITY],
  [`background due after ${defaultBackgroundShareMs} ms (now)`, defaultBackgroundShareMs],
  ["background due after 250 ms", 250],
  ["interactive always first, again", Number.POSITIVE_INFINITY],
] as const) {
  const pool = createModelPool({ workerFile: modelWorkerFile(), threads, queueLimit: 64, backgroundShareMs });
  const embedder = createLocalUseEmbedder({ pool });
  try {
    // Both threads load the weights before the clock starts.
    await Promise.all([embedder.embed([query(0)], "query", { priority: "interactive" }), embedder.embed([query(1)], "query", { priority: "interactive" })]);
    const stopAt = performance.now() + seconds * 1000;
    const latencies: number[] = [];
    let next = 0;
    const client = async () => {
      while (performance.now() < stopAt) {
        const start = performance.now();
        await embedder.embed([query(next++)], "query", { priority: "interactive" });
        latencies.push(performance.now() - start);
      }
    };
    let embedded = 0;
    let batches = 0;
    const indexLoop = async () => {
      while (performance.now() < stopAt) {
        const texts = Array.from({ length: 16 }, (_, index) => passage(batches * 16 + index));
        await embedder.embed(texts, "passage", { priority: "background" });
        embedded += texts.length;
        batches += 1;
      }
    };
    await Promise.all([indexLoop(), ...Array.from({ length: clients }, client)]);
    latencies.sort((a, b) => a - b);
    console.log(
      `| ${label} | ${latencies.length} | ${(latencies.length / seconds).toFixed(1)} | ${percentile(latencies, 0.5).toFixed(0)} | ${percentile(latencies, 0.95).toFixed(0)} | ${embedded} | ${batches} |`,
    );
  } finally {
    await pool.close();
  }
}
