import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url";

describe("safeCallbackUrl", () => {
  it("keeps a path on this site", () => {
    expect(safeCallbackUrl("/records/abc?t=30")).toBe("/records/abc?t=30");
  });

  it.each(["//evil.example/x", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "/records\n/x", "", null, 42])(
    "sends %s to the record list instead",
    (value) => {
      expect(safeCallbackUrl(value)).toBe("/records");
    },
  );
});
