import { authorityNamesPlaces } from "../authorities";
import { type Attributes, element, textElement } from "../oai/oai-xml";
import { type ArchivalDate, coveringYears } from "./dates";
import {
  type DescribedRecord,
  type RecordAuthority,
  oneLine,
  paragraphsOf,
  recordAuthorities,
  recordCreators,
  recordDate,
  recordLanguages,
  recordPhysicalDescription,
  recordScope,
} from "./describe-record";
import type { ArchivalLanguage } from "../languages";

/**
 * A project as an EAD3 finding aid (Encoded Archival Description 3, release 1.1.1; namespace
 * http://ead3.archivists.org/schema/): the project is the collection (`<archdesc
 * level="collection">`), each section a series and each record an item below it (`<dsc>`).
 * - The collection: the project's name and slug, the years its records cover
 *   (`<unitdatestructured>`), how many records (`<physdescstructured>`), their languages, the
 *   project's description as the abstract, whether it is open or restricted (`<accessrestrict>`),
 *   and the authority links its records hold (`<controlaccess>`, each with `@identifier` = URI).
 * - A record: its title and id, its date as written with `@normal` in ISO 8601 (EDTF "1850~" →
 *   normal "1850", certainty "approximate"; see dates.ts), its languages, medium, dimensions and
 *   recording length, its summary, abstract or description (`<scopecontent>`), the people who made
 *   it that the reader may read (`<origination>`), its authority links, and its IIIF manifest as a
 *   digital object (`<dao>`).
 * Pure: given the records as the reader may see them (relation targets limited to readable
 * records), it names nothing else. Every value is escaped; characters XML 1.0 cannot hold
 * (control characters, lone surrogates) are dropped.
 */
export const ead3Namespace = "http://ead3.archivists.org/schema/";

export interface FindingAidRecord extends DescribedRecord {
  /** The years the record's dates cover (the record's date filter). */
  years: { from: number | null; to: number | null };
  /** The record's IIIF Presentation manifest, when it has something to show. */
  manifestUrl?: string;
  /** The record's page. */
  pageUrl: string;
}

export interface FindingAidSeries {
  slug: string;
  name: string;
  description: string;
  records: FindingAidRecord[];
}

export interface FindingAidInput {
  project: { slug: string; name: string; description: string; restricted: boolean; isPublic: boolean };
  series: FindingAidSeries[];
  /** This document's own address. */
  url: string;
  generatedAt: Date;
  /** Who keeps the description: the archive's name or host. */
  agency: string;
}

/** `<unitdate>` for one date: as written, with its ISO 8601 normal and certainty. */
function unitdate(date: ArchivalDate & { label?: string }): string {
  const attributes: Attributes = {
    normal: date.normal,
    certainty: date.certainty,
    label: date.label,
    unitdatetype: date.normal?.includes("/") ? "inclusive" : undefined,
  };
  return textElement("unitdate", oneLine(date.text), attributes);
}

function languageElement(language: ArchivalLanguage): string {
  return textElement("language", language.name, { langcode: language.code });
}

function langmaterial(languages: readonly ArchivalLanguage[]): string {
  return languages.length ? element("langmaterial", languages.map(languageElement)) : "";
}

function paragraphs(texts: readonly string[]): string[] {
  return texts.map((text) => textElement("p", text));
}

/** The element an authority's link is access to: a place for gazetteers (TGN, GeoNames), a name for name authorities, else a subject. */
function accessElement(link: RecordAuthority): string {
  const name = authorityNamesPlaces(link.scheme) ? "geogname" : link.scheme === "ulan" || link.scheme === "viaf" ? "name" : "subject";
  return element(name, textElement("part", link.label), { identifier: link.uri, source: link.scheme });
}

function controlaccess(links: readonly RecordAuthority[]): string {
  return links.length ? element("controlaccess", links.map(accessElement)) : "";
}

/** The kind of digital object a record's manifest shows: surrogates of images and scans, else not known (a recording may be born digital). */
function daoType(record: FindingAidRecord): "derived" | "unknown" {
  return record.section.fields.some((field) => field.type === "image" || field.type === "scan") ? "derived" : "unknown";
}

