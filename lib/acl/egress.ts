/**
 * Egress: may text (or an image) of the archive leave the host, i.e. be sent to an external
 * provider (embedder, reranker, generator, image model)? Each section says so with its policy;
 * text drawn from several sections (a passage quoting related records) may leave only when every
 * one of them allows it. A receiver that runs on this server gets everything.
 */

export const egressPolicies = ["local_only", "allow_external"] as const;
export type EgressPolicy = (typeof egressPolicies)[number];

/** Something text is sent to; `external` when it is another machine (absent: local). */
export interface EgressReceiver {
  readonly external?: boolean;
}

/**
 * Whether text of sections with these policies may be sent off the host: every policy must be
 * `allow_external`, and an unknown one (a section not found) does not allow it.
 */
export function egressAllowed(policies: readonly (string | null | undefined)[]): boolean {
  return policies.every((policy) => policy === "allow_external");
}

/** May text whose sections allow egress (`allowed`, see egressAllowed) be sent to `receiver`? */
export function mayLeaveHost(receiver: EgressReceiver, allowed: boolean): boolean {
  return receiver.external !== true || allowed;
}

/**
 * Is the URL's host this machine (127.0.0.0/8, ::1, localhost)? A model endpoint there is a
 * local receiver unless configured otherwise (embedders, the speech-to-text endpoint).
 */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** An endpoint as messages and logs name it: without any user:password its URL might carry. */
export function redacted(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = "";
  url.password = "";
  return url.toString();
}

const safeColumn = /^[a-z_][a-z0-9_.]*$/i;

/**
 * SQL form of egressAllowed for a passage: a boolean expression, true when the section policy
 * `policy` and the policy of every section listed in `contributingSectionIds` (a text[] of
 * section ids; ids of sections no longer there are not counted) allow egress. Binds the policy
 * value as the next parameter.
 */
export function egressAllowedSql(columns: { policy: string; contributingSectionIds: string }, params: unknown[]): string {
  for (const column of [columns.policy, columns.contributingSectionIds]) {
    if (!safeColumn.test(column)) throw new Error(`unsafe column name: ${column}`);
  }
  params.push("allow_external" satisfies EgressPolicy);
  const allowed = `$${params.length}::"EgressPolicy"`;
  return `(${columns.policy} = ${allowed} AND NOT EXISTS (
    SELECT 1 FROM sections egress_section WHERE egress_section.id = ANY(${columns.contributingSectionIds}) AND egress_section.egress_policy <> ${allowed}
  ))`;
}
