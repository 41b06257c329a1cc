import { type AuthorityScheme, authorityLabel, recogniseAuthorityUri } from "../authorities";
import { edtfYear } from "../edtf";
import type { FieldDefinition } from "../field-definitions";
import { iiifUrls } from "../iiif/presentation";
import { authorityDcElement } from "../oai/dublin-core";
import {
  type LinkedDataRecord,
  authorityFields,
  dateOf,
  descriptionKeys,
  fieldNames,
  identifierKeys,
  isoDateOf,
  nameOf,
  relationTargets,
  textOf,
  workDate,
} from "./record-values";

/**
 * A record as schema.org JSON-LD for its page, what search engines and link checkers read:
 * - a person (a section of names with birth or death dates or named for people) a `Person`, a
 *   place (names with coordinates, or a section named for places) a `Place`: links of an
 *   authority that names such an entity, in a field of one link named for it ("Wikidata"), are
 *   `sameAs`; the catalogue entry they come from is `subjectOf`, part of the project;
 * - anything else (interviews, publications, documents) a `CreativeWork` and `ArchiveComponent`,
 *   an object (a section with an object context) an `ArchiveComponent`, `isPartOf` the project as
 *   a `Collection`: subject links are `about`, coverage links (places, per the field's Dublin Core
 *   role) `spatialCoverage`, an object's material links `material`; the date as `dateCreated`
 *   when it is an ISO 8601 date, else the years it covers as `temporalCoverage`; readable linked
 *   records as `author`, `contributor`, `spatialCoverage` or `mentions`, by the field's name.
 * Pure: relation values already name only readable records (getRecord).
 */
export type SchemaOrgKind = "person" | "place" | "work" | "object";

const personIdentity: readonly AuthorityScheme[] = ["wikidata", "viaf", "ulan"];
const placeIdentity: readonly AuthorityScheme[] = ["wikidata", "tgn", "geonames"];

type Node = Record<string, unknown>;

/** What the record describes, from its section's shape (`object`: the section has an object context). */
export function schemaOrgKind(record: LinkedDataRecord, object: boolean): SchemaOrgKind {
  if (object) return "object";
  const { fields, slug, name } = record.section;
  const titleKey = fields.find((field) => field.type === "text")?.key;
  const keys = new Set(fields.map((field) => field.key));
  if (titleKey === "name") {
    if (
      ["born", "died", "birth", "death", "birthDate", "deathDate", "occupation"].some((key) => keys.has(key)) ||
      /\b(people|persons?|agents?)\b/i.test(`${slug} ${name}`)
    )
      return "person";
    if (["coordinates", "latitude", "longitude"].some((key) => keys.has(key)) || /\b(places?|locations?|sites?|gazetteer)\b/i.test(`${slug} ${name}`))
      return "place";
  }
  return "work";
}

function linkNode(uri: string, name: string, type?: string): Node {
  return { ...(type ? { "@type": type } : {}), "@id": uri, name };
}

function push(node: Node, property: string, ...values: unknown[]) {
  if (values.length === 0) return;
  const list = (node[property] ??= []) as unknown[];
  for (const value of values) if (!list.some((item) => JSON.stringify(item) === JSON.stringify(value))) list.push(value);
}

/** A field of one link named for the entity's own authority record ("Wikidata", "ULAN id"). */
function identityField(field: Extract<FieldDefinition, { type: "authority" }>, schemes: readonly AuthorityScheme[]): boolean {
  return !field.multiple && fieldNames.identity.test(nameOf(field)) && (field.authorities ?? schemes).every((scheme) => schemes.includes(scheme));
}

export function schemaOrgRecord(record: LinkedDataRecord, options: { origin: string; object: boolean }): Node {
  const urls = iiifUrls(options.origin);
  const pageUrl = urls.recordPage(record.id);
  const kind = schemaOrgKind(record, options.object);
  const collection: Node = { "@type": "Collection", name: record.project.name };
  const description = textOf(record, descriptionKeys);
  const node: Node = {
    "@context": "https://schema.org",
    "@type": kind === "person" ? "Person" : kind === "place" ? "Place" : kind === "object" ? "ArchiveComponent" : ["CreativeWork", "ArchiveComponent"],
    "@id": pageUrl,
    url: pageUrl,
    name: record.title,
    ...(description ? { description } : {}),
  };

  if (kind === "person" || kind === "place") {
    const schemes = kind === "person" ? personIdentity : placeIdentity;
    for (const { field, links } of authorityFields(record)) {
      if (!identityField(field, schemes)) continue;
      const own = links.filter((link) => {
        const scheme = recogniseAuthorityUri(link.uri)?.scheme;
        return scheme !== undefined && schemes.includes(scheme);
      });
      push(node, "sameAs", ...own.map((link) => link.uri));
    }
    if (kind === "person") {
      const born = dateOf(record, ["born", "birth", "birthDate"]);
      const died = dateOf(record, ["died", "death", "deathDate"]);
      const bornIso = born && isoDateOf(born);
      const diedIso = died && isoDateOf(died);
      if (bornIso) node.birthDate = bornIso;
      if (diedIso) node.deathDate = diedIso;
    }
    node.subjectOf = { "@type": ["CreativeWork", "ArchiveComponent"], url: pageUrl, name: record.title, isPartOf: collection };
    return node;
  }

  const identifier = textOf(record, identifierKeys, 200);
  if (identifier) node.identifier = identifier;
  const language = record.values.language;
  if (typeof language === "string" && /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language)) node.inLanguage = language;
  const date = workDate(record);
  if (date) {
    const iso = isoDateOf(date);
    if (iso) node.dateCreated = iso;
    else if (date.years)
      node.temporalCoverage = date.years.from === date.years.to ? edtfYear(date.years.from) : `${edtfYear(date.years.from)}/${edtfYear(date.years.to)}`;
  }

  for (const { field, links } of authorityFields(record)) {
    if (kind === "object" && fieldNames.material.test(nameOf(field))) push(node, "material", ...links.map((link) => link.uri));
    else if (authorityDcElement(field) === "coverage") push(node, "spatialCoverage", ...links.map((link) => linkNode(link.uri, authorityLabel(link), "Place")));
    else push(node, "about", ...links.map((link) => linkNode(link.uri, authorityLabel(link))));
  }

  for (const field of record.section.fields) {
    const targets = relationTargets(record, field);
    if (targets.length === 0) continue;
    const name = `${nameOf(field)} ${field.type === "relation" ? field.targetSection : ""}`;
    const nodes = (type: string) => targets.map((target) => linkNode(urls.recordPage(target.id), target.title, type));
    if (fieldNames.contributor.test(name)) push(node, "contributor", ...nodes("Person"));
    else if (fieldNames.agent.test(name) || /people|person/i.test(name)) push(node, kind === "object" ? "creator" : "author", ...nodes("Person"));
    else if (fieldNames.place.test(name)) push(node, "spatialCoverage", ...nodes("Place"));
    else push(node, "mentions", ...nodes("Thing"));
  }
  node.isPartOf = collection;
  return node;
}
