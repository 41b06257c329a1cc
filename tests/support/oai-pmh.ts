import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * OAI-PMH responses in tests: schema validation against the protocol's own XSDs
 * (tests/fixtures/oai-pmh, offline) with libxml2's xmllint, and the few readings the tests make
 * of a response (written by lib/archive/oai, so its shape is known).
 */
const harvestSchema = fileURLToPath(new URL("../fixtures/oai-pmh/harvest.xsd", import.meta.url));

/** xmllint's complaints about the document (OAI-PMH.xsd, with oai_dc checked strictly inside <metadata>); none when it is valid. */
export function schemaProblems(xml: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile("xmllint", ["--noout", "--nonet", "--schema", harvestSchema, "-"], { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === "ENOENT") {
        reject(new Error("xmllint is not installed: apt-get install -y libxml2-utils (.ci/run installs it)"));
        return;
      }
      const lines = stderr.split("\n").filter((line) => line.trim() && !/ validates$/.test(line));
      resolve(error ? (lines.length ? lines : [String(error)]) : lines.filter((line) => /error/i.test(line)));
    });
    child.stdin?.end(xml);
  });
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
