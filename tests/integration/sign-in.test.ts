import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listAuditLog } from "../../lib/admin/audit-log";
import { authenticateWithPassword } from "../../lib/auth/authenticate";
import { signInDelaySeconds } from "../../lib/auth/sign-in-throttle";
import { requestClientAddress, runWithSocketAddress, trustedProxies } from "../../lib/auth/client-address";
import { loadPrincipal } from "../../lib/auth/load-principal";
import type { Database } from "../../lib/db/database";
import { resetConfig } from "../../lib/config";
import { AppError } from "../../lib/errors";
import { addMember, createProject, createUser, principalOf } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;
const limits = { maxFailures: 3, windowMinutes: 15, delaySeconds: 30 };

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe(`password sign-in (${testDatabaseMode()})`, () => {
  it("accepts the right password (argon2id) and audits the sign-in", async () => {
    const user = await createUser(db.prisma, { role: "curator", password: "correct horse" });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const signedIn = await authenticateWithPassword(db.prisma, { email: user.email.toUpperCase(), password: "correct horse", address: "10.0.0.1" }, limits);
    expect(signedIn).toMatchObject({ id: user.id, role: "curator" });
    expect(await db.prisma.auditEvent.count({ where: { actorId: user.id, action: "user.sign_in" } })).toBe(1);
  });

  it("gives a wrong password and an unknown account the same answer", async () => {
    const user = await createUser(db.prisma, { password: "secret one" });
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "nope", address: "10.0.0.2" }, limits))).toBe("unauthorized");
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: "ghost@example.test", password: "nope", address: "10.0.0.2" }, limits))).toBe(
      "unauthorized",
    );
  });

  it("does not let a stranger's failures lock the owner out: the owner signs in from another address", async () => {
    const owner = await createUser(db.prisma, { password: "right password" });
    for (let attempt = 0; attempt < limits.maxFailures * 3; attempt++) {
      await codeOf(authenticateWithPassword(db.prisma, { email: owner.email, password: `wrong ${attempt}`, address: "10.1.0.1" }, limits));
    }
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: owner.email, password: "wrong again", address: "10.1.0.1" }, limits))).toBe(
      "rate_limited",
    );
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: owner.email, password: "right password", address: "10.1.9.9" }, limits))).toBe("ok");
  });

  it("slows one account from one address with a delay that doubles with every further failure", async () => {
    const user = await createUser(db.prisma, { password: "right password" });
    let time = Date.now();
    const clock = () => new Date(time);
    const attempt = (password: string, address = "10.4.0.1") => authenticateWithPassword(db.prisma, { email: user.email, password, address }, limits, clock);
    const refusal = async (password: string) => {
      const error = await attempt(password).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };

    for (let failure = 1; failure < limits.maxFailures; failure++) expect(await codeOf(attempt(`wrong ${failure}`))).toBe("unauthorized");
    // The failure that reaches the limit starts the wait; every attempt inside it is refused unchecked, the right password too.
    expect(await codeOf(attempt("wrong at the limit"))).toBe("unauthorized");
    expect(await refusal("right password")).toMatchObject({ code: "rate_limited", retryAfterSeconds: limits.delaySeconds });
    time += (limits.delaySeconds - 1) * 1000;
    expect(await refusal("right password")).toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
    time += 1000;
    expect(await codeOf(attempt("wrong after the first wait"))).toBe("unauthorized");
    expect(await refusal("wrong")).toMatchObject({ code: "rate_limited", retryAfterSeconds: limits.delaySeconds * 2 });
    time += limits.delaySeconds * 2 * 1000;
    expect(await codeOf(attempt("wrong after the second wait"))).toBe("unauthorized");
    expect(await refusal("wrong")).toMatchObject({ code: "rate_limited", retryAfterSeconds: limits.delaySeconds * 4 });
    // Refused attempts were not counted: after the wait the next one is checked, and the owner gets in.
    time += limits.delaySeconds * 4 * 1000;
    expect(await codeOf(attempt("right password"))).toBe("ok");
    // A success starts the count again.
    expect(await codeOf(attempt("wrong once more"))).toBe("unauthorized");
    expect(await codeOf(attempt("right password"))).toBe("ok");
    // The waits never exceed the window.
    expect(signInDelaySeconds(limits.maxFailures + 20, limits)).toBe(limits.windowMinutes * 60);
  });

  it("counts attempts running at the same time against each other", async () => {
    const user = await createUser(db.prisma, { password: "right password" });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: `guess ${index}`, address: "10.5.0.1" }, limits)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "unauthorized").length).toBeLessThanOrEqual(limits.maxFailures);
    expect(outcomes.filter((outcome) => outcome === "rate_limited").length).toBeGreaterThanOrEqual(12 - limits.maxFailures);
  });

  it("audits every throttle that starts and every attempt refused, listed with the sign-ins under the email tried", async () => {
    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    const email = `stranger-target-${Date.now()}@example.test`;
    for (let attempt = 0; attempt < limits.maxFailures; attempt++) {
      await codeOf(authenticateWithPassword(db.prisma, { email, password: `wrong ${attempt}`, address: "10.6.0.1" }, limits));
    }
    expect(await codeOf(authenticateWithPassword(db.prisma, { email, password: "wrong", address: "10.6.0.1" }, limits))).toBe("rate_limited");

    const log = await listAuditLog(db.sql, admin, { kind: "sign-ins", actor: email });
    const actions = log.entries.map((entry) => entry.action);
    expect(actions.filter((action) => action === "sign-in.failed")).toHaveLength(limits.maxFailures);
    expect(log.entries.find((entry) => entry.action === "sign-in.throttled")).toMatchObject({
      actor: null,
      target: email,
      details: { email, address: "10.6.0.1", scope: "account_address", failures: limits.maxFailures },
    });
    expect(log.entries.find((entry) => entry.action === "sign-in.refused")).toMatchObject({
      target: email,
      details: { address: "10.6.0.1", scope: "account_address" },
    });
  });

  it("takes the client address from the socket, and from X-Forwarded-For only behind a trusted proxy", async () => {
    const user = await createUser(db.prisma, { password: "right password" });
    const signIn = (socket: string, password: string, forwardedFor: string | null, trusted: string[] = []) =>
      runWithSocketAddress(socket, () => {
        const request = new Request("http://mnemo.test/api/auth/callback/credentials", {
          method: "POST",
          headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
        });
        return codeOf(
          authenticateWithPassword(db.prisma, { email: user.email, password, address: requestClientAddress(request, trustedProxies(trusted)) }, limits),
        );
      });

    // One socket rotating a spoofed X-Forwarded-For is one address: it meets the throttle.
    for (let attempt = 0; attempt < limits.maxFailures; attempt++)
      expect(await signIn("203.0.113.5", `wrong ${attempt}`, `198.51.100.${attempt}`)).toBe("unauthorized");
    expect(await signIn("203.0.113.5", "right password", "198.51.100.99")).toBe("rate_limited");
    // Clients without X-Forwarded-For are told apart by their sockets: the owner's is not the attacker's bucket.
    expect(await signIn("203.0.113.6", "right password", null)).toBe("ok");

    // Behind a trusted proxy (10.0.0.0/8) the client is the right-most hop the proxy did not write itself;
    // what the client put to its left is ignored, so rotating it does not escape either.
    const behindProxy = ["10.0.0.0/8"];
    for (let attempt = 0; attempt < limits.maxFailures; attempt++) {
      expect(await signIn("10.0.0.2", `wrong ${attempt}`, `198.51.100.${attempt}, 192.0.2.1`, behindProxy)).toBe("unauthorized");
    }
    expect(await signIn("10.0.0.2", "right password", "198.51.100.50, 192.0.2.1", behindProxy)).toBe("rate_limited");
    expect(await signIn("10.0.0.3", "right password", "192.0.2.2", behindProxy)).toBe("ok");
    // A socket that is not a trusted proxy is the client, whatever it claims.
    expect(await signIn("203.0.113.5", "right password", "192.0.2.2", behindProxy)).toBe("rate_limited");
  });

  it("rate-limits an address that tries many accounts", async () => {
    const address = "10.2.0.1";
    for (let attempt = 0; attempt < limits.maxFailures * 4; attempt++) {
      await codeOf(authenticateWithPassword(db.prisma, { email: `spray${attempt}@example.test`, password: "x", address }, limits));
    }
    const user = await createUser(db.prisma, { password: "fine" });
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "fine", address }, limits))).toBe("rate_limited");
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "fine", address: "10.2.0.2" }, limits))).toBe("ok");
  });

  it("refuses deactivated users and sessions older than a session-version bump", async () => {
    const user = await createUser(db.prisma, { password: "pw" });
    const project = await createProject(db.prisma);
    await addMember(db.prisma, user.id, project.id, "editor");
    expect(await loadPrincipal(db.prisma, user.id, 0)).toMatchObject({ readableProjectIds: [project.id], editableProjectIds: [project.id] });
    await db.prisma.user.update({ where: { id: user.id }, data: { sessionVersion: 1 } });
    expect(await loadPrincipal(db.prisma, user.id, 0)).toBeNull();
    await db.prisma.user.update({ where: { id: user.id }, data: { active: false } });
    expect(await loadPrincipal(db.prisma, user.id, 1)).toBeNull();
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "pw", address: "10.3.0.1" }, limits))).toBe("unauthorized");
  });

  it("logs a wrong password through Auth.js as one line, never a stack", async () => {
    // The app's own Auth.js handlers, on this test's database.
    const previousSecret = process.env.AUTH_SECRET;
    process.env.AUTH_SECRET = "a-test-secret-of-at-least-thirty-two-characters";
    resetConfig();
    (globalThis as { mnemoDatabase?: Promise<Database> }).mnemoDatabase = Promise.resolve(db);
    const { handlers } = await import("../../lib/auth/auth");
    const { NextRequest } = await import("next/server");
    const user = await createUser(db.prisma, { password: "the right one" });
    const lines: string[] = [];
    const capture = (...parts: unknown[]) =>
      lines.push(parts.map((part) => (part instanceof Error ? `${part.message}\n${part.stack ?? ""}` : String(part))).join(" "));
    const warn = vi.spyOn(console, "warn").mockImplementation(capture);
    const error = vi.spyOn(console, "error").mockImplementation(capture);
    try {
      const csrf = await handlers.GET(new NextRequest("http://localhost/api/auth/csrf"));
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const cookie = csrf.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      const response = await handlers.POST(
        new NextRequest("http://localhost/api/auth/callback/credentials", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({ email: user.email, password: "a wrong one", csrfToken }).toString(),
        }),
      );
      expect(response.headers.get("location")).toContain("/sign-in?error=CredentialsSignin");
      expect(error).not.toHaveBeenCalled();
      expect(lines).toEqual(["[auth] CredentialsSignin (credentials): refused, as expected"]);
      expect(lines.join("\n")).not.toMatch(/\n\s+at /);
    } finally {
      warn.mockRestore();
      error.mockRestore();
      (globalThis as { mnemoDatabase?: Promise<Database> }).mnemoDatabase = undefined;
      if (previousSecret === undefined) delete process.env.AUTH_SECRET;
      else process.env.AUTH_SECRET = previousSecret;
      resetConfig();
    }
  });
});
