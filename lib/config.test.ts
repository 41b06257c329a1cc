import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";

describe("parseConfig", () => {
  it("defaults to the embedded database in .data", () => {
    const config = parseConfig({ NODE_ENV: "test" });
    expect(config).toMatchObject({ databaseMode: "embedded", MNEMO_DATA_DIR: ".data", storageDir: ".data/media", SIGN_IN_MAX_FAILURES: 5 });
  });

  it("switches to server mode with a postgres URL", () => {
    expect(parseConfig({ NODE_ENV: "test", DATABASE_URL: "postgres://u:p@db/mnemo" }).databaseMode).toBe("server");
  });

  it("names the variable that is wrong", () => {
    expect(() => parseConfig({ NODE_ENV: "test", DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => parseConfig({ NODE_ENV: "test", SIGN_IN_MAX_FAILURES: "many" })).toThrow(/SIGN_IN_MAX_FAILURES/);
    expect(() => parseConfig({ NODE_ENV: "test", AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET: must be at least 32/);
    expect(() => parseConfig({ NODE_ENV: "test", AUTH_OIDC_ISSUER: "https://id.example" })).toThrow(/AUTH_OIDC_ID, AUTH_OIDC_SECRET/);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_TRUSTED_PROXIES: "127.0.0.1, proxy.local" })).toThrow(/MNEMO_TRUSTED_PROXIES\.1: "proxy\.local" is not an IP address or CIDR range/);
    expect(() => parseConfig({ NODE_ENV: "test", MNEMO_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/MNEMO_TRUSTED_PROXIES/);
  });

  it("reads trusted proxies as a list of addresses and CIDR ranges; none by default", () => {
    expect(parseConfig({ NODE_ENV: "test" }).MNEMO_TRUSTED_PROXIES).toEqual([]);
    expect(parseConfig({ NODE_ENV: "test", MNEMO_TRUSTED_PROXIES: "127.0.0.1, ::1 10.0.0.0/8,fd00::/8" }).MNEMO_TRUSTED_PROXIES).toEqual(["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"]);
  });
});
