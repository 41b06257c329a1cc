/**
 * Limits and choices of an API token's form, shared by the service that validates it and the
 * form that offers it. No server-only import: the tokens page's client reads it.
 */
export const maxTokenNameLength = 80;

/**
 * What a token may do. Every token reads (search, passages, answers, records: what its user may
 * read); `write` adds the operations that change the archive (imports), within what its user
 * may edit. An operation names the scope it needs; a token without it is refused (403
 * `insufficient_scope`) before the operation looks at anything.
 */
export const apiTokenScopes = ["read", "write"] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];
