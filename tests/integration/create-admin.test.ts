import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminAccount } from "../../lib/admin/people/create-admin-account";
import { authenticateWithPassword } from "../../lib/auth/authenticate";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase, type Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { startScript } from "../support/child-processes";
import { serveTestDatabase, testDatabaseIsServer, testDatabaseMode, type ServedDatabase } from "../support/test-database";

/**
 * The first admin of an installation that has no account (`npm run create-admin`): made by the
 * service and by the real command on an empty database, then signed in through the app's own
 * password check. A taken email is refused unless --reset-password, which ends the account's sessions.
 */
const limits = { maxFailures: 5, windowMinutes: 15, delaySeconds: 30 };
const scratch = mkdtempSync(join(tmpdir(), "mnemo-create-admin-"));
let served: ServedDatabase | undefined;
let db: Database;
/** The environment the command is run with: this suite's database. */
let commandEnv: Record<string, string | undefined>;

beforeAll(async () => {
  if (testDatabaseIsServer()) {
    served = await serveTestDatabase();
    db = served.database;
    commandEnv = { DATABASE_URL: served.url, MNEMO_DATA_DIR: scratch };
  } else {
    // Embedded: the command opens the data directory itself, so the test holds it only between runs.
    commandEnv = { DATABASE_URL: "", MNEMO_DATA_DIR: scratch };
  }
}, 120_000);

afterAll(async () => {
  await served?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The suite's database while `work` runs (embedded: opened, then closed for the next command). */
async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  if (served) return work(db);
  const embedded = await openDatabase({ dataDir: join(scratch, "pgdata") });
  try {
    return await work(embedded);
  } finally {
    await embedded.close();
  }
}

async function runCommand(args: string[], stdin: string): Promise<{ code: number | null; out: string; err: string }> {
  const command = startScript("scripts/create-admin.ts", args, commandEnv, { stdin });
  const code = await command.exited;
  return { code, out: command.lines.join("\n"), err: command.errors() };
}

describe(`npm run create-admin (${testDatabaseMode()})`, () => {
  it("makes the first admin of an empty installation, who can then sign in", async () => {
    const run = await runCommand(["--email", "Archivist@Example.org", "--name", "Ada Archivist", "--password-stdin"], "a long enough secret\n");
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(run.out).toContain("Created the admin account archivist@example.org.");
    await withDatabase(async (database) => {
      const user = await authenticateWithPassword(
        database.prisma,
        { email: "archivist@example.org", password: "a long enough secret", address: "10.0.0.9" },
        limits,
      );
      expect(user.role).toBe("admin");
      const principal = await loadPrincipal(database.prisma, user.id, user.sessionVersion);
      expect(principal?.role).toBe("admin");
      expect(await database.prisma.auditEvent.count({ where: { action: "user.create", targetId: user.id } })).toBe(1);
    });
  }, 120_000);

  it("refuses a taken email or a short password with exit code 2 and writes nothing", async () => {
    const taken = await runCommand(["--email", "archivist@example.org", "--name", "Someone Else", "--password-stdin"], "another long secret\n");
    expect(taken.code).toBe(2);
    expect(taken.err).toMatch(/already exists\. Run again with --reset-password/);
    const short = await runCommand(["--email", "second@example.org", "--name", "Second", "--password-stdin"], "short\n");
    expect(short.code).toBe(2);
    expect(short.err).toMatch(/at least 12 characters/);
    const noName = await runCommand(["--email", "third@example.org"], "a long enough secret\n");
    expect(noName.code).toBe(2);
    expect(noName.err).toMatch(/usage: npm run create-admin/);
    await withDatabase(async (database) => {
      expect(await database.prisma.user.count()).toBe(1);
      await expect(
        authenticateWithPassword(database.prisma, { email: "archivist@example.org", password: "another long secret", address: "10.0.0.9" }, limits),
      ).rejects.toBeInstanceOf(AppError);
    });
  }, 120_000);

  it("with --reset-password makes the account an active admin with the new password and ends its sessions", async () => {
    const before = await withDatabase(async (database) => {
      const user = await database.prisma.user.update({ where: { email: "archivist@example.org" }, data: { role: "researcher", active: false } });
      return user.sessionVersion;
    });
    const run = await runCommand(["--email", "archivist@example.org", "--name", "Ada Archivist", "--generate-password", "--reset-password"], "");
    expect(run.code).toBe(0);
    const password = /shown once, keep it safe\): (\S+)/.exec(run.out)?.[1];
    expect(password?.length).toBeGreaterThanOrEqual(20);
    await withDatabase(async (database) => {
      const user = await authenticateWithPassword(database.prisma, { email: "archivist@example.org", password: password!, address: "10.0.0.10" }, limits);
      expect(user.role).toBe("admin");
      expect(user.sessionVersion).toBe(before + 1);
      // A session made before the reset carries the old version: it no longer loads.
      expect(await loadPrincipal(database.prisma, user.id, before)).toBeNull();
      expect(await database.prisma.auditEvent.count({ where: { action: "user.admin_reset", targetId: user.id } })).toBe(1);
    });
  }, 120_000);

  it("validates what it is given at the service boundary", async () => {
    await withDatabase(async (database) => {
      const error = await createAdminAccount(database.prisma, { email: "not an address", name: "", password: "x" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(Object.keys((error as AppError).fieldErrors ?? {}).sort()).toEqual(["email", "name", "password"]);
    });
  });
});
