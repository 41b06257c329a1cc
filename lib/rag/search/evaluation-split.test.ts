import { describe, expect, it } from "vitest";
import { evaluationHalf } from "./evaluation-split";

describe("evaluationHalf", () => {
  it("splits numeric ids by parity, whatever their size", () => {
    expect(evaluationHalf("0")).toBe("tune");
    expect(evaluationHalf("1")).toBe("report");
    expect(evaluationHalf("1342")).toBe("tune");
    expect(evaluationHalf(" 98765432109876543211 ")).toBe("report");
  });

  it("splits other ids stably and roughly in half", () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `q-${index}-x`);
    const tune = ids.filter((id) => evaluationHalf(id) === "tune").length;
    expect(tune).toBeGreaterThan(900);
    expect(tune).toBeLessThan(1100);
    expect(ids.map(evaluationHalf)).toEqual(ids.map(evaluationHalf));
  });
});
