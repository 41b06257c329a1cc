import { readFileSync } from "node:fs";

/**
 * How busy the machine's cores were over a window, from /proc/stat's first line (jiffies since
 * boot): the busy share (user, nice, system, irq, softirq) of all time counted, times the cores.
 * Every process counts — the web processes, PostgreSQL, the load generator, anything else on
 * the machine — so a window at 1.9 of 2 cores leaves nothing for another connection to use.
 */
export interface CpuSample {
  busy: number;
  total: number;
}

/** The busy and total jiffies of the "cpu" line of /proc/stat's text. */
export function parseCpuLine(stat: string): CpuSample {
  const line = stat.split("\n").find((text) => /^cpu\s/.test(text));
  if (!line) throw new Error("no cpu line in /proc/stat");
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, total: busy + idle + iowait + steal };
}

/** The machine's counters now; null where /proc/stat cannot be read (not Linux). */
export function sampleCpu(): CpuSample | null {
  try {
    return parseCpuLine(readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}

/** Cores kept busy between two samples (0 to `cores`); NaN without both samples or time between them. */
export function coresBusy(before: CpuSample | null, after: CpuSample | null, cores: number): number {
  if (!before || !after || after.total <= before.total) return Number.NaN;
  return ((after.busy - before.busy) / (after.total - before.total)) * cores;
}

/**
 * What a page costs the machine at eight connections and the rate that cost allows: the
 * machine's CPU ms a page (cores busy ÷ pages a second), the same less the bench's own process
 * (the load generator, and the proxy in scale-out: work a real client and balancer do elsewhere),
 * and the rates all the cores would serve at each cost. NaN where a figure is missing.
 */
export function pageCost(input: { coresBusy: number | undefined; throughput: number; cores: number; benchCpuMsPerPage?: number }): {
  machineMs: number;
  ceiling: number;
  serverMs: number;
  serverCeiling: number;
} {
  const machineMs =
    input.coresBusy !== undefined && !Number.isNaN(input.coresBusy) && input.throughput > 0 ? (input.coresBusy * 1000) / input.throughput : Number.NaN;
  const serverMs = input.benchCpuMsPerPage === undefined ? Number.NaN : machineMs - input.benchCpuMsPerPage;
  const rate = (ms: number) => (ms > 0 ? (input.cores * 1000) / ms : Number.NaN);
  return { machineMs, ceiling: rate(machineMs), serverMs, serverCeiling: rate(serverMs) };
}
