/**
 * `npm run create-admin -- --email <address> --name <name> [--password-stdin | --generate-password] [--reset-password]`
 *
 * Creates an admin account, the way into an installation that has none (a new one, or one filled by
 * restoring project backups, whose members are matched by email and never created). The password is
 * never an argument (it would show in `ps` and shell history): it is asked twice without echo on a
 * terminal, read from standard input with --password-stdin (its first line), or generated and
 * printed once with --generate-password. An email already taken is refused unless --reset-password,
 * which makes that account an active admin with the new password and ends its sessions.
 * Works on the configured database (DATABASE_URL, else the embedded one in MNEMO_DATA_DIR, migrated
 * first when new); in embedded mode stop the app first (PGlite has one owner).
 * Exit codes: 0 done; 2 bad arguments or a refused account (nothing written); 1 anything else.
 */
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { exitWithUsage, parseArgsOrExit } from "./command-line";
import { createAdminAccount } from "../lib/admin/people/create-admin-account";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { AppError } from "../lib/errors";

const usage = "usage: npm run create-admin -- --email <address> --name <name> [--password-stdin | --generate-password] [--reset-password]";
const { values } = parseArgsOrExit(
  {
    options: {
      email: { type: "string" },
      name: { type: "string" },
      "password-stdin": { type: "boolean" },
      "generate-password": { type: "boolean" },
      "reset-password": { type: "boolean" },
    },
    strict: true,
  },
  usage,
);
if (!values.email || !values.name || (values["password-stdin"] && values["generate-password"])) exitWithUsage(usage);

async function readStdinLine(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk.toString("utf8");
  return text.split(/\r?\n/)[0] ?? "";
}

/** Asks on the terminal without echoing what is typed. */
function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const reader = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    reader.question(question, (answer) => {
      reader.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

let password: string;
let generated = false;
if (values["generate-password"]) {
  password = randomBytes(18).toString("base64url");
  generated = true;
} else if (values["password-stdin"] || !process.stdin.isTTY) {
  password = await readStdinLine();
} else {
  password = await askHidden("Password (at least 12 characters): ");
  if ((await askHidden("The same password again: ")) !== password) {
    console.error("The two passwords differ; nothing was written.");
    process.exit(2);
  }
}

const database = await openDatabase(configuredDatabaseOptions());
let exitCode = 0;
try {
  const account = await createAdminAccount(database.prisma, { email: values.email, name: values.name, password }, { resetExisting: values["reset-password"] });
  console.log(
    account.created
      ? `Created the admin account ${account.email}.`
      : `${account.email} is now an active admin with the new password; its earlier sessions have ended.`,
  );
  if (generated) console.log(`Its password (shown once, keep it safe): ${password}`);
  console.log("Sign in at /sign-in; people and projects are managed at /admin/people.");
} catch (error) {
  if (error instanceof AppError && error.status < 500) {
    const fields = Object.values(error.fieldErrors ?? {}).flat();
    console.error(error.code === "bad_request" && fields.length > 0 ? fields.join("\n") : error.message);
    exitCode = 2;
  } else {
    console.error(error instanceof Error ? error.message : String(error));
    exitCode = 1;
  }
} finally {
  await database.close();
}
process.exit(exitCode);
