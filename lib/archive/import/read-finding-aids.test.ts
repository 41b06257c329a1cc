import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { parseImportFile, parseImportFileInSteps } from "./parse-import-file";
import type { ParsedTable } from "./types";

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/import/${name}`, import.meta.url), "utf8");
const encode = (text: string) => new TextEncoder().encode(text);
const parse = (text: string, fileName = "file.xml") => parseImportFile({ fileName, bytes: encode(text) }, 10_000_000);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.code === "bad_request") return error.message;
    throw error;
  }
  throw new Error("expected the file to be refused");
}

/** The table's rows as objects by column, leaving out empty cells. */
function rowsOf(table: ParsedTable): Record<string, string>[] {
  return table.rows.map((row) => {
    const entries: [string, string][] = [];
    table.columns.forEach((column, index) => {
      const cell = row[index];
      if (cell) entries.push([column, cell]);
    });
    return Object.fromEntries(entries);
  });
}

/** The line of the first occurrence of `text` in `file`. */
function lineOf(file: string, text: string): number {
  return file.slice(0, file.indexOf(text)).split("\n").length;
}

const ead = (components: string, prefix = "") =>
  `<?xml version="1.0"?>${prefix}\n<ead xmlns="http://ead3.archivists.org/schema/"><archdesc level="fonds"><did><unittitle>F</unittitle></did><dsc>${components}</dsc></archdesc></ead>\n`;

describe("EAD3 finding aids", () => {
  const file = fixture("guild-finding-aid.ead3.xml");

  it("makes a row of every component describing a unit, with the titles around it as its series", () => {
    const table = parse(file, "guild.xml");
    expect(table.format).toBe("ead3");
    // Columns empty in every row ("use", "persons URI") are left out.
    expect(table.columns).toEqual([
      "identifier",
      "title",
      "date",
      "date normal",
      "level",
      "series",
      "collection",
      "description",
      "abstract",
      "extent",
      "dimensions",
      "language",
      "access",
      "creator",
      "creator URI",
      "subjects",
      "subjects URI",
      "places",
      "places URI",
      "persons",
      "container",
      "digital object",
    ]);
    const collection = "Records of the Fishermen's Guild of Port de la Calma";
    expect(rowsOf(table)).toEqual([
      {
        identifier: "PDLC-CF/1/1",
        title: "Minutes of the general assembly, 1923",
        date: "May 1923",
        "date normal": "1923-05",
        level: "file",
        series: "Minutes > General assemblies",
        collection,
        description: "Election of the board; the vaga of the net-makers.\n\nSigned by the secretary, Montserrat Vidal.",
        extent: "1 volume",
        dimensions: "32 x 22 cm",
        language: "cat",
        access: "Open for research.",
        creator: "Confraria de Pescadors de Port de la Calma",
        subjects: "minutes (administrative records); Strikes",
        "subjects URI": "minutes (administrative records) <http://vocab.getty.edu/aat/300027440>",
        places: "Barcelona",
        "places URI": "Barcelona <http://www.wikidata.org/entity/Q1492>",
        persons: "Vidal i Roca, Montserrat",
        container: "box 3",
        "digital object": "https://archive.example.org/iiif/pdlc-cf-1-1/manifest",
      },
      {
        identifier: "PDLC-CF/1/2",
        title: "Minutes of the general assembly, 1924",
        // No <unitdate>: the structured date as an EDTF interval.
        date: "1924-01/1924-12",
        "date normal": "1924-01/1924-12",
        level: "file",
        series: "Minutes > General assemblies",
        collection,
        extent: "1 volume (48 leaves)",
        language: "cat; spa",
        access: "Closed until 2030: personal data.",
      },
      {
        identifier: "PDLC-CF/2/1",
        title: "Net-makers at the quay",
        date: "c. 1930",
        level: "item",
        series: "Photographs",
        collection,
        extent: "1 photograph, gelatin silver print",
        subjects: "photographs",
        "subjects URI": "photographs <http://vocab.getty.edu/aat/300046300>",
        places: "Port de la Calma",
        "digital object": "https://archive.example.org/images/pdlc-cf-2-1.jpg; https://archive.example.org/images/pdlc-cf-2-1-back.jpg",
      },
      {
        identifier: "PDLC-CF/2/2",
        title: "The guild's boat on launch day",
        date: "1931-06-12",
        "date normal": "1931-06-12",
        level: "item",
        series: "Photographs",
        collection,
        // No <scopecontent>: the abstract describes it.
        description: "The new boat Santa Maria leaves the slipway.",
        abstract: "The new boat Santa Maria leaves the slipway.",
      },
      // The empty series PDLC-CF/3 is a grouping, not a unit: no row.
      {
        identifier: "PDLC-CF/4",
        title: "Accounts, 1950-1975",
        date: "1950-1975",
        "date normal": "1950/1975",
        level: "accounts book",
        collection,
        creator: "Vidal i Roca, Montserrat",
        "creator URI": "Vidal i Roca, Montserrat <http://viaf.org/viaf/96994048>",
      },
    ]);
    expect(table.lines).toEqual([
      lineOf(file, 'id="pdlc-cf-1-1"'),
      lineOf(file, 'id="pdlc-cf-1-2"'),
      lineOf(file, 'id="pdlc-cf-2-1"'),
      lineOf(file, 'id="pdlc-cf-2-2"'),
      lineOf(file, 'id="pdlc-cf-4"'),
    ]);
  });

  it("reads unnumbered <c> components and is sniffed by its root without an extension", () => {
    const table = parse(
      ead('<c level="series"><did><unittitle>S</unittitle></did><c level="file"><did><unittitle>Inner</unittitle><unitid>1</unitid></did></c></c>'),
      "upload",
    );
    expect(table.format).toBe("ead3");
    expect(rowsOf(table)).toEqual([{ identifier: "1", title: "Inner", level: "file", series: "S", collection: "F" }]);
  });

  it("gives the normal date its certainty as EDTF's qualifier", () => {
    const table = parse(ead('<c01 level="file"><did><unittitle>A</unittitle><unitdate normal="1850" certainty="approximate">c. 1850</unitdate></did></c01>'));
    expect(rowsOf(table)[0]).toMatchObject({ date: "c. 1850", "date normal": "1850~" });
  });

  it("refuses a finding aid with no unit to import, and EAD 2002", () => {
    expect(refusal(() => parse(ead('<c01 level="series"><did><unittitle>Empty</unittitle></did></c01>')))).toMatch(
      /^The EAD3 finding aid has no component describing a unit/,
    );
    expect(refusal(() => parse('<ead xmlns="http://ead3.archivists.org/schema/"><control/></ead>'))).toMatch(/has no <archdesc>/);
    expect(refusal(() => parse('<ead xmlns="urn:isbn:1-931666-22-9"><archdesc level="fonds"/></ead>'))).toMatch(
      /^This is an EAD 2002 finding aid .*Mnemo reads EAD3/,
    );
    expect(refusal(() => parse("<html><body/></html>", "page.xml"))).toMatch(
      /^An XML import is an EAD3 finding aid .*this file's root is <html> in no namespace\.$/,
    );
  });
});

describe("EAC-CPF records", () => {
  it("reads a 2010 record of a person: the authorized name, dates, places, occupations and identifiers", () => {
    const table = parse(fixture("person.eac-cpf.xml"), "person.xml");
    expect(table.format).toBe("eac-cpf");
    expect(rowsOf(table)).toEqual([
      {
        identifier: "pdlc-person-vidal-roca",
        // The parallel entry marked authorized, its preferred form; surname first as written.
        name: "Vidal i Roca, Montserrat",
        "other names": "Vidal Roca, Montserrat; Montse de la Xarxa",
        "entity type": "person",
        // As written when it reads as the standard form says; the standard form otherwise.
        born: "14 March 1898",
        died: "1971",
        dates: "14 March 1898 – 1971",
        biography:
          "Montserrat Vidal i Roca mended and made nets in Port de la Calma from the age of twelve.\n\n" +
          "She kept the minutes of the guild for thirty years.\n\n" +
          "1923: Elected secretary of the guild.\n\n" +
          "1936 – 1939: Runs the guild's canteen.",
        places: "Port de la Calma; Barcelona",
        "places URI": "Barcelona <http://www.wikidata.org/entity/Q1492>",
        occupation: "net-maker; secretary of the fishermen's guild",
        "occupation URI": "net-maker <http://vocab.getty.edu/aat/300025437>",
        // entityId and otherRecordId that are URIs; the local number PDLC/P/0042 is not.
        "same as URI": "http://www.wikidata.org/entity/Q4115189; http://viaf.org/viaf/96994048",
      },
    ]);
    expect(table.columns).not.toContain("use");
  });

  it("reads a 2.0 record (<eac>, @status, identityId, placeName, @value)", () => {
    expect(rowsOf(parse(fixture("organisation.eac2.xml"), "guild.xml"))).toEqual([
      {
        identifier: "pdlc-confraria",
        name: "Confraria de Pescadors de Port de la Calma",
        "other names": "Confraria de Pescadors",
        "entity type": "corporateBody",
        born: "1898",
        died: "present",
        dates: "1898 – present",
        biography: "The guild of the fishermen of Port de la Calma.",
        places: "Barcelona",
        "places URI": "Barcelona <http://www.wikidata.org/entity/Q1492>",
        "same as URI": "https://www.wikidata.org/wiki/Q4115189",
      },
    ]);
  });

  it("takes 2.0's @valueURI, @certainty and @notBefore/@notAfter, as Mnemo's own export writes them", () => {
    const record =
      '<eac xmlns="https://archivists.org/ns/eac/v2"><control><recordId>r1</recordId></control><cpfDescription><identity><entityType value="person"/>' +
      '<nameEntry status="authorized"><part>Joan Soler</part></nameEntry><identityId valueURI="http://www.wikidata.org/entity/Q4115189" vocabularySource="wikidata">Q4115189</identityId></identity>' +
      '<description><places><place><placeName valueURI="https://sws.geonames.org/3128760/">Barcelona</placeName></place></places>' +
      '<existDates><dateRange><fromDate standardDate="1850" certainty="approximate">c. 1850</fromDate><toDate notBefore="1920" notAfter="1925">1920s</toDate></dateRange></existDates></description></cpfDescription></eac>';
    expect(rowsOf(parse(record))[0]).toMatchObject({
      // "c. 1850" is what 1850 approximate means: kept as written. "1920s" is not 1920–1925: the bounds.
      born: "c. 1850",
      died: "1920/1925",
      "places URI": "Barcelona <https://sws.geonames.org/3128760/>",
      "same as URI": "http://www.wikidata.org/entity/Q4115189",
    });
  });

  it("refuses a record that names no one", () => {
    const record =
      '<eac-cpf xmlns="urn:isbn:1-931666-33-4"><control><recordId>x</recordId></control><cpfDescription><identity><entityType>person</entityType></identity></cpfDescription></eac-cpf>';
    expect(refusal(() => parse(record))).toMatch(/names no one/);
    expect(refusal(() => parse('<eac-cpf xmlns="urn:isbn:1-931666-33-4"><control/></eac-cpf>'))).toMatch(/has no <cpfDescription>/);
  });
});

describe("XML safety", () => {
  it("refuses malformed XML naming the line and column", () => {
    expect(refusal(() => parse(fixture("malformed.ead3.xml")))).toMatch(/^The XML is not well-formed: line 6, column \d+: .+\. Nothing was imported\.$/);
    expect(refusal(() => parse('<ead xmlns="http://ead3.archivists.org/schema/">\n<archdesc>\n</ead>'))).toMatch(
      /^The XML is not well-formed: line 3, column \d+/,
    );
    // An undefined entity is malformed: nothing is looked up.
    expect(refusal(() => parse(ead("<c01><did><unittitle>A&nbsp;B</unittitle></did></c01>")))).toMatch(
      /^The XML is not well-formed: line 2, column \d+: .*entity/i,
    );
    expect(refusal(() => parse('<ead xmlns:x="urn:x"><y:a/></ead>'))).toMatch(/^The XML is not well-formed: line 1/);
  });

  it("refuses a DOCTYPE declaring entities (billion laughs, external entities) before reading on", () => {
    expect(refusal(() => parse(fixture("entity-declaration.xml")))).toMatch(
      /^Line \d+: the file's DOCTYPE declares entities \(<!ENTITY …>\), which Mnemo does not read/,
    );
    expect(
      refusal(() => parse(ead("<c01><did><unittitle>&x;</unittitle></did></c01>", '\n<!DOCTYPE ead [<!ENTITY % p SYSTEM "http://example.org/p.dtd"> %p;]>'))),
    ).toMatch(/declares entities/);
  });

  it("reads a DOCTYPE naming an external DTD without fetching it, and the predefined entities and CDATA", () => {
    const table = parse(
      ead(
        '<c01 level="file"><did><unittitle>Fish &amp; nets <![CDATA[<raw>]]> &#233;</unittitle></did></c01>',
        '\n<!DOCTYPE ead SYSTEM "http://example.invalid/ead3.dtd">',
      ),
    );
    expect(rowsOf(table)[0]?.title).toBe("Fish & nets <raw> é");
  });

  it("refuses elements nested beyond the limit", () => {
    const deep = `${'<c level="file">'.repeat(250)}${"</c>".repeat(250)}`;
    expect(refusal(() => parse(ead(deep)))).toMatch(/nested more than 200 deep/);
  });

  it("parses a large finding aid in steps, pausing, to the same table", async () => {
    const components = Array.from(
      { length: 3000 },
      (_, index) =>
        `<c01 level="series"><did><unittitle>Series ${index}</unittitle></did><c02 level="file"><did><unitid>U-${index}</unitid><unittitle>Unit ${index} ${"é".repeat(40)}</unittitle></did></c02></c01>`,
    ).join("\n");
    const file = { fileName: "big.xml", bytes: encode(ead(components)) };
    let pauses = 0;
    const table = await parseImportFileInSteps(file, 10_000_000, async () => {
      pauses++;
    });
    expect(table).toEqual(parseImportFile(file, 10_000_000));
    expect(table.rows).toHaveLength(3000);
    expect(pauses).toBeGreaterThanOrEqual(3);
    const broken = { fileName: "big.xml", bytes: encode(ead(`${components}<c01>`)) };
    const atOnce = refusal(() => parseImportFile(broken, 10_000_000));
    await expect(parseImportFileInSteps(broken, 10_000_000, async () => {})).rejects.toThrow(atOnce);
  });

  it("keeps the size limit", () => {
    expect(refusal(() => parseImportFile({ fileName: "big.xml", bytes: encode(ead("")) }, 10))).toMatch(/imports are limited to/);
  });
});
