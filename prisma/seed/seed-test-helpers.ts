/** Shared checks for the demo-data tests (not a test file itself). */
import { openImage } from "../../lib/archive/image-limits";
import { expect } from "vitest";
import { validateRecordValues } from "../../lib/archive/validate-record-values";
import type { DemoObject, DemoSection } from "./object-images";

/**
 * Every value has the format its field's type asks for, required fields are present, and the
 * app's own validateRecordValues accepts the record.
 */
export function expectValuesMatchSection(section: DemoSection, objects: DemoObject[]): void {
  const fields = new Map(section.fields.map((f) => [f.key, f]));
  const problems: string[] = [];
  for (const object of objects) {
    if (object.fields.title !== object.title) problems.push(`${object.key}: title differs from fields.title`);
    for (const field of section.fields) {
      if (field.required && (object.fields[field.key] === undefined || object.fields[field.key] === "")) problems.push(`${object.key}: ${field.key} missing`);
    }
    for (const [key, value] of Object.entries(object.fields)) {
      const field = fields.get(key);
      const where = `${object.key}.${key}`;
      if (!field) problems.push(`${where}: no such field`);
      else if (field.type === "text" || field.type === "longtext") {
        if (typeof value !== "string" || value.trim() === "") problems.push(`${where}: not a non-empty string`);
      } else if (field.type === "category") {
        if (typeof value !== "string" || !field.options.includes(value)) problems.push(`${where}: ${String(value)} is not an option`);
      } else if (field.type === "daterange") {
        const v = value as { from?: unknown; to?: unknown };
        if (!Number.isInteger(v?.from) || !Number.isInteger(v?.to) || (v.from as number) > (v.to as number))
          problems.push(`${where}: bad range ${JSON.stringify(value)}`);
      } else if (field.type === "date") {
        if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) problems.push(`${where}: bad date`);
      } else if (field.type === "authority") {
        const links: unknown[] = field.multiple && Array.isArray(value) ? value : [value];
        const labelled = (link: unknown) => {
          const { uri, label } = (typeof link === "object" && link !== null ? link : {}) as { uri?: unknown; label?: unknown };
          return typeof uri === "string" && typeof label === "string" && label.trim() !== "";
        };
        if ((field.multiple && !Array.isArray(value)) || links.length === 0 || !links.every(labelled)) {
          problems.push(`${where}: not ${field.multiple ? "a list of labelled links" : "one labelled link"}`);
        }
      } else if (field.type === "image") problems.push(`${where}: image values belong in images`);
    }
    const checked = validateRecordValues(section.fields, object.fields);
    if (!checked.ok) problems.push(`${object.key}: validateRecordValues ${JSON.stringify(checked.fieldErrors)}`);
    // Authority links are written in canonical form, so the record stores exactly what the demo built.
    else
      for (const field of section.fields) {
        if (field.type === "authority" && JSON.stringify(checked.values[field.key]) !== JSON.stringify(object.fields[field.key])) {
          problems.push(`${object.key}.${field.key}: validateRecordValues changed ${JSON.stringify(object.fields[field.key])}`);
        }
      }
    for (const image of object.images) {
      const field = fields.get(image.field);
      if (field?.type !== "image" || field.view !== image.view) problems.push(`${object.key}: image ${image.field}/${image.view} has no image field`);
    }
  }
  expect(problems.slice(0, 20)).toEqual([]);
}

/** The image as 32×32 RGB, for comparing overall appearance. */
export async function thumbnail(webp: Buffer): Promise<Uint8Array> {
  const { data } = await openImage(webp).resize(32, 32, { fit: "fill" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/** Mean absolute difference of two thumbnails, 0–255. */
export function pixelDistance(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

export function mean(values: number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/**
 * Mean distance between images of the same label and between images of different labels,
 * always over pairs of different keys, for renders made by render(label, key).
 */
export async function labelDistances(
  labels: [string, string],
  keys: string[],
  render: (label: string, key: string) => Promise<Buffer>,
): Promise<{ same: number; different: number }> {
  const [a, b] = labels;
  const thumbsA = await Promise.all(keys.map(async (k) => thumbnail(await render(a, k))));
  const thumbsB = await Promise.all(keys.map(async (k) => thumbnail(await render(b, k))));
  const same: number[] = [];
  const different: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      same.push(pixelDistance(thumbsA[i] as Uint8Array, thumbsA[j] as Uint8Array));
      same.push(pixelDistance(thumbsB[i] as Uint8Array, thumbsB[j] as Uint8Array));
    }
    for (let j = 0; j < keys.length; j++) {
      if (i !== j) different.push(pixelDistance(thumbsA[i] as Uint8Array, thumbsB[j] as Uint8Array));
    }
  }
  return { same: mean(same), different: mean(different) };
}
