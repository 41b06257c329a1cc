import { type AuthorityLink, authorityLabel, authorityNamesPlaces, recogniseAuthorityUri } from "../authorities";
import type { FieldDefinition } from "../field-definitions";
import { iiifUrls, presentationContentType } from "../iiif/presentation";
import { authorityDcElement } from "../oai/dublin-core";
import {
  type LinkedDataRecord,
  authorityFields,
  descriptionKeys,
  fieldNames,
  firstImage,
  identifierKeys,
  nameOf,
  relationTargets,
  textOf,
  workDate,
} from "./record-values";

/**
 * An object (a record of a section with an object context) as Linked Art JSON-LD
 * (https://linked.art/model/object/), what museum aggregators read: a `HumanMadeObject` whose
 * - `identified_by` are its title (primary name) and accession number;
 * - `classified_as` are its authority links of type, denomination or period (Getty AAT, Nomisma,
 *   OCRE/CRRO coin types, Wikidata), `made_of` its material links;
 * - `produced_by` is a Production with the date's `timespan` (the EDTF's first and last day, the
 *   date as written as its name), mint or place links and linked readable places as
 *   `took_place_at`, maker links and linked readable people as `carried_out_by`;
 * - `referred_to_by` are its description, medium and dimensions as statements;
 * - `representation` is its first image, `subject_of` its record page and, when it has one, its
 *   IIIF Manifest.
 * Pure: the record is the one the reader may see (getRecord), so a linked record the reader may
 * not read is not in its values and is never named.
 */
export const linkedArtContext = "https://linked.art/ns/v1/linked-art.json";
/** The profile of a Linked Art document (IIIF `seeAlso` names it; the Content-Type carries it). */
export const linkedArtProfile = linkedArtContext;
export const linkedArtContentType = `application/ld+json;profile="${linkedArtProfile}"`;

/**
 * Whether a section's stored object context makes its records objects (Linked Art is served for
 * them). lib/rag/config/object-context.ts reads the context's roles; only a checked context is
 * ever stored, so here it is enough that there is one.
 */
export function hasObjectContext(stored: unknown): boolean {
  return typeof stored === "object" && stored !== null && !Array.isArray(stored);
}

/** Where a record's Linked Art is served (app/api/records/[id]/linked-art). */
export function linkedArtUrl(origin: string, recordId: string): string {
  return `${origin.replace(/\/+$/, "")}/api/records/${encodeURIComponent(recordId)}/linked-art`;
}

type Node = Record<string, unknown>;

const aat = (id: string, label: string): Node => ({ id: `http://vocab.getty.edu/aat/${id}`, type: "Type", _label: label });
const primaryName = aat("300404670", "Primary Name");
const accessionNumber = aat("300312355", "Accession Number");
const webPage = aat("300264578", "Web Page");
const digitalImage = aat("300215302", "Digital Image");
const briefText = aat("300418049", "Brief Text");
const statements: [keys: string[], type: Node][] = [
  [descriptionKeys, aat("300435416", "Description")],
  [["medium"], aat("300435429", "Material Statement")],
  [["dimensions"], aat("300435430", "Dimensions Statement")],
];
/** The meta-types Linked Art gives a classification: a type of work, or a style or period. */
const typeOfWork = aat("300435443", "Type of Work");
const styleOrPeriod = aat("300015646", "Styles and Periods");

type LinkRole = "material" | "place" | "agent" | "period" | "type";

/** What an authority field's links say of the object, from the field's name and its Dublin Core role. */
function linkRole(field: Extract<FieldDefinition, { type: "authority" }>, link: AuthorityLink): LinkRole {
  const name = nameOf(field);
  const scheme = recogniseAuthorityUri(link.uri)?.scheme;
  if (fieldNames.material.test(name)) return "material";
  if (fieldNames.place.test(name) || authorityDcElement(field) === "coverage" || (scheme !== undefined && authorityNamesPlaces(scheme))) return "place";
  if (fieldNames.agent.test(name) || scheme === "ulan" || scheme === "viaf") return "agent";
  if (fieldNames.period.test(name)) return "period";
  return "type";
}

function push(node: Node, property: string, ...values: Node[]) {
  if (values.length === 0) return;
  const list = (node[property] ??= []) as Node[];
  for (const value of values) if (!list.some((item) => item.id !== undefined && item.id === value.id)) list.push(value);
}

