/**
 * Record, media, user and every other row id is a UUID. One check for all of them, below every
 * layer, so auth, admin and rag need not reach into record validation to recognise an id. Pure.
 */
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && uuid.test(value);
}
