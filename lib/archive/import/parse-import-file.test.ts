import { describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { decodeUtf8, firstInvalidUtf8Byte, parseImportFile, parseImportFileInSteps, sniffDelimiter } from "./parse-import-file";

const encode = (text: string) => new TextEncoder().encode(text);
const parse = (text: string | Uint8Array, fileName = "file.csv", maxBytes = 1_000_000) =>
  parseImportFile({ fileName, bytes: typeof text === "string" ? encode(text) : text }, maxBytes);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.code === "bad_request") return error.message;
    throw error;
  }
  throw new Error("expected the file to be refused");
}

describe("CSV (RFC 4180)", () => {
  it("reads quoted cells, doubled quotes, line breaks inside quotes and CRLF", () => {
    const table = parse('id,title,notes\r\n1,"Hello, world","She said ""no""\r\nthen left"\r\n2,Plain,\r\n');
    expect(table.columns).toEqual(["id", "title", "notes"]);
    expect(table.rows).toEqual([
      ["1", "Hello, world", 'She said "no"\r\nthen left'],
      ["2", "Plain", ""],
    ]);
    expect(table.lines).toEqual([2, 4]);
  });

  it("reads a file whose line ends are mixed (LF, CRLF, CR), numbering the lines as an editor does", () => {
    const table = parse('a,b\r\n1,"x\ny"\n\n2,z\r3,w\r\n');
    expect(table.rows).toEqual([
      ["1", "x\ny"],
      ["2", "z"],
      ["3", "w"],
    ]);
    expect(table.lines).toEqual([2, 5, 6]);
  });

  it("drops a byte-order mark and reads a last line without a line break", () => {
    const table = parse("\uFEFFtitle,kind\nA,letter");
    expect(table.columns).toEqual(["title", "kind"]);
    expect(table.rows).toEqual([["A", "letter"]]);
  });

  it("sniffs the delimiter from the header: comma, semicolon or tab", () => {
    expect(sniffDelimiter("a;b;c\n1,5;2;3")).toBe(";");
    expect(sniffDelimiter("a\tb\n")).toBe("\t");
    expect(sniffDelimiter('"x;y",b,c\n')).toBe(",");
    expect(parse("title;kind\nA, B;letter\n").rows).toEqual([["A, B", "letter"]]);
    expect(parse("title\tkind\nA;B\tletter\n", "file.tsv").rows).toEqual([["A;B", "letter"]]);
  });

  it("keeps formula-looking cells as plain text", () => {
    expect(parse("a,b,c,d\n=1+1,+33 600,-2,@SUM(A1)\n").rows).toEqual([["=1+1", "+33 600", "-2", "@SUM(A1)"]]);
  });

  it("skips blank lines between rows", () => {
    expect(parse("a,b\n1,2\n\n3,4\n\n").rows).toEqual([
      ["1", "2"],
      ["3", "4"],
    ]);
  });

  it("refuses ragged rows, naming the line and the row", () => {
    expect(refusal(() => parse("a,b,c\n1,2,3\n4,5\n"))).toMatch(/^Line 3 \(row 2\) has 2 cells; the header has 3/);
    expect(refusal(() => parse('a,b\n"multi\nline",2\n3,4,5\n'))).toMatch(/^Line 4 \(row 2\) has 3 cells/);
  });

  it("refuses an unclosed quote and text after a closing quote", () => {
    expect(refusal(() => parse('a,b\n1,"open\n2,3\n'))).toMatch(/^Line 2: a quoted cell is never closed/);
    expect(refusal(() => parse('a,b\n1,"x"y\n'))).toMatch(/^Line 2: text after a closing quote/);
    expect(refusal(() => parse('a,b\n"two\nlines",ok\n1,12" record\n'))).toMatch(/^Line 4: a quote inside a cell that is not quoted/);
  });

  it("refuses headers with a nameless or repeated column", () => {
    expect(refusal(() => parse("a,,c\n1,2,3\n"))).toBe("Column 2 of the header has no name.");
    expect(refusal(() => parse("a,b,a\n1,2,3\n"))).toBe('The header names the column "a" twice (columns 1 and 3).');
  });

  it("refuses empty files and files with no data rows", () => {
    expect(refusal(() => parse(""))).toBe("The file is empty.");
    expect(refusal(() => parse(" \r\n\n"))).toBe("The file is empty.");
    expect(refusal(() => parse("a,b\r\n"))).toBe("The file has a header but no data rows.");
  });

  it("refuses files over the limit before reading them", () => {
    expect(refusal(() => parse("a\n1\n", "file.csv", 3))).toMatch(/imports are limited to/);
  });
});

