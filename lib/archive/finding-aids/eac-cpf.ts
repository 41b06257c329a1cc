import { authorityNamesPlaces } from "../authorities";
import { type Attributes, element, textElement } from "../oai/oai-xml";
import type { ArchivalDate } from "./dates";
import { type DescribedRecord, dateAt, oneLine, paragraphsOf, recordAuthorities } from "./describe-record";

/**
 * A person as an EAC-CPF authority record (Encoded Archival Context – Corporate Bodies, Persons
 * and Families 2.0; namespace https://archivists.org/ns/eac/v2):
 * - identity: entityType person, the name, and each authority link (Wikidata, VIAF, ULAN…) as an
 *   `<identityId>` with `@valueURI`;
 * - description: the occupation, places (linked place records the reader may read, and place
 *   authorities such as Getty TGN or GeoNames, with `@valueURI`), the dates of existence from
 *   born and died (EDTF as ISO 8601 `@standardDate`, a qualifier as `@certainty`, an interval as
 *   `@notBefore`/`@notAfter`), and the biography as `<biogHist>`;
 * - relations: the records that link to the person (an interview they narrate, a publication
 *   they wrote), each with its page as `@valueURI` and the field as the relation's type.
 * Pure: it is given only what the reader may read (the relations already limited to readable
 * records), and names nothing else. Values are escaped; characters XML 1.0 cannot hold are dropped.
 */
export const eacNamespace = "https://archivists.org/ns/eac/v2";

/** A record that links to the person: "Narrator" of an interview. */
export interface PersonRelation {
  title: string;
  url: string;
  /** The linking field's label. */
  role: string;
}

export interface PersonInput {
  person: DescribedRecord & { pageUrl: string };
  relations: PersonRelation[];
  generatedAt: Date;
  agency: string;
}

const bornKeys = ["born", "birth", "birthDate", "dateOfBirth"];
const diedKeys = ["died", "death", "deathDate", "dateOfDeath"];
const biographyKeys = ["biography", "biogHist", "biographicalNote", "description", "notes"];
const occupationKeys = ["occupation", "occupations", "profession"];

/** `<fromDate>` or `<toDate>`: as written, a single date as `@standardDate`, an interval as its bounds. */
function lifeDate(name: "fromDate" | "toDate", date: ArchivalDate): string {
  const single = date.normal !== undefined && !date.normal.includes("/");
  const attributes: Attributes = single
    ? { standardDate: date.normal, certainty: date.certainty }
    : { notBefore: date.from, notAfter: date.to, certainty: date.certainty };
  return textElement(name, oneLine(date.text), attributes);
}

function existDates(born: ArchivalDate | null, died: ArchivalDate | null): string {
  if (!born && !died) return "";
  const range = [born ? lifeDate("fromDate", born) : "", died ? lifeDate("toDate", died) : ""];
  return element("existDates", element("dateRange", range));
}

function fieldText(record: DescribedRecord, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const field = record.section.fields.find((item) => item.key === key && (item.type === "text" || item.type === "longtext" || item.type === "category"));
    const value = field ? record.values[field.key] : undefined;
    if (typeof value === "string" && value.trim()) return value;
  }
  return undefined;
}

/** Readable records the person's place fields link to (a field to the places section, or named so). */
function linkedPlaces(record: DescribedRecord): { name: string; uri?: string }[] {
  const out: { name: string; uri?: string }[] = [];
  for (const field of record.section.fields) {
    if (field.type !== "relation" || !(field.targetSection === "places" || /place/i.test(field.key))) continue;
    const value = record.values[field.key];
    for (const id of Array.isArray(value) ? value : [value]) {
      const target = typeof id === "string" ? record.relations[id] : undefined;
      if (target && oneLine(target.title)) out.push({ name: oneLine(target.title), ...(target.authorityUri ? { uri: target.authorityUri } : {}) });
    }
  }
  return out;
}

/** The authority record as an XML document. */
export function eacCpfDocument(input: PersonInput): string {
  const { person } = input;
  const timestamp = input.generatedAt.toISOString().replace(/\.\d{3}Z$/, "Z");
  const authorities = recordAuthorities(person);
  const placeAuthorities = authorities.filter((link) => authorityNamesPlaces(link.scheme));
  const identifiers = authorities.filter((link) => !authorityNamesPlaces(link.scheme));

  const control = element(
    "control",
    [
      textElement("recordId", person.id),
      element("maintenanceAgency", textElement("agencyName", oneLine(input.agency))),
      element(
        "maintenanceHistory",
        element(
          "maintenanceEvent",
          [
            textElement("agent", "Mnemo", { agentType: "machine" }),
            textElement("eventDateTime", timestamp, { standardDateTime: timestamp }),
            textElement("eventDescription", "Exported from Mnemo: the person's record and the records linking to it that the requester may read."),
          ],
          { maintenanceEventType: "derived" },
        ),
      ),
      textElement("representation", "The person's page in Mnemo", { href: person.pageUrl, localType: "html" }),
    ],
    { maintenanceStatus: "derived", languageEncoding: "iso639-2b", dateEncoding: "iso8601" },
  );

  const identity = element("identity", [
    element("entityType", "", { value: "person" }),
    element("nameEntry", textElement("part", oneLine(person.title)), { status: "authorized" }),
    ...identifiers.map((link) => textElement("identityId", link.uri, { valueURI: link.uri, vocabularySource: link.scheme })),
  ]);

  const occupation = fieldText(person, occupationKeys);
  const places = [
    ...linkedPlaces(person).map((place) => element("place", textElement("placeName", place.name, { valueURI: place.uri }))),
    ...placeAuthorities.map((link) => element("place", textElement("placeName", link.label, { valueURI: link.uri, vocabularySource: link.scheme }))),
  ];
  const biography = paragraphsOf(fieldText(person, biographyKeys) ?? "");
  const descriptionParts = [
    occupation ? element("occupations", element("occupation", textElement("term", oneLine(occupation)))) : "",
    places.length ? element("places", places) : "",
    existDates(dateAt(person, bornKeys), dateAt(person, diedKeys)),
    biography.length
      ? element(
          "biogHist",
          biography.map((text) => textElement("p", text)),
        )
      : "",
  ];
  const description = descriptionParts.some(Boolean) ? element("description", descriptionParts) : "";

  const relations = input.relations.length
    ? element(
        "relations",
        input.relations.map((relation) =>
          element("relation", [
            element("targetEntity", textElement("part", oneLine(relation.title)), { targetType: "resource", valueURI: relation.url }),
            textElement("relationType", relation.role),
          ]),
        ),
      )
    : "";

  return `<?xml version="1.0" encoding="UTF-8"?>\n${element("eac", [control, element("cpfDescription", [identity, description, relations])], { xmlns: eacNamespace })}\n`;
}
