import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { connect, type Socket } from "node:net";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPGlite } from "../../lib/db/database";
import { servePGlite } from "../../lib/db/serve-pglite";
import { freePort } from "../support/test-database";

// Postgres wire-protocol messages, written by hand so a test can pause inside one exchange.
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`);
const int16 = (value: number) => Buffer.from([value >> 8, value & 0xff]);
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};
const startup = () => {
  const body = Buffer.concat([int32(196608), cstring("user"), cstring("postgres"), cstring("database"), cstring("postgres"), Buffer.from([0])]);
  return Buffer.concat([int32(body.length + 4), body]);
};
const parse = (sql: string) => message("P", cstring(""), cstring(sql), int16(0));
const bind = () => message("B", cstring(""), cstring(""), int16(0), int16(0), int16(0));
const execute = () => message("E", cstring(""), int32(0));
const sync = () => message("S");

/** A raw client: the messages it receives, by type, with their bodies. */
function rawClient(port: number): { socket: Socket; received: { type: string; body: Buffer }[]; readyCount(): number } {
  const socket = connect(port, "127.0.0.1");
  const received: { type: string; body: Buffer }[] = [];
  let pending = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
      const length = pending.readInt32BE(1);
      received.push({ type: String.fromCharCode(pending[0]!), body: pending.subarray(5, 1 + length) });
      pending = pending.subarray(1 + length);
    }
  });
  return { socket, received, readyCount: () => received.filter((entry) => entry.type === "Z").length };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Connection A sends Parse and Bind of its query, pauses (as when its messages arrive in two
 * socket reads), then Execute and Sync; connection B runs a parameterised query in the pause.
 * Returns the text A's Execute produced (its DataRow's one column, or the error).
 */
async function interleave(server: (port: number) => Promise<{ stop(): Promise<void> }>): Promise<{ a: string; b: string }> {
  const port = await freePort();
  const running = await server(port);
  const a = rawClient(port);
  const b = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres` });
  try {
    a.socket.write(startup());
    await until(() => a.readyCount() === 1, "A's start-up");
    await b.connect();
    a.socket.write(Buffer.concat([parse("SELECT 'from A'::text AS who"), bind()]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const bQuery = b.query<{ who: string }>("SELECT $1::text AS who", ["from B"]).then(
      (result) => result.rows[0]!.who,
      (error: Error) => `error: ${error.message}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    a.socket.write(Buffer.concat([execute(), sync()]));
    await until(() => a.readyCount() === 2, "A's Sync");
    const row = a.received.find((entry) => entry.type === "D");
    const error = a.received.find((entry) => entry.type === "E");
    // DataRow: int16 column count, int32 length, value.
    const aText = row ? row.body.subarray(6, 6 + row.body.readInt32BE(2)).toString() : `error: ${error?.body.toString("latin1").replace(/\0/g, " ").trim()}`;
    return { a: aText, b: await bQuery };
  } finally {
    a.socket.destroy();
    await b.end().catch(() => undefined);
    await running.stop();
  }
}

describe("PGlite served to several connections (lib/db/serve-pglite.ts)", () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it("keeps one connection's query exchange whole while another connection queries", async () => {
    const pglite = await createPGlite("memory://");
    closing.push(() => pglite.close());
    const result = await interleave(async (port) => servePGlite(pglite, { port, maxConnections: 4 }));
    expect(result).toEqual({ a: "from A", b: "from B" });
  });

  it("shows why: pglite-socket alone runs the other connection inside the exchange", async () => {
    // If this starts failing, pglite-socket keeps exchanges whole itself and the wrapper can go.
    const pglite = await createPGlite("memory://");
    closing.push(() => pglite.close());
    const result = await interleave(async (port) => {
      const server = new PGLiteSocketServer({ db: pglite, port, host: "127.0.0.1", maxConnections: 4 });
      await server.start();
      return server;
    });
    expect(result.a).not.toBe("from A");
  });

  it("frees the session when a connection goes away inside an exchange", async () => {
    const pglite = await createPGlite("memory://");
    closing.push(() => pglite.close());
    const port = await freePort();
    const server = await servePGlite(pglite, { port, maxConnections: 4 });
    closing.push(() => server.stop());
    const a = rawClient(port);
    a.socket.write(startup());
    await until(() => a.readyCount() === 1, "A's start-up");
    a.socket.write(Buffer.concat([parse("SELECT 1"), bind()]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    a.socket.destroy();
    const b = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres` });
    await b.connect();
    const result = await b.query<{ n: number }>("SELECT $1::int AS n", [7]);
    await b.end();
    expect(result.rows[0]!.n).toBe(7);
  });
});
