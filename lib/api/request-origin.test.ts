import { describe, expect, it } from "vitest";
import { requestOrigin } from "./handle-api-request";

const request = (headers: Record<string, string>) => new Request("http://localhost:3000/api/v1/search", { headers });

describe("requestOrigin", () => {
  it("prefers the configured origin, then the forwarded or called host", () => {
    expect(requestOrigin(request({ host: "127.0.0.1:3100" }), "https://archive.example.org")).toBe("https://archive.example.org");
    expect(requestOrigin(request({ host: "127.0.0.1:3100" }))).toBe("http://127.0.0.1:3100");
    expect(requestOrigin(request({ host: "internal:3000", "x-forwarded-host": "archive.example.org", "x-forwarded-proto": "https" }))).toBe(
      "https://archive.example.org",
    );
    expect(requestOrigin(request({ host: "[::1]:3000" }))).toBe("http://[::1]:3000");
  });

  it("falls back to the request URL for a host or protocol that is not one", () => {
    expect(requestOrigin(request({ host: "evil.example/<script>" }))).toBe("http://localhost:3000");
    expect(requestOrigin(request({ host: "archive.example.org", "x-forwarded-proto": "javascript" }))).toBe("http://localhost:3000");
  });
});
