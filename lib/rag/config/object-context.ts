import { z } from "zod";
import { readDateValue } from "../../archive/date-values";
import type { FieldDefinition } from "../../archive/field-definitions";
import { searchSettings } from "./settings";

/**
 * A section's object context: which image fields carry the visual signal (and the view each
 * shows, so an obverse is compared with obverses), which fields hold the roles a curator
 * catalogues (typology, material, period, date), and which sections an object is compared with.
 * Stored in sections.object_context; sections without one are not objects.
 */
const fieldKey = z
  .string()
  .regex(/^[a-z][a-zA-Z0-9]*$/, "field keys are camelCase letters and digits")
  .max(64);

export const categoricalRoles = ["typology", "material", "period"] as const;
export type CategoricalRole = (typeof categoricalRoles)[number];
export const proposalRoles = [...categoricalRoles, "date"] as const;
export type ProposalRole = (typeof proposalRoles)[number];

/** The floor of near-duplicate mode when a section sets none (the nearDuplicateFloor setting; figures in docs/quality.md). */
export const defaultNearDuplicateFloor: number = searchSettings.nearDuplicateFloor.value;
/** The catalogue context's weight against each image view when proposing (eval:objects). */
export const defaultProposalContextWeight = 0.5;

export const objectContextSchema = z.object({
  images: z
    .array(z.object({ field: fieldKey, view: z.string().trim().min(1).max(40) }))
    .min(1, "choose at least one image field")
    .max(8, "at most 8 image fields"),
  roles: z.object({
    typology: fieldKey.optional(),
    material: fieldKey.optional(),
    period: fieldKey.optional(),
    date: fieldKey.optional(),
  }),
  /** Section slugs whose objects are candidates (the section itself when it is listed). */
  compareWith: z.array(z.string().min(1).max(64)).min(1, "compare with at least one section").max(20),
  /** Near-duplicate mode: a candidate must be at least this similar on every shared view. */
  nearDuplicateFloor: z.number().min(0.5).max(1).optional(),
  /** Proposals: how much the object's other roles count against each image view; 0 = images only. */
  proposalContextWeight: z.number().min(0).max(2).optional(),
});

export type ObjectContext = z.infer<typeof objectContextSchema>;

export interface ObjectContextProblem {
  path: string;
  message: string;
}

/**
 * Checks a context against the section's fields and the sections that exist: image entries
 * must name image fields (once each), categorical roles category or text fields, the date role
 * a date-range field, and compared sections must exist and be objects themselves.
 */
export function validateObjectContext(
  input: unknown,
  fields: readonly FieldDefinition[],
  sections: ReadonlyMap<string, { objectContext: unknown }>,
  ownSlug: string,
): { ok: true; context: ObjectContext } | { ok: false; problems: ObjectContextProblem[] } {
  const parsed = objectContextSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })) };
  }
  const context = parsed.data;
  const problems: ObjectContextProblem[] = [];
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const seen = new Set<string>();
  context.images.forEach((image, index) => {
    const field = byKey.get(image.field);
    if (!field) problems.push({ path: `images.${index}.field`, message: `unknown field "${image.field}"` });
    else if (field.type !== "image") problems.push({ path: `images.${index}.field`, message: `"${field.label}" is not an image field` });
    if (seen.has(image.field)) problems.push({ path: `images.${index}.field`, message: `"${image.field}" is listed twice` });
    seen.add(image.field);
  });
  for (const role of categoricalRoles) {
    const key = context.roles[role];
    if (key === undefined) continue;
    const field = byKey.get(key);
    if (!field) problems.push({ path: `roles.${role}`, message: `unknown field "${key}"` });
    else if (field.type !== "category" && field.type !== "text") {
      problems.push({ path: `roles.${role}`, message: `the ${role} must be a category or text field, "${field.label}" is ${field.type}` });
    }
  }
  if (context.roles.date !== undefined) {
    const field = byKey.get(context.roles.date);
    if (!field) problems.push({ path: "roles.date", message: `unknown field "${context.roles.date}"` });
    else if (field.type !== "daterange") {
      problems.push({ path: "roles.date", message: `the date must be a date-range field, "${field.label}" is ${field.type}` });
    }
  }
  context.compareWith.forEach((slug, index) => {
    const section = sections.get(slug);
    if (slug === ownSlug) return;
    if (!section) problems.push({ path: `compareWith.${index}`, message: `unknown section "${slug}"` });
    else if (!section.objectContext) problems.push({ path: `compareWith.${index}`, message: `section "${slug}" has no object context` });
  });
  return problems.length ? { ok: false, problems } : { ok: true, context };
}

/** A stored context, or null when the section is not an object section (or its JSON is broken). */
export function readObjectContext(stored: unknown): ObjectContext | null {
  if (stored === null || stored === undefined) return null;
  const parsed = objectContextSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** The role's value of a record as text ("" when absent); a date role as "from–to". */
export function roleValue(context: ObjectContext, role: ProposalRole, values: Record<string, unknown>): string {
  const key = context.roles[role];
  if (!key) return "";
  const value = values[key];
  if (typeof value === "string") return value.trim();
  if (role === "date") {
    const range = dateRangeOf(value);
    return range ? `${range.from}–${range.to}` : "";
  }
  return "";
}

/** Years of a date or date-range value: {from, to}, the years its EDTF covers ("1962-04-18" gives 1962 twice). */
export function dateRangeOf(value: unknown): { from: number; to: number } | null {
  if (typeof value === "string" || (value && typeof value === "object" && "edtf" in value)) return readDateValue(value)?.years ?? null;
  if (value && typeof value === "object" && "from" in value && "to" in value) {
    const { from, to } = value as { from: unknown; to: unknown };
    if (typeof from === "number" && typeof to === "number" && Number.isFinite(from) && Number.isFinite(to)) {
      return { from: Math.min(from, to), to: Math.max(from, to) };
    }
  }
  return null;
}

/**
 * The object's catalogue context as text for the text embedder, e.g.
 * "Material: bronze. Typology: as. Period: Roman Republic." — roles in `omit` are left out, so a
 * proposal for the typology never sees the typology it is proposing.
 */
export function contextText(
  context: ObjectContext,
  fields: readonly FieldDefinition[],
  values: Record<string, unknown>,
  omit: readonly ProposalRole[] = [],
): string {
  const parts: string[] = [];
  for (const role of categoricalRoles) {
    if (omit.includes(role)) continue;
    const value = roleValue(context, role, values);
    if (!value) continue;
    const label = fields.find((field) => field.key === context.roles[role])?.label ?? role;
    parts.push(`${label}: ${value}.`);
  }
  return parts.join(" ");
}
