/**
 * The longest search query or question, in characters: one limit for search, ask, the ask
 * panel's scope, the JSON API and MCP, so a question that ask accepts is never refused by the
 * search it runs. No server-only import: the search box and the ask panel read it too.
 */
export const maxQueryLength = 1000;

/** The longest "contains text" filter of the record list (a substring match, not a search). */
export const maxFilterTextLength = 200;
