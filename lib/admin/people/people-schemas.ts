import { z } from "zod";
import { isUuid } from "../../ids";

/**
 * People and policy, for admins: users (create, change role, reset password, deactivate),
 * projects and their members with roles, and each section's egress policy — one service per
 * file beside this one. Every change is audited. Deactivating a user or resetting their password
 * bumps their session version, which ends every session they have at their next request.
 * Anyone but an admin: not found.
 */

export const passwordSchema = z.string().min(12, "Passwords must be at least 12 characters.").max(200, "Passwords must be at most 200 characters.");
export const roleSchema = z.enum(["admin", "curator", "researcher"], { error: "Choose a role: admin, curator or researcher." });
export const idSchema = z.string().refine(isUuid, "Unknown id.");

export const newUserSchema = z.object({
  email: z.string().trim().toLowerCase().max(200, "At most 200 characters.").pipe(z.email("Give a valid email address.")),
  name: z.string().trim().min(1, "Give a name.").max(120, "At most 120 characters."),
  role: roleSchema,
  password: passwordSchema,
});

export const newProjectSchema = z.object({
  slug: z.string().regex(/^[a-z][a-z0-9-]{1,47}$/, "Slug: 2–48 lowercase letters, digits and dashes, starting with a letter."),
  name: z.string().trim().min(1, "Give a name.").max(120),
  description: z.string().trim().max(2000).default(""),
  restricted: z.boolean().default(false),
});
