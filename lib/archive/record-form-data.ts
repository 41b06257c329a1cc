import type { FieldDefinition } from "./field-definitions";
import type { RecordValues } from "./validate-record-values";
import type { FieldErrors } from "../errors";
import type { ActionResult } from "../action-result";
import { parseSegmentText } from "./segment-text";
import { parseTranscriptText } from "./transcript-text";
import type { UploadKind } from "./media-storage";
import { authorityHint } from "./authorities";
import { parseAuthorityLines, parseAuthorityLink } from "./authority-text";

/**
 * How the record form names its inputs and how the save action reads them back: the one place
 * both sides agree on. Pure; the typed checks stay in lib/archive/validate-record-values.ts.
 */

/** What the save action returns to the form (on success it redirects instead). */
export type RecordFormState = ActionResult<never> | null;

export const recordInputName = {
  value: (key: string) => `values.${key}`,
  rangeFrom: (key: string) => `values.${key}.from`,
  rangeTo: (key: string) => `values.${key}.to`,
  /** A date's stored `{ edtf, text }`, as JSON: kept when the text comes back unchanged (see keptDate). */
  keptDate: (key: string) => `values.${key}.kept`,
  /** A single authority link's label, beside its URI (`value`). */
  authorityLabel: (key: string) => `values.${key}.label`,
  file: (key: string) => `files.${key}`,
  remove: (key: string) => `remove.${key}`,
};

export interface RecordUpload {
  key: string;
  label: string;
  kind: UploadKind;
  file: File;
}

function text(formData: FormData, name: string): string | undefined {
  const value = formData.get(name);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function year(formData: FormData, name: string): number | undefined {
  const value = text(formData, name);
  // Not-a-number stays NaN, which validation reports as "must be whole years".
  return value === undefined ? undefined : Number(value.trim());
}

/**
 * A date box's value: the stored `{ edtf, text }` when the box still holds that text (so a date
 * given its EDTF beside words no reader knows, "during the war" as 1939/1945, saves unchanged),
 * else what the box holds. The EDTF is checked on save like any other.
 */
function keptDate(kept: FormDataEntryValue | null, written: string | undefined): unknown {
  if (typeof kept !== "string" || written === undefined) return written;
  try {
    const stored = JSON.parse(kept) as { edtf?: unknown; text?: unknown };
    return typeof stored.edtf === "string" && stored.text === written.trim() ? { edtf: stored.edtf, text: stored.text } : written;
  } catch {
    return written;
  }
}

/** Reads field values and new uploads from a submitted record form. */
export function readRecordForm(fields: FieldDefinition[], formData: FormData): { values: RecordValues; uploads: RecordUpload[]; fieldErrors: FieldErrors } {
  const values: RecordValues = {};
  const uploads: RecordUpload[] = [];
  const fieldErrors: FieldErrors = {};
  for (const field of fields) {
    const name = recordInputName.value(field.key);
    switch (field.type) {
      case "text":
      case "longtext":
      case "category":
        values[field.key] = text(formData, name);
        break;
      case "date":
      case "daterange": {
        // As written in one box ("1920-1930", "c. 1850"); two year boxes are still read for older forms.
        const written = text(formData, name);
        if (written !== undefined || formData.has(name) || field.type === "date") {
          values[field.key] = keptDate(formData.get(recordInputName.keptDate(field.key)), written);
          break;
        }
        const from = year(formData, recordInputName.rangeFrom(field.key));
        const to = year(formData, recordInputName.rangeTo(field.key));
        values[field.key] = from === undefined && to === undefined ? undefined : { from, to };
        break;
      }
      case "relation": {
        const ids = formData.getAll(name).filter((id): id is string => typeof id === "string" && id !== "");
        values[field.key] = field.multiple ? ids : ids[0];
        break;
      }
      case "image":
      case "media":
      case "scan": {
        const file = formData.get(recordInputName.file(field.key));
        if (file instanceof File && file.size > 0) {
          uploads.push({ key: field.key, label: field.label, kind: field.type === "media" ? field.mediaKind : field.type, file });
        } else if (formData.get(recordInputName.remove(field.key)) === null) {
          values[field.key] = text(formData, name);
        }
        break;
      }
      case "authority": {
        // Several links: one a line, "Label <URI>" or the URI alone. One link: its URI and its
        // label in two boxes (a "Label <URI>" pasted into the URI box is read as such too).
        const source = text(formData, name);
        if (field.multiple) {
          values[field.key] = source === undefined ? undefined : parseAuthorityLines(source);
          break;
        }
        const label = text(formData, recordInputName.authorityLabel(field.key))?.trim();
        if (source === undefined) {
          if (label !== undefined)
            fieldErrors[field.key] = [
              `${field.label} has the label “${label.slice(0, 120)}” but no URI: ${authorityHint(field.authorities)}, or empty the label to remove the link`,
            ];
          break;
        }
        const link = parseAuthorityLink(source);
        values[field.key] = label ? { uri: link.uri, label } : link;
        break;
      }
      case "transcript": {
        const source = text(formData, name);
        if (source === undefined) break;
        const parsed = parseTranscriptText(source);
        if (parsed.ok) values[field.key] = parsed.turns;
        else fieldErrors[field.key] = [`${field.label}: ${parsed.error}`];
        break;
      }
      case "segments": {
        const source = text(formData, name);
        if (source === undefined) break;
        const parsed = parseSegmentText(source);
        if (parsed.ok) values[field.key] = parsed.segments;
        else fieldErrors[field.key] = [`${field.label}: ${parsed.error}`];
        break;
      }
    }
  }
  return { values, uploads, fieldErrors };
}
