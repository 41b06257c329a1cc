export type UserRole = "admin" | "curator" | "researcher";

/**
 * Who is asking, resolved from the session on every request: the user row (role, deactivation,
 * session version) read each time; the project sets reused for a few seconds per process, and
 * forgotten at once by a membership change through the process (lib/auth/load-principal.ts).
 */
export interface Principal {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
  /** Projects whose records the principal may read; admins read everything. */
  readableProjectIds: readonly string[];
  /** Projects whose records the principal may create, edit and delete. */
  editableProjectIds: readonly string[];
}

/** Used by indexing and seeding, which build documents whatever user triggered them. */
export const systemPrincipal: Principal = {
  userId: "system",
  email: "system@mnemo.local",
  name: "System",
  role: "admin",
  readableProjectIds: [],
  editableProjectIds: [],
};

/** The user id of the public reader (publicReader): no person, no session, no token. */
export const anonymousUserId = "anonymous";
