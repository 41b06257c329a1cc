import { z } from "zod";
import type { FieldDefinition } from "../../archive/field-definitions";

/**
 * An embed group: which fields of a section are embedded together, and how they are chunked.
 * Field paths follow relations to any depth: "narrator.occupation" is the occupation of the
 * record the narrator field points at; a path ending at a relation contributes the target's
 * title. Validation against the sections names each problem.
 */
export const chunkingModes = ["short", "long_document", "transcription", "auto"] as const;
export const groupLanguages = ["en", "es", "ca"] as const;

export const embedGroupInputSchema = z
  .object({
    slug: z.string().regex(/^[a-z][a-z0-9-]{0,47}$/, "slug: lowercase letters, digits and dashes, starting with a letter"),
    label: z.string().trim().min(1, "label is required").max(120),
    fields: z.array(z.string().regex(/^[a-zA-Z0-9]+(\.[a-zA-Z0-9]+)*$/, "a field path is field keys joined by dots")).min(1, "choose at least one field"),
    chunking: z.enum(chunkingModes),
    maxTokens: z.number().int().min(16, "max tokens must be at least 16").max(2048, "max tokens must be at most 2048"),
    minTokens: z.number().int().min(0, "min tokens must not be negative"),
    overlap: z.number().int().min(0, "overlap must not be negative"),
    /** Record languages this group indexes; empty means every language. */
    languages: z.array(z.enum(groupLanguages)).default([]),
  })
  .superRefine((group, ctx) => {
    if (group.minTokens >= group.maxTokens) {
      ctx.addIssue({ code: "custom", path: ["minTokens"], message: "min tokens must be less than max tokens" });
    }
    if (group.overlap * 2 >= group.maxTokens) {
      ctx.addIssue({ code: "custom", path: ["overlap"], message: "overlap must be less than half of max tokens" });
    }
    const seen = new Set<string>();
    for (const [index, path] of group.fields.entries()) {
      if (seen.has(path)) ctx.addIssue({ code: "custom", path: ["fields", index], message: `"${path}" is listed twice` });
      seen.add(path);
    }
  });

export type EmbedGroupInput = z.infer<typeof embedGroupInputSchema>;

export interface SectionShape {
  id: string;
  slug: string;
  name: string;
  fields: FieldDefinition[];
}

/** One step of a resolved path: the section it is read in and the field read there. */
export interface PathStep {
  sectionSlug: string;
  field: FieldDefinition;
}

/**
 * Walks a field path through the sections. Errors name the problem: an unknown field, a path
 * that continues through a field that is not a relation, a relation to an unknown section, or
 * a cycle (a path that comes back to a section it already passed through).
 */
export function resolveFieldPath(
  path: string,
  startSection: string,
  sections: ReadonlyMap<string, SectionShape>,
): { ok: true; steps: PathStep[] } | { ok: false; message: string } {
  const keys = path.split(".");
  const steps: PathStep[] = [];
  const visited = [startSection];
  let sectionSlug = startSection;
  for (const [index, key] of keys.entries()) {
    const section = sections.get(sectionSlug);
    if (!section) return { ok: false, message: `"${path}": section "${sectionSlug}" does not exist` };
    const field = section.fields.find((candidate) => candidate.key === key);
    if (!field) return { ok: false, message: `"${path}": ${section.name} has no field "${key}"` };
    steps.push({ sectionSlug, field });
    const isLast = index === keys.length - 1;
    if (isLast) break;
    if (field.type !== "relation") {
      return { ok: false, message: `"${path}": "${key}" is a ${field.type} field, not a relation, so the path cannot continue through it` };
    }
    if (visited.includes(field.targetSection)) {
      return { ok: false, message: `"${path}": the path returns to ${field.targetSection} (a cycle)` };
    }
    visited.push(field.targetSection);
    sectionSlug = field.targetSection;
  }
  const last = steps.at(-1)?.field;
  if (last && (last.type === "image" || last.type === "media")) {
    return { ok: false, message: `"${path}": ${last.type} fields have no text to embed` };
  }
  return { ok: true, steps };
}

/** Full validation of a group for a section: the schema, then every path. */
export function validateEmbedGroup(
  input: unknown,
  sectionSlug: string,
  sections: ReadonlyMap<string, SectionShape>,
): { ok: true; group: EmbedGroupInput } | { ok: false; errors: string[] } {
  const parsed = embedGroupInputSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)) };
  }
  const errors = parsed.data.fields.flatMap((path) => {
    const resolved = resolveFieldPath(path, sectionSlug, sections);
    return resolved.ok ? [] : [resolved.message];
  });
  return errors.length ? { ok: false, errors } : { ok: true, group: parsed.data };
}
