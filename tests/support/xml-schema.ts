import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * XML schema validation in tests, offline: libxml2's `xmllint --nonet --schema` against the
 * official schemas kept in tests/fixtures (their READMEs name source, version and licence).
 */
export const xmlSchemas = {
  /** OAI-PMH 2.0, with oai_dc checked strictly inside <metadata> (tests/fixtures/oai-pmh). */
  oaiPmh: fileURLToPath(new URL("../fixtures/oai-pmh/harvest.xsd", import.meta.url)),
  /** EAD3 1.1.1 (tests/fixtures/ead3). */
  ead3: fileURLToPath(new URL("../fixtures/ead3/ead3.xsd", import.meta.url)),
  /** EAC-CPF 2.0 (tests/fixtures/eac-cpf). */
  eacCpf: fileURLToPath(new URL("../fixtures/eac-cpf/eac.xsd", import.meta.url)),
} as const;

/** xmllint's complaints about the document against the schema; none when it is valid. */
export function xmlSchemaProblems(xml: string, schema: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile("xmllint", ["--noout", "--nonet", "--schema", schema, "-"], { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
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