/** A date as xsd:dateTime at the start or end of its day ("1850-01-01" → "1850-01-01T00:00:00Z"). */
function dateTime(day: string | null, end: boolean): string | undefined {
  if (!day || !/^-?\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  return `${day}T${end ? "23:59:59" : "00:00:00"}Z`;
}

export function linkedArtObject(record: LinkedDataRecord, options: { origin: string; dateKey?: string; manifest: boolean }): Node {
  const urls = iiifUrls(options.origin);
  const id = linkedArtUrl(options.origin, record.id);
  const identifiedBy: Node[] = [{ type: "Name", content: record.title, classified_as: [primaryName] }];
  const identifier = textOf(record, identifierKeys, 200);
  if (identifier) identifiedBy.push({ type: "Identifier", content: identifier, classified_as: [accessionNumber] });
  const object: Node = { "@context": linkedArtContext, id, type: "HumanMadeObject", _label: record.title, identified_by: identifiedBy };

  const production: Node = { id: `${id}#production`, type: "Production" };
  for (const { field, links } of authorityFields(record)) {
    for (const link of links) {
      const reference = { id: link.uri, _label: authorityLabel(link) };
      switch (linkRole(field, link)) {
        case "material":
          push(object, "made_of", { ...reference, type: "Material" });
          break;
        case "place":
          push(production, "took_place_at", { ...reference, type: "Place" });
          break;
        case "agent":
          push(production, "carried_out_by", { ...reference, type: /(workshop|group|company|dynasty|state)/i.test(nameOf(field)) ? "Group" : "Person" });
          break;
        case "period":
          push(object, "classified_as", { ...reference, type: "Type", classified_as: [styleOrPeriod] });
          break;
        case "type":
          push(object, "classified_as", { ...reference, type: "Type", classified_as: [typeOfWork] });
          break;
      }
    }
  }
  // Linked readable records: people made it, places are where.
  for (const field of record.section.fields) {
    const targets = relationTargets(record, field);
    if (targets.length === 0 || field.type !== "relation") continue;
    const name = `${nameOf(field)} ${field.targetSection}`;
    const references = (type: string) => targets.map((target) => ({ id: urls.recordPage(target.id), type, _label: target.title }));
    if (fieldNames.agent.test(name) || /people|person/i.test(name)) push(production, "carried_out_by", ...references("Person"));
    else if (fieldNames.place.test(name)) push(production, "took_place_at", ...references("Place"));
  }

  const date = workDate(record, options.dateKey);
  if (date) {
    const begin = dateTime(date.earliest, false);
    const end = dateTime(date.latest, true);
    production.timespan = {
      type: "TimeSpan",
      identified_by: [{ type: "Name", content: date.shown }],
      ...(begin ? { begin_of_the_begin: begin } : {}),
      ...(end ? { end_of_the_end: end } : {}),
    };
  }

  const referredToBy = statements.flatMap(([keys, type]) => {
    const content = textOf(record, keys);
    return content ? [{ type: "LinguisticObject", content, classified_as: [{ ...type, classified_as: [briefText] }] }] : [];
  });

  const imageId = firstImage(record);
  const subjectOf: Node[] = [
    {
      type: "LinguisticObject",
      _label: "Catalogue record",
      digitally_carried_by: [
        { type: "DigitalObject", classified_as: [webPage], format: "text/html", access_point: [{ id: urls.recordPage(record.id), type: "DigitalObject" }] },
      ],
    },
  ];
  if (options.manifest) {
    subjectOf.push({
      type: "LinguisticObject",
      _label: "IIIF Manifest",
      digitally_carried_by: [
        {
          type: "DigitalObject",
          format: presentationContentType,
          conforms_to: [{ id: "http://iiif.io/api/presentation", type: "InformationObject" }],
          access_point: [{ id: urls.manifest(record.id), type: "DigitalObject" }],
        },
      ],
    });
  }

  if (referredToBy.length) object.referred_to_by = referredToBy;
  if (Object.keys(production).length > 2) object.produced_by = production;
  if (imageId) {
    object.representation = [
      {
        type: "VisualItem",
        digitally_shown_by: [
          {
            type: "DigitalObject",
            classified_as: [digitalImage],
            format: "image/jpeg",
            access_point: [{ id: `${urls.imageService(imageId)}/full/max/0/default.jpg`, type: "DigitalObject" }],
          },
        ],
      },
    ];
  }
  object.subject_of = subjectOf;
  return object;
}
