import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "./errors";
import { findUnstorableText, refuseUnstorableText, storableTextIssues, truncateText, unstorableTextProblem } from "./storable-text";

describe("text the database cannot store", () => {
  it("names NUL and unpaired surrogates, and nothing else", () => {
    expect(unstorableTextProblem("a\u0000b")).toMatch(/NUL character \(U\+0000\)/);
    expect(unstorableTextProblem("a\uD800b")).toMatch(/unpaired UTF-16 surrogate/);
    expect(unstorableTextProblem("a\uDC00")).toMatch(/unpaired/);
    for (const fine of ["", "😀", "👩\u200D👩\u200D👧", "\u202Eabc", "Z\u0301\u0301", "\u0001\u007f", "'; DROP TABLE records; --"]) {
      expect(unstorableTextProblem(fine), JSON.stringify(fine)).toBeNull();
    }
  });

  it("finds them anywhere in JSON-like input, keys included, with their paths", () => {
    const found = findUnstorableText({
      name: "ok",
      scope: { sectionSlugs: ["a", "b\u0000"] },
      ["k\u0000"]: 1,
      list: [{ text: "\uD800" }],
      count: 3,
      flag: null,
    });
    expect(found.map((item) => item.path.join("."))).toEqual(["scope.sectionSlugs.1", "k\\u0000", "list.0.text"]);
    // FormData and files are read by their own form against its fields.
    const formData = new FormData();
    formData.append("values.title", "a\u0000");
    expect(findUnstorableText(formData)).toEqual([]);
  });

  it("refuses with a field message per path, as an AppError and as zod issues", () => {
    try {
      refuseUnstorableText({ question: "lamp\u0000" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("bad_request");
      expect((error as AppError).fieldErrors).toEqual({ question: ["Contains a NUL character (U+0000), which cannot be stored; remove it."] });
    }
    expect(() => refuseUnstorableText({ question: "lamp" })).not.toThrow();
    const parsed = z.object({ q: z.string() }).superRefine(storableTextIssues).safeParse({ q: "\uDFFF" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["q"]);
  });

  it("truncates before a four-byte character rather than through it", () => {
    expect(truncateText("abc😀", 4)).toBe("abc");
    expect(truncateText("ab😀", 4)).toBe("ab😀");
    expect(truncateText("abcdef", 4)).toBe("abcd");
    expect(truncateText("ab", 4)).toBe("ab");
  });
});
