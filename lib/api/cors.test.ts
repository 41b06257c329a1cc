import { describe, expect, it } from "vitest";
import { closedCors, corsFromEnv, corsHeaders, preflightResponse } from "./cors";

const from = (origin?: string) => new Request("http://mnemo.test/api/v1/sections", { headers: origin ? { origin } : {} });

describe("API CORS", () => {
  it("is closed by default: no allowance for any origin, preflights refused", () => {
    expect(corsFromEnv({})).toEqual(closedCors);
    expect(corsHeaders(closedCors, from("https://tool.example"))).toEqual({});
    expect(preflightResponse(closedCors, from("https://tool.example"), ["GET"]).status).toBe(403);
  });

  it("opens to listed origins only, or to any with *", () => {
    const policy = corsFromEnv({ MNEMO_API_CORS_ORIGINS: "https://tool.example, http://localhost:5173" });
    expect(corsHeaders(policy, from("https://tool.example"))).toMatchObject({ "access-control-allow-origin": "https://tool.example", vary: "Origin" });
    expect(corsHeaders(policy, from("https://other.example"))).toEqual({});
    expect(corsHeaders(policy, from())).toEqual({});
    const preflight = preflightResponse(policy, from("http://localhost:5173"), ["POST"]);
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(corsHeaders(corsFromEnv({ MNEMO_API_CORS_ORIGINS: "*" }), from("https://any.example"))["access-control-allow-origin"]).toBe("*");
  });

  it("refuses a misspelt origin at start-up", () => {
    expect(() => corsFromEnv({ MNEMO_API_CORS_ORIGINS: "tool.example" })).toThrow(/not an origin/);
    expect(() => corsFromEnv({ MNEMO_API_CORS_ORIGINS: "https://tool.example/" })).toThrow(/should be written https:\/\/tool.example/);
  });
});
