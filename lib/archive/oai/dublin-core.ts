import { z } from "zod";
import { authorityNamesPlaces, authoritySchemes } from "../authorities";
import { authorityLinksOf } from "../authority-text";
import { readDateValue } from "../date-values";
import type { FieldDefinition, IndexSegment, TranscriptTurn } from "../field-definitions";

/**
 * Unqualified Dublin Core for OAI-PMH (oai_dc): which fields of a section give which of the 15
 * elements. A section's mapping is stored in `sections.dc_mapping` when an admin edited it, and
 * otherwise derived from its field definitions (defaultDcMapping). Besides the mapped fields,
 * every record gets dc:title (its title, when no field gives one), dc:identifier (its URL),
 * dc:type (the section's name) and dc:source (its project's name). Pure.
 */
export const dcElements = [
  "title",
  "creator",
  "subject",
  "description",
  "publisher",
  "contributor",
  "date",
  "type",
  "format",
  "identifier",
  "source",
  "language",
  "relation",
  "coverage",
  "rights",
] as const;
export type DcElement = (typeof dcElements)[number];

export type DcMapping = Partial<Record<DcElement, string[]>>;

/** The mapping as an admin submits it, checked against the section's fields. */
export function dcMappingSchema(fields: FieldDefinition[]) {
  const keys = new Set(fields.map((field) => field.key));
  return z
    .record(z.string(), z.array(z.string().max(64)).max(fields.length))
    .superRefine((mapping, context) => {
      for (const [element, fieldKeys] of Object.entries(mapping)) {
        if (!(dcElements as readonly string[]).includes(element))
          context.addIssue({
            code: "custom",
            path: [element.slice(0, 40)],
            message: `${JSON.stringify(element.slice(0, 40))} is not a Dublin Core element (${dcElements.join(", ")}).`,
          });
        for (const key of fieldKeys)
          if (!keys.has(key))
            context.addIssue({ code: "custom", path: [element.slice(0, 40)], message: `${JSON.stringify(key.slice(0, 64))} is not a field of this section.` });
        if (new Set(fieldKeys).size !== fieldKeys.length)
          context.addIssue({ code: "custom", path: [element.slice(0, 40)], message: "A field is named twice." });
      }
    })
    .transform((mapping): DcMapping => Object.fromEntries(Object.entries(mapping).filter(([, keys]) => keys.length > 0)));
}

/** A stored mapping as far as it still fits the section (fields removed since are dropped), or null. */
export function storedDcMapping(stored: unknown, fields: FieldDefinition[]): DcMapping | null {
  if (stored === null || stored === undefined || typeof stored !== "object" || Array.isArray(stored)) return null;
  const keys = new Set(fields.map((field) => field.key));
  const mapping: DcMapping = {};
  for (const element of dcElements) {
    const value = (stored as Record<string, unknown>)[element];
    if (Array.isArray(value)) mapping[element] = value.filter((key): key is string => typeof key === "string" && keys.has(key));
  }
  return mapping;
}

const people = /(author|creator|artist|maker|narrator|interviewee|photographer|composer|writer)/i;
const helpers = /(interviewer|contributor|editor|translator|transcriber|collector|donor)/i;
const about = /(description|summary|abstract|synopsis|biography|notes?$)/i;
const where = /(place|findspot|location|coverage|coordinates|mint)/i;

/**
 * Where an authority field's links go: the definition's `dublinCore`, else coverage when every
 * scheme it accepts names places (Getty TGN, GeoNames), else subject.
 */
export function authorityDcElement(field: Extract<FieldDefinition, { type: "authority" }>): "subject" | "coverage" {
  return field.dublinCore ?? ((field.authorities ?? authoritySchemes).every(authorityNamesPlaces) ? "coverage" : "subject");
}

