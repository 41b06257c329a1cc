import { describe, expect, it } from "vitest";
import { isConnectionLost } from "./connection-lost";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isConnectionLost", () => {
  it("knows a database that cannot be reached or dropped the connection", () => {
    expect(isConnectionLost(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLost(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isConnectionLost(withCode("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isConnectionLost(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(isConnectionLost(withCode("connection failure", "08006"))).toBe(true);
    expect(isConnectionLost(new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], ""))).toBe(true);
    expect(isConnectionLost(new Error("Invalid `prisma.record.findMany()` invocation", { cause: new Error("Connection terminated") }))).toBe(true);
    expect(isConnectionLost(withCode("Can't reach database server at `db:5432`", "P1001"))).toBe(true);
  });

  it("does not take a failed statement or a bug for a lost connection", () => {
    expect(isConnectionLost(withCode('relation "chunks" does not exist', "42P01"))).toBe(false);
    expect(isConnectionLost(withCode("duplicate key value violates unique constraint", "23505"))).toBe(false);
    expect(isConnectionLost(withCode("canceling statement due to statement timeout", "57014"))).toBe(false);
    expect(isConnectionLost(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isConnectionLost("Connection terminated")).toBe(false);
    expect(isConnectionLost(null)).toBe(false);
  });
});