describe("encoding", () => {
  it("refuses bytes that are not UTF-8, naming the byte and its line", () => {
    const latin1 = new Uint8Array([...encode("title\nCaf"), 0xe9, 0x0a]);
    expect(refusal(() => parse(latin1))).toMatch(/^The file is not UTF-8: byte 9 \(line 2\) is 0xE9\./);
  });

  it("refuses UTF-16 with a byte-order mark", () => {
    expect(refusal(() => decodeUtf8(new Uint8Array([0xff, 0xfe, 0x61, 0x00])))).toMatch(/UTF-16/);
  });

  it("finds the first invalid sequence: stray continuation, overlong form, surrogate, truncation", () => {
    expect(firstInvalidUtf8Byte(encode("ok ñ €"))).toBe(encode("ok ñ €").length);
    expect(firstInvalidUtf8Byte(new Uint8Array([0x61, 0x80]))).toBe(1);
    expect(firstInvalidUtf8Byte(new Uint8Array([0xc0, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8Byte(new Uint8Array([0x61, 0xed, 0xa0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8Byte(new Uint8Array([0x61, 0x62, 0xe2, 0x82]))).toBe(2);
  });
});

describe("JSON and JSON Lines", () => {
  it("reads an array of objects; columns are the keys in order of first appearance", () => {
    const table = parse(
      JSON.stringify([
        { title: "A", year: 1962 },
        { title: "B", tags: ["x", "y"], period: { from: 1, to: 2 }, note: null },
      ]),
      "f.json",
    );
    expect(table.format).toBe("json");
    expect(table.columns).toEqual(["title", "year", "tags", "period", "note"]);
    expect(table.rows).toEqual([
      ["A", "1962", "", "", ""],
      ["B", "", "x | y", '{"from":1,"to":2}', ""],
    ]);
  });

  it("reads JSON Lines, skipping blank lines, and sniffs the format without an extension", () => {
    const table = parse('{"title":"A"}\n\n{"title":"B"}\n', "upload");
    expect(table.format).toBe("jsonl");
    expect(table.rows).toEqual([["A"], ["B"]]);
    expect(table.lines).toEqual([1, 3]);
    expect(parse('[{"title":"A"}]', "upload").format).toBe("json");
  });

  it("refuses invalid JSON, non-objects and an empty array, naming the line or item", () => {
    expect(refusal(() => parse('[{"title":"A"},', "f.json"))).toMatch(/^The file is not valid JSON/);
    expect(refusal(() => parse('{"title":"A"}\n{"title":\n', "f.jsonl"))).toMatch(/^Line 2 is not valid JSON/);
    expect(refusal(() => parse('{"a":1}\n[1]\n', "f.jsonl"))).toBe("Line 2 is not a JSON object.");
    expect(refusal(() => parse('[{"a":1}, 2]', "f.json"))).toBe("Item 2 of the JSON array is not an object.");
    expect(refusal(() => parse("[]", "f.json"))).toBe("The file has a header but no data rows.");
  });
});

describe("parsing in steps", () => {
  // Over a megabyte: 2,500 records in three steps; quoted cells hold line breaks.
  const csv = ["id,title,notes", ...Array.from({ length: 2500 }, (_, row) => `${row + 1},"Títol €${row}","line one\r\nline ${"€".repeat(150)} two"`)].join(
    "\r\n",
  );
  const jsonLines = Array.from({ length: 2500 }, (_, row) => JSON.stringify({ title: `T ${row}`, note: "€".repeat(150) })).join("\n");

  it("gives the same table as parsing at once, pausing between the steps", async () => {
    for (const [fileName, text] of [
      ["big.csv", csv],
      ["big.jsonl", jsonLines],
    ] as const) {
      const file = { fileName, bytes: encode(text) };
      expect(file.bytes.byteLength).toBeGreaterThan(1024 * 1024);
      let pauses = 0;
      const table = await parseImportFileInSteps(file, 10_000_000, async () => {
        pauses++;
      });
      expect(table).toEqual(parseImportFile(file, 10_000_000));
      expect(table.rows).toHaveLength(2500);
      expect(pauses).toBeGreaterThanOrEqual(2);
    }
  });

  it("refuses what parsing at once refuses, with the same message", async () => {
    const bytes = encode(csv);
    const broken = new Uint8Array(bytes);
    broken[bytes.length - 100] = 0xff;
    for (const file of [
      { fileName: "bad.csv", bytes: broken },
      { fileName: "bad.csv", bytes: encode(`${csv}\r\n1,"open`) },
    ]) {
      const atOnce = refusal(() => parseImportFile(file, 10_000_000));
      await expect(parseImportFileInSteps(file, 10_000_000, async () => {})).rejects.toThrow(atOnce);
    }
  });
});
