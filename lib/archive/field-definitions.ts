import { z } from "zod";
import { authoritySchemes } from "./authorities";

/**
 * The typed field definitions a section declares. Record values are validated against them
 * (see validate-record-values.ts) and the record page renders each type in its own way.
 */
const baseField = {
  key: z
    .string()
    .regex(/^[a-z][a-zA-Z0-9]*$/, "field keys are camelCase letters and digits")
    .max(64),
  label: z.string().min(1).max(120),
  required: z.boolean().optional(),
  /** Shown in the record list as a column and offered as a filter. */
  listed: z.boolean().optional(),
};

export const fieldDefinitionSchema = z.discriminatedUnion("type", [
  z.object({ ...baseField, type: z.literal("text"), maxLength: z.number().int().positive().optional() }),
  z.object({ ...baseField, type: z.literal("longtext") }),
  z.object({ ...baseField, type: z.literal("transcript"), mediaField: z.string().optional() }),
  /** An index of the recording (OHMS index points): titled, timecoded segments, each a passage. */
  z.object({ ...baseField, type: z.literal("segments"), mediaField: z.string().optional() }),
  z.object({
    ...baseField,
    type: z.literal("relation"),
    targetSection: z.string(),
    multiple: z.boolean().optional(),
  }),
  z.object({ ...baseField, type: z.literal("date") }),
  z.object({ ...baseField, type: z.literal("daterange") }),
  z.object({ ...baseField, type: z.literal("category"), options: z.array(z.string().min(1)).min(1) }),
  z.object({ ...baseField, type: z.literal("image"), view: z.string().min(1) }),
  z.object({ ...baseField, type: z.literal("media"), mediaKind: z.enum(["audio", "video"]) }),
  /** Scanned pages (a TIFF, JPEG or PNG page, or a PDF): the index worker reads them with OCR. */
  z.object({ ...baseField, type: z.literal("scan") }),
  /**
   * Links to shared authorities (authorities.ts): `{ uri, label? }`, or a list of them when
   * `multiple`; `authorities` limits the schemes accepted (all when absent). `dublinCore` says
   * whether the links are subjects or coverage (places) in exports; by default, coverage when
   * every accepted scheme names places (Getty TGN, GeoNames).
   */
  z.object({
    ...baseField,
    type: z.literal("authority"),
    authorities: z.array(z.enum(authoritySchemes)).min(1).optional(),
    multiple: z.boolean().optional(),
    dublinCore: z.enum(["subject", "coverage"]).optional(),
  }),
]);

export type FieldDefinition = z.infer<typeof fieldDefinitionSchema>;
export type FieldType = FieldDefinition["type"];

export const sectionFieldsSchema = z
  .array(fieldDefinitionSchema)
  .min(1)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    for (const [index, field] of fields.entries()) {
      if (seen.has(field.key)) {
        ctx.addIssue({ code: "custom", path: [index, "key"], message: `duplicate field key "${field.key}"` });
      }
      seen.add(field.key);
    }
  });

/** A timecoded turn of a transcript; seconds from the start of the recording. */
export interface TranscriptTurn {
  speaker: string;
  start: number;
  end: number;
  text: string;
}

/**
 * A segment of a recording's index (an OHMS index point): where it starts and ends, in seconds
 * from the start of the recording, and what it is about. Searchable as one passage at `start`.
 */
export interface IndexSegment {
  start: number;
  end: number;
  title: string;
  synopsis: string;
  keywords: string[];
  partialTranscript: string;
}

/**
 * Years, negative before the common era: the years the range covers. A range written as one date
 * ("1923-05", "c. 1850") keeps its EDTF and its text as written (see date-values.ts).
 */
export interface DateRangeValue {
  from: number;
  to: number;
  edtf?: string;
  text?: string;
}
