import { AuthError, CredentialsSignin } from "next-auth";
import { describe, expect, it } from "vitest";
import { createAuthLogger } from "./auth-logger";

function capture() {
  const warnings: string[] = [];
  const errors: unknown[][] = [];
  return { warnings, errors, logger: createAuthLogger({ warn: (line) => warnings.push(line), error: (...parts) => errors.push(parts) }) };
}

describe("auth logger", () => {
  it("logs a refused sign-in as one line with its code, and no error", () => {
    const { warnings, errors, logger } = capture();
    const refused = new CredentialsSignin();
    refused.code = "rate_limited";
    logger.error(refused);
    expect(warnings).toEqual(["[auth] CredentialsSignin (rate_limited): refused, as expected"]);
    expect(errors).toEqual([]);
  });

  it("keeps the error and its stack for anything unexpected", () => {
    const { warnings, errors, logger } = capture();
    const broken = new Error("database down");
    logger.error(broken);
    class Configuration extends AuthError {
      static type = "Configuration";
    }
    const cause = new Error("bad secret");
    logger.error(new Configuration("no secret", { cause: { err: cause } }));
    expect(warnings).toEqual([]);
    expect(errors).toEqual([
      ["[auth][error] Error: database down", broken],
      ["[auth][error] Configuration: no secret. Read more at https://errors.authjs.dev#configuration", cause],
    ]);
  });
});
