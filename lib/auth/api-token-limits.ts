/**
 * Limits of an API token's form, shared by the service that validates it and the form that
 * offers it. No server-only import: the tokens page's client reads it.
 */
export const maxTokenNameLength = 80;
