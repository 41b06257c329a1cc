import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { OaiError } from "./oai-request";

/**
 * Stateless resumption tokens: the list's arguments, where the next page starts (the keyset
 * (datestamp, record id) of the last item sent), the size of the whole list and how many items
 * came before, and an expiry — as base64url JSON with a keyed checksum. Nothing is kept on the
 * server, so any web process answers the next page, and the list stays consistent while records
 * change: an item is never skipped, since pages follow the keyset rather than an offset.
 * A token that was altered, cut, expired, or issued for the other list verb is badResumptionToken.
 * Everything in a token is something the harvester could have asked for directly, so the
 * checksum is there to refuse garbage cleanly rather than to keep a secret.
 */
const payloadSchema = z
  .object({
    v: z.literal(1),
    verb: z.enum(["ListIdentifiers", "ListRecords"]),
    set: z.object({ kind: z.enum(["section", "project"]), slug: z.string().max(200) }).optional(),
    from: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      .optional(),
    /** Frozen at the first page: records changed during the harvest wait for the next one. */
    until: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    after: z.object({ datestamp: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), id: z.string().max(64) }),
    total: z.number().int().min(1),
    cursor: z.number().int().min(0),
    /** Expiry, seconds since the epoch. */
    exp: z.number().int().min(0),
  })
  .strict();

export type ResumptionState = Omit<z.infer<typeof payloadSchema>, "v" | "exp">;

/** How long a harvester may take to ask for the next page. */
export const tokenLifetimeSeconds = 24 * 60 * 60;

function checksum(key: string, body: string): Buffer {
  return createHmac("sha256", `mnemo-oai-resumption:${key}`).update(body).digest().subarray(0, 16);
}

export function encodeResumptionToken(state: ResumptionState, options: { key: string; now: Date }): { token: string; expiresAt: Date } {
  const exp = Math.floor(options.now.getTime() / 1000) + tokenLifetimeSeconds;
  const body = Buffer.from(JSON.stringify({ v: 1, ...state, exp })).toString("base64url");
  return { token: `${body}.${checksum(options.key, body).toString("base64url")}`, expiresAt: new Date(exp * 1000) };
}

export function decodeResumptionToken(token: string, options: { key: string; now: Date; verb: "ListIdentifiers" | "ListRecords" }): ResumptionState {
  const refuse = (why: string) => new OaiError("badResumptionToken", `The resumption token ${why}; start the list again without one.`);
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) throw refuse("is not one this repository issued");
  const [, body = "", mac = ""] = match;
  const expected = checksum(options.key, body);
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse("is not one this repository issued");
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw refuse("is not one this repository issued");
  }
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) throw refuse("is not one this repository issued");
  if (parsed.data.verb !== options.verb) throw refuse(`was issued for ${parsed.data.verb}`);
  if (parsed.data.exp * 1000 < options.now.getTime()) throw refuse("has expired");
  const { v: _version, exp: _expiry, ...state } = parsed.data;
  return state;
}
