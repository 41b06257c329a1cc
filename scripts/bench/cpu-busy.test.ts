import { describe, expect, it } from "vitest";
import { coresBusy, pageCost, parseCpuLine } from "./cpu-busy";

describe("bench:load's busy cores", () => {
  it("reads busy and total time from /proc/stat's cpu line, not from one core's", () => {
    const stat = "cpu  100 10 50 800 20 5 15 0 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\nintr 5\n";
    expect(parseCpuLine(stat)).toEqual({ busy: 180, total: 1000 });
    expect(() => parseCpuLine("intr 5\n")).toThrow(/no cpu line/);
  });

  it("counts stolen time as not ours, and gives the cores kept busy over a window", () => {
    const before = parseCpuLine("cpu  100 0 0 900 0 0 0 0 0 0");
    const after = parseCpuLine("cpu  250 0 50 1000 0 0 0 100 0 0");
    // 200 busy of 400 counted on 2 cores: one core's worth.
    expect(coresBusy(before, after, 2)).toBe(1);
    expect(coresBusy(after, before, 2)).toBeNaN();
    expect(coresBusy(null, after, 2)).toBeNaN();
  });

  it("costs a page on the machine and without the bench's own process, and the rates all cores allow", () => {
    // 1.9 cores busy serving 19 pages a second: 100 ms of the machine a page, 20 pages a second on 2 cores;
    // 20 ms of it the load generator's, so the server's 80 ms allow 25.
    expect(pageCost({ coresBusy: 1.9, throughput: 19, cores: 2, benchCpuMsPerPage: 20 })).toEqual({
      machineMs: 100,
      ceiling: 20,
      serverMs: 80,
      serverCeiling: 25,
    });
    const unmeasured = pageCost({ coresBusy: Number.NaN, throughput: 19, cores: 2 });
    expect(unmeasured.machineMs).toBeNaN();
    expect(unmeasured.serverCeiling).toBeNaN();
    expect(pageCost({ coresBusy: 1, throughput: 0, cores: 2, benchCpuMsPerPage: 5 }).ceiling).toBeNaN();
  });
});
