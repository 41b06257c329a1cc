import { afterEach, describe, expect, it, vi } from "vitest";
import { AppError, describeError, isCancellation } from "./errors";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("describeError", () => {
  it("logs a client's cancellation (an aborted fetch or stream) at info, never as an unexpected error", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const infos = vi.spyOn(console, "info").mockImplementation(() => undefined);
    const aborted = AbortSignal.abort().reason as unknown;
    for (const cancellation of [aborted, new DOMException("The operation was aborted.", "AbortError")]) {
      expect(isCancellation(cancellation)).toBe(true);
      expect(describeError(cancellation)).toEqual({ code: "unavailable", message: "The request was cancelled." });
    }
    expect(errors).not.toHaveBeenCalled();
    expect(infos).toHaveBeenCalledTimes(2);
  });

  it("still logs a real failure as unexpected, and says nothing for an AppError", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(isCancellation(new TypeError("Invalid state"))).toBe(false);
    expect(describeError(new TypeError("Invalid state")).code).toBe("internal");
    expect(describeError(new AppError("not_found", "Not found.")).code).toBe("not_found");
    expect(errors).toHaveBeenCalledTimes(1);
  });
});
