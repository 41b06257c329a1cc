import { xmlSchemaProblems, xmlSchemas } from "./xml-schema";

/**
 * OAI-PMH responses in tests: schema validation against the protocol's own XSDs
 * (tests/fixtures/oai-pmh, offline) with libxml2's xmllint, and the few readings the tests make
 * of a response (written by lib/archive/oai, so its shape is known).
 */

/** xmllint's complaints about the document (OAI-PMH.xsd, with oai_dc checked strictly inside <metadata>); none when it is valid. */
export function schemaProblems(xml: string): Promise<string[]> {
  return xmlSchemaProblems(xml, xmlSchemas.oaiPmh);
}

export interface HarvestedHeader {
  identifier: string;
  datestamp: string;
  deleted: boolean;
  setSpecs: string[];
}

export function headersOf(xml: string): HarvestedHeader[] {
  return [...xml.matchAll(/<header( status="deleted")?>(.*?)<\/header>/g)].map((match) => ({
    deleted: Boolean(match[1]),
    identifier: /<identifier>(.*?)<\/identifier>/.exec(match[2]!)![1]!,
    datestamp: /<datestamp>(.*?)<\/datestamp>/.exec(match[2]!)![1]!,
    setSpecs: [...match[2]!.matchAll(/<setSpec>(.*?)<\/setSpec>/g)].map((spec) => spec[1]!),
  }));
}

/** The protocol error's code and message, or null. */
export function oaiErrorOf(xml: string): { code: string; message: string } | null {
  const match = /<error code="([A-Za-z]+)">(.*?)<\/error>/s.exec(xml);
  return match ? { code: match[1]!, message: match[2]! } : null;
}

/** The resumption token's value and attributes, or null when the response has none. */
export function resumptionOf(xml: string): { token: string; cursor: number; completeListSize: number } | null {
  const match = /<resumptionToken([^>]*?)(?:\/>|>(.*?)<\/resumptionToken>)/.exec(xml);
  if (!match) return null;
  const attribute = (name: string) => Number(new RegExp(`${name}="(\\d+)"`).exec(match[1]!)?.[1] ?? Number.NaN);
  return { token: match[2] ?? "", cursor: attribute("cursor"), completeListSize: attribute("completeListSize") };
}

/** The Dublin Core values of each element in one record's metadata. */
export function dublinCoreOf(xml: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const match of xml.matchAll(/<dc:([a-z]+)>(.*?)<\/dc:\1>/gs)) (out[match[1]!] ??= []).push(match[2]!);
  return out;
}