function component(record: FindingAidRecord): string {
  const date = recordDate(record);
  const creators = recordCreators(record);
  const physical = recordPhysicalDescription(record);
  const scope = recordScope(record);
  const did = [
    textElement("unitid", record.id, { identifier: record.pageUrl }),
    textElement("unittitle", oneLine(record.title)),
    date ? unitdate(date) : "",
    langmaterial(recordLanguages(record)),
    ...physical.map((text) => textElement("physdesc", text)),
    creators.length
      ? element(
          "origination",
          creators.map((creator) =>
            element("persname", textElement("part", creator.name), { relator: creator.role.toLowerCase(), identifier: creator.identifier }),
          ),
        )
      : "",
    record.manifestUrl
      ? element("dao", "", { daotype: daoType(record), href: record.manifestUrl, linktitle: "IIIF manifest", localtype: "iiif-manifest" })
      : "",
  ];
  return element("c", [element("did", did), scope.length ? element("scopecontent", paragraphs(scope)) : "", controlaccess(recordAuthorities(record))], {
    level: "item",
  });
}

function series(part: FindingAidSeries): string {
  const did = [textElement("unitid", part.slug), textElement("unittitle", oneLine(part.name)), physdescstructured(part.records.length)];
  const scope = paragraphsOf(part.description);
  return element("c", [element("did", did), scope.length ? element("scopecontent", paragraphs(scope)) : "", ...part.records.map(component)], {
    level: "series",
  });
}

function physdescstructured(records: number): string {
  return element("physdescstructured", [textElement("quantity", String(records)), textElement("unittype", records === 1 ? "record" : "records")], {
    physdescstructuredtype: "materialtype",
    coverage: "whole",
  });
}

function accessNote(project: FindingAidInput["project"]): string {
  if (project.isPublic) return "Open: the project is public, and anyone may read its records without signing in.";
  if (project.restricted) return "Restricted: only the project's members may read its records.";
  return "Only the project's members may read its records.";
}

/** The finding aid as an XML document. */
export function ead3Document(input: FindingAidInput): string {
  const { project } = input;
  const records = input.series.flatMap((part) => part.records);
  const years = coveringYears(records.map((record) => record.years));
  const languages = new Map<string, ArchivalLanguage>();
  for (const language of records.flatMap(recordLanguages)) languages.set(language.code ?? language.name, language);
  const authorities = new Map<string, RecordAuthority>();
  for (const link of records.flatMap(recordAuthorities)) if (!authorities.has(link.uri)) authorities.set(link.uri, link);
  const timestamp = input.generatedAt.toISOString().replace(/\.\d{3}Z$/, "Z");

  const control = element(
    "control",
    [
      textElement("recordid", project.slug, { instanceurl: input.url }),
      element("filedesc", element("titlestmt", textElement("titleproper", oneLine(project.name)))),
      element("maintenancestatus", "", { value: "derived" }),
      element("maintenanceagency", textElement("agencyname", oneLine(input.agency))),
      element(
        "maintenancehistory",
        element("maintenanceevent", [
          element("eventtype", "", { value: "derived" }),
          textElement("eventdatetime", timestamp, { standarddatetime: timestamp }),
          element("agenttype", "", { value: "machine" }),
          textElement("agent", "Mnemo"),
          textElement("eventdescription", "Exported from Mnemo: the project's records that the requester may read."),
        ]),
      ),
    ],
    { langencoding: "iso639-2b", dateencoding: "iso8601" },
  );

  const collectionDid = [
    textElement("unitid", project.slug),
    textElement("unittitle", oneLine(project.name)),
    years
      ? element(
          "unitdatestructured",
          years.from === years.to
            ? textElement("datesingle", years.from, { standarddate: years.from })
            : element("daterange", [
                textElement("fromdate", years.from, { standarddate: years.from }),
                textElement("todate", years.to, { standarddate: years.to }),
              ]),
          { unitdatetype: "inclusive" },
        )
      : "",
    langmaterial([...languages.values()]),
    physdescstructured(records.length),
    project.description.trim() ? textElement("abstract", oneLine(project.description)) : "",
  ];

  const archdesc = element(
    "archdesc",
    [
      element("did", collectionDid),
      element("accessrestrict", textElement("p", accessNote(project))),
      controlaccess([...authorities.values()]),
      input.series.length ? element("dsc", input.series.map(series)) : "",
    ],
    { level: "collection" },
  );

  return `<?xml version="1.0" encoding="UTF-8"?>\n${element("ead", [control, archdesc], { xmlns: ead3Namespace })}\n`;
}
