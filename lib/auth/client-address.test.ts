import { describe, expect, it } from "vitest";
import { currentSocketAddress, normaliseAddress, resolveClientAddress, runWithSocketAddress, throttleKey, trustedProxies } from "./client-address";

describe("client address", () => {
  const none = trustedProxies([]);
  const proxies = trustedProxies(["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"]);

  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For claims", () => {
    expect(resolveClientAddress({ socketAddress: "203.0.113.5", forwardedFor: "198.51.100.1", trusted: none })).toBe("203.0.113.5");
    expect(resolveClientAddress({ socketAddress: "::ffff:203.0.113.5", forwardedFor: null, trusted: none })).toBe("203.0.113.5");
    expect(resolveClientAddress({ socketAddress: "10.0.0.1", forwardedFor: "198.51.100.1", trusted: none })).toBe("10.0.0.1");
  });

  it("is unknown without a socket (outside server.ts)", () => {
    expect(resolveClientAddress({ socketAddress: undefined, forwardedFor: "198.51.100.1", trusted: proxies })).toBeNull();
    expect(currentSocketAddress()).toBeUndefined();
    expect(runWithSocketAddress("192.0.2.9", () => currentSocketAddress())).toBe("192.0.2.9");
  });

  it("behind trusted proxies is the right-most hop that is not one of them", () => {
    expect(resolveClientAddress({ socketAddress: "127.0.0.1", forwardedFor: "198.51.100.1, 192.0.2.7", trusted: proxies })).toBe("192.0.2.7");
    expect(resolveClientAddress({ socketAddress: "::ffff:127.0.0.1", forwardedFor: "198.51.100.1, 192.0.2.7, 10.1.2.3", trusted: proxies })).toBe("192.0.2.7");
    expect(resolveClientAddress({ socketAddress: "::1", forwardedFor: "[2001:db8::7]:4711", trusted: proxies })).toBe("2001:db8::7");
    expect(resolveClientAddress({ socketAddress: "fd12::1", forwardedFor: "192.0.2.7:5123", trusted: proxies })).toBe("192.0.2.7");
    // Every hop a trusted proxy: the left-most. No header: the proxy itself.
    expect(resolveClientAddress({ socketAddress: "127.0.0.1", forwardedFor: "10.9.9.9, 10.0.0.5", trusted: proxies })).toBe("10.9.9.9");
    expect(resolveClientAddress({ socketAddress: "127.0.0.1", forwardedFor: null, trusted: proxies })).toBe("127.0.0.1");
    // A hop that is not an address stops the walk at the proxy that forwarded it.
    expect(resolveClientAddress({ socketAddress: "127.0.0.1", forwardedFor: "192.0.2.7, unknown", trusted: proxies })).toBe("127.0.0.1");
  });

  it("writes one address one way", () => {
    expect(normaliseAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
    expect(normaliseAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normaliseAddress("not an address")).toBeNull();
    expect(normaliseAddress("")).toBeNull();
  });

  it("throttles IPv6 by its /64 network and IPv4 by its address", () => {
    expect(throttleKey("192.0.2.1")).toBe("192.0.2.1");
    expect(throttleKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(throttleKey("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(throttleKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(throttleKey("::1")).toBe("0:0:0:0::/64");
    expect(throttleKey("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
  });
});
