/**
 * Whether an error says the database could not be reached or dropped the connection (a restart,
 * a failover, a network cut), as against a statement that failed: then the work can wait and try
 * again unchanged. Reads `pg`'s errors and codes, PostgreSQL's SQLSTATEs (class 08, connection
 * exception; 57P01–57P03, the server shutting down or starting up), Prisma's (P1001 cannot reach,
 * P1017 connection closed) and what the error wraps. Pure.
 */
const networkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "P1001", "P1002", "P1017"]);
const serverGoing = new Set(["57P01", "57P02", "57P03"]);
const lostMessages =
  /connection terminated|terminating connection|connection (?:was )?closed|server closed the connection|timeout exceeded when trying to connect|cannot reach database server|can't reach database server|connection refused|client has encountered a connection error/i;

export function isConnectionLost(error: unknown, depth = 0): boolean {
  if (depth > 4 || error === null || typeof error !== "object") return false;
  const { code, message, cause, errors, originalCode } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    originalCode?: unknown;
  };
  for (const value of [code, originalCode]) {
    if (typeof value !== "string") continue;
    if (networkCodes.has(value) || serverGoing.has(value) || /^08[0-9A-Z]{3}$/.test(value)) return true;
  }
  if (typeof message === "string" && lostMessages.test(message)) return true;
  // Node gives a refused connection to every address of a name as one AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isConnectionLost(inner, depth + 1))) return true;
  return isConnectionLost(cause, depth + 1);
}
