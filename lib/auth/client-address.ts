import { AsyncLocalStorage } from "node:async_hooks";
import { BlockList, isIP } from "node:net";

/**
 * Who is on the other end of a request, for sign-in throttling and the audit log.
 *
 * Next.js gives route handlers and server actions a web `Request`, never the socket, and it
 * fills `X-Forwarded-For` from the socket only when the client sent none, so a header alone
 * cannot tell a client's claim from the truth. `server.ts` (how `npm start`, the demo and the
 * e2e server run Next.js) therefore runs every request inside `runWithSocketAddress`, and code
 * anywhere below it reads the peer's address with `currentSocketAddress()`. The store lives on
 * `globalThis`: Next.js bundles this module into its server chunks, a second copy beside the one
 * server.ts imported, and both must reach the same store. No client can write it.
 *
 * Kept free of "server-only": server.ts imports it outside React's server build.
 */
interface Connection {
  socketAddress: string | undefined;
}

const storeKey = Symbol.for("mnemo.connection");

function connectionStore(): AsyncLocalStorage<Connection> {
  const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<Connection> | undefined>;
  holder[storeKey] ??= new AsyncLocalStorage<Connection>();
  return holder[storeKey];
}

export function runWithSocketAddress<Result>(socketAddress: string | undefined, run: () => Result): Result {
  return connectionStore().run({ socketAddress }, run);
}

/** The address of the socket this request arrived on; undefined outside server.ts (`next dev`, `next start`). */
export function currentSocketAddress(): string | undefined {
  return connectionStore().getStore()?.socketAddress;
}

/**
 * An IP address in one spelling: IPv4-mapped IPv6 (`::ffff:10.0.0.1`, how a dual-stack socket
 * reports IPv4 peers) as plain IPv4, IPv6 in lower case; a port (`10.0.0.1:5678`,
 * `[2001:db8::1]:443`, as some proxies write hops) is dropped. Anything else is null.
 */
export function normaliseAddress(text: string | undefined | null): string | null {
  let address = (text ?? "").trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const family = isIP(address);
  if (family === 4) return address;
  if (family === 6) return address.toLowerCase();
  return null;
}

export interface TrustedProxies {
  includes(address: string): boolean;
}

/** Proxies given as IP addresses and CIDR ranges (lib/config has already validated them). */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [network = "", prefix] = entry.split("/");
    const family = isIP(network);
    if (family === 0) throw new Error(`not an IP address or CIDR range: ${entry}`);
    if (prefix === undefined) list.addAddress(network, family === 4 ? "ipv4" : "ipv6");
    else list.addSubnet(network, Number(prefix), family === 4 ? "ipv4" : "ipv6");
  }
  return { includes: (address) => list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6") };
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then the
 * right-most hop of X-Forwarded-For that is not a trusted proxy (each proxy appends the address
 * it saw, so everything left of the first untrusted hop was written by the client and is not
 * believed). When every hop is trusted, the left-most. A hop that is not an address stops the
 * walk at the proxy that forwarded it. Null when the socket is unknown.
 */
export function resolveClientAddress(input: {
  socketAddress: string | undefined;
  forwardedFor: string | null | undefined;
  trusted: TrustedProxies;
}): string | null {
  let client = normaliseAddress(input.socketAddress);
  if (!client) return null;
  const hops = (input.forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  while (input.trusted.includes(client) && hops.length > 0) {
    const hop = normaliseAddress(hops.pop());
    if (!hop) break;
    client = hop;
  }
  return client;
}

/** The client address of a request handled inside server.ts (null elsewhere: the socket is unknown). */
export function requestClientAddress(request: Request | undefined, trusted: TrustedProxies): string | null {
  return resolveClientAddress({ socketAddress: currentSocketAddress(), forwardedFor: request?.headers.get("x-forwarded-for"), trusted });
}

/**
 * What sign-in throttling counts an address as: an IPv4 address as it is, an IPv6 address by
 * its /64 network, which one subscriber usually holds whole (rotating within it must not give a
 * fresh allowance).
 */
export function throttleKey(address: string): string {
  if (isIP(address) !== 6) return address;
  // Expand "::" so that the first four groups are the /64 prefix; a dotted IPv4 tail is two groups.
  const groupCount = (part: string) => (part ? part.split(":").reduce((count, group) => count + (group.includes(".") ? 2 : 1), 0) : 0);
  const [head = "", tail] = address.split("::");
  const groups = head ? head.split(":") : [];
  if (tail !== undefined) groups.push(...Array<string>(Math.max(0, 8 - groupCount(head) - groupCount(tail))).fill("0"), ...(tail ? tail.split(":") : []));
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