/** The default: each field to the element its type (and name) suggests; transcripts stay out. */
export function defaultDcMapping(fields: FieldDefinition[]): DcMapping {
  const mapping: DcMapping = {};
  const add = (element: DcElement, key: string) => (mapping[element] ??= []).push(key);
  for (const field of fields) {
    const name = `${field.key} ${field.label}`;
    switch (field.type) {
      case "text":
        if (field.key === "title" || field.key === "name") add("title", field.key);
        else if (/language/i.test(name)) add("language", field.key);
        else if (/(rights|licen[cs]e|copyright|credit)/i.test(name)) add("rights", field.key);
        else if (people.test(name)) add("creator", field.key);
        else if (where.test(name)) add("coverage", field.key);
        else if (/(subject|keyword|topic)/i.test(name)) add("subject", field.key);
        else if (about.test(name)) add("description", field.key);
        break;
      case "longtext":
        add("description", field.key);
        break;
      case "date":
      case "daterange":
        add("date", field.key);
        break;
      case "category":
        if (/language/i.test(name)) add("language", field.key);
        else add("subject", field.key);
        break;
      case "relation":
        if (people.test(name)) add("creator", field.key);
        else if (helpers.test(name)) add("contributor", field.key);
        else if (where.test(name) || /place/i.test(field.targetSection)) add("coverage", field.key);
        else add("relation", field.key);
        break;
      case "image":
      case "media":
      case "scan":
        add("format", field.key);
        break;
      case "segments":
        add("subject", field.key);
        break;
      case "authority":
        add(authorityDcElement(field), field.key);
        break;
      case "transcript":
        break;
    }
  }
  return mapping;
}

/** What a record offers the mapping: its values, readable relation titles, its media's types. */
export interface DcSource {
  title: string;
  url: string;
  sectionName: string;
  projectName: string;
  fields: FieldDefinition[];
  values: Record<string, unknown>;
  /** Titles of the relation targets the reader may read, by record id; others are absent. */
  relationTitles: ReadonlyMap<string, string>;
  /** MIME types of the record's media, by media id. */
  mediaTypes: ReadonlyMap<string, string>;
}

/** A field's value as Dublin Core text values (none when empty). */
function textsOf(field: FieldDefinition, value: unknown, source: DcSource): string[] {
  if (value === undefined || value === null || value === "") return [];
  switch (field.type) {
    case "text":
    case "longtext":
    case "category":
      return typeof value === "string" && value.trim() ? [value.trim()] : [];
    case "date":
    case "daterange": {
      // As EDTF ("1850~", "1850/1860", "17XX"), which harvesters of dc:date read as ISO 8601-2.
      const date = readDateValue(value);
      return date ? [date.edtf] : [];
    }
    case "relation":
      return (Array.isArray(value) ? value : [value]).flatMap((id) =>
        typeof id === "string" && source.relationTitles.has(id) ? [source.relationTitles.get(id)!] : [],
      );
    case "image":
    case "media":
    case "scan":
      return typeof value === "string" && source.mediaTypes.has(value) ? [source.mediaTypes.get(value)!] : [];
    case "transcript":
      return Array.isArray(value) ? [(value as TranscriptTurn[]).map((turn) => `${turn.speaker}: ${turn.text}`).join("\n")].filter(Boolean) : [];
    case "segments":
      return Array.isArray(value) ? (value as IndexSegment[]).map((segment) => segment.title).filter(Boolean) : [];
    case "authority":
      // oai_dc's elements are plain literals (xml:lang is their only attribute), so a label cannot
      // be tied to its URI inside one element. Each link gives two: the cataloguer's label, for
      // harvesters that show text, then the URI alone, which harvesters that resolve entities
      // (Europeana reads a URI in dc:subject or dc:coverage as a linked contextual entity) take
      // as the link. A link without a label gives the URI only: "Wikidata Q1492" says nothing.
      return authorityLinksOf(value).flatMap((link) => [...(link.label?.trim() ? [link.label.trim()] : []), link.uri]);
  }
}

/** The record's Dublin Core: [element, text] pairs in the schema's element order, no duplicates. */
export function dublinCoreOf(source: DcSource, mapping: DcMapping): [DcElement, string][] {
  const byKey = new Map(source.fields.map((field) => [field.key, field]));
  const out: [DcElement, string][] = [];
  for (const element of dcElements) {
    const texts: string[] = [];
    for (const key of mapping[element] ?? []) {
      const field = byKey.get(key);
      if (field) texts.push(...textsOf(field, source.values[key], source));
    }
    if (element === "title" && texts.length === 0) texts.push(source.title);
    if (element === "identifier") texts.push(source.url);
    if (element === "type") texts.push(source.sectionName);
    if (element === "source") texts.push(source.projectName);
    for (const text of new Set(texts)) out.push([element, text]);
  }
  return out;
}
