import { AuthError } from "next-auth";

/**
 * Auth.js's logger, quiet about expected failures. A wrong password, a refused or throttled
 * sign-in, an expired link or a CSRF token that no longer matches are answers to a user, not
 * faults: they log one line (the error type and, for a refused sign-in, its code), never a
 * stack. Anything else is logged as Auth.js would: the error, its cause and its stack.
 */
export const expectedAuthErrorTypes: ReadonlySet<string> = new Set([
  // Auth.js's own client-safe errors (isClientError in @auth/core): what the sign-in page explains.
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "AccessDenied",
  "Verification",
  "MissingCSRF",
  "AccountNotLinked",
  "WebAuthnVerificationError",
]);

export interface AuthLogSink {
  warn: (line: string) => void;
  error: (...parts: unknown[]) => void;
}

const consoleSink: AuthLogSink = { warn: (line) => console.warn(line), error: (...parts) => console.error(...parts) };

export function isExpectedAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError && expectedAuthErrorTypes.has(error.type);
}

export function createAuthLogger(sink: AuthLogSink = consoleSink) {
  return {
    error(error: Error) {
      if (isExpectedAuthError(error)) {
        const code = (error as unknown as { code?: unknown }).code;
        const suffix = typeof code === "string" && code ? ` (${code})` : "";
        sink.warn(`[auth] ${error.type}${suffix}: refused, as expected`);
        return;
      }
      const name = error instanceof AuthError ? error.type : error.name;
      const cause = error.cause as { err?: unknown } | undefined;
      sink.error(`[auth][error] ${name}: ${error.message}`, cause?.err instanceof Error ? cause.err : error);
    },
    warn(code: string) {
      sink.warn(`[auth][warn][${code}] Read more: https://warnings.authjs.dev`);
    },
    debug() {
      // Auth.js debug output is off (debug: false); nothing is logged.
    },
  };
}
