import { describe, expect, it } from "vitest";
import { coresBusy, parseCpuLine } from "./cpu-busy";

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
});
