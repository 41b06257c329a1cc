import { describe, expect, it } from "vitest";
import { dateProblemMessage, parseEdtf, readWrittenDate } from "./edtf";

function read(text: string) {
  const result = readWrittenDate(text);
  if (!result.ok) throw new Error(`${text}: ${result.problem}`);
  return result.reading;
}

function problem(text: string): string {
  const result = readWrittenDate(text);
  if (result.ok) throw new Error(`${text} was read as ${result.reading.edtf}`);
  return result.problem;
}

describe("parseEdtf", () => {
  it.each([
    // [EDTF, earliest, latest, display]
    ["1962", "1962-01-01", "1962-12-31", "1962"],
    ["1962-04", "1962-04-01", "1962-04-30", "April 1962"],
    ["1962-04-18", "1962-04-18", "1962-04-18", "18 April 1962"],
    ["2000-02", "2000-02-01", "2000-02-29", "February 2000"],
    ["1850~", "1850-01-01", "1850-12-31", "c. 1850"],
    ["1850?", "1850-01-01", "1850-12-31", "1850?"],
    ["1850%", "1850-01-01", "1850-12-31", "c. 1850?"],
    ["185X", "1850-01-01", "1859-12-31", "1850s"],
    ["18XX", "1800-01-01", "1899-12-31", "1800s"],
    ["1985-04-XX", "1985-04-01", "1985-04-30", "April 1985"],
    ["1985-XX-XX", "1985-01-01", "1985-12-31", "1985"],
    ["1985-XX-12", "1985-01-12", "1985-12-12", "1985-XX-12"],
    ["1950-21", "1950-01-01", "1950-12-31", "Spring 1950"],
    ["1950-24~", "1950-01-01", "1950-12-31", "c. Winter 1950"],
    ["1850/1860", "1850-01-01", "1860-12-31", "1850 – 1860"],
    ["1923-05/1923-09", "1923-05-01", "1923-09-30", "May 1923 – September 1923"],
    ["1850~/1860?", "1850-01-01", "1860-12-31", "c. 1850 – 1860?"],
    ["1850/..", "1850-01-01", null, "1850 onwards"],
    ["../1850", null, "1850-12-31", "until 1850"],
    ["1850/", "1850-01-01", null, "1850 – ?"],
    // EDTF years before the common era count from a year zero, as ISO 8601's: -0399 is 400 BC.
    ["-0399", "-0399-01-01", "-0399-12-31", "400 BC"],
    ["-0400", "-0400-01-01", "-0400-12-31", "401 BC"],
    ["0000", "0000-01-01", "0000-12-31", "1 BC"],
    ["-0044-03-15", "-0044-03-15", "-0044-03-15", "15 March 45 BC"],
    ["-0399/-0379", "-0399-01-01", "-0379-12-31", "400 BC – 380 BC"],
    ["[1850, 1860..1862]", "1850-01-01", "1862-12-31", "one of 1850 or 1860 – 1862"],
    ["{1850, 1860}", "1850-01-01", "1860-12-31", "1850 and 1860"],
  ])("reads %s", (edtf, earliest, latest, display) => {
    const result = parseEdtf(edtf);
    expect(result).toMatchObject({ ok: true, reading: { edtf, earliest, latest, display } });
  });

  it("gives the years an interval covers, an open end counting as its known end", () => {
    expect(read("1850/..").years).toEqual({ from: 1850, to: 1850 });
    expect(read("../1850").years).toEqual({ from: 1850, to: 1850 });
    expect(read("185X").years).toEqual({ from: 1850, to: 1859 });
    expect(read("-04XX").years).toEqual({ from: -500, to: -401 }); // ISO years -0499…-0400: 500–401 BC
    expect(read("XXXX").years).toBeNull();
  });

  it("marks approximate and uncertain dates", () => {
    expect(read("1850~")).toMatchObject({ approximate: true, uncertain: false });
    expect(read("1850?")).toMatchObject({ approximate: false, uncertain: true });
    expect(read("1850%")).toMatchObject({ approximate: true, uncertain: true });
    expect(read("1850/1860~")).toMatchObject({ approximate: true, uncertain: false });
    expect(read("1850")).toMatchObject({ approximate: false, uncertain: false });
  });

  it.each([
    ["1962-13", "unreadable"],
    ["1962-00", "unreadable"],
    ["1962-25", "unreadable"],
    ["1950-21-03", "unreadable"],
    ["1962-02-30", "not a date that exists: February 1962 has 28 days"],
    ["1900-02-29", "not a date that exists: February 1900 has 28 days"],
    ["1860/1850", "starts after it ends"],
    ["1962/04", "unreadable"],
    ["../..", "unreadable"],
    ["1850/1860/1870", "unreadable"],
    ["[1850, ]", "unreadable"],
    ["[1850}", "unreadable"],
    ["Y-170000002", "out of range"],
    ["62", "unreadable"],
  ])("refuses %s", (edtf, expected) => {
    expect(parseEdtf(edtf)).toEqual({ ok: false, problem: expected });
  });
});

describe("readWrittenDate", () => {
  it.each([
    // English
    ["c. 1850", "1850~"],
    ["c.1850", "1850~"],
    ["ca. 1850", "1850~"],
    ["ca 1850", "1850~"],
    ["circa 1850", "1850~"],
    ["Circa 1850", "1850~"],
    ["about 1850", "1850~"],
    ["1850?", "1850?"],
    ["1850 ?", "1850?"],
    ["[1850?]", "1850?"],
    ["c. 1850?", "1850%"],
    ["1850-1860", "1850/1860"],
    ["1850–1860", "1850/1860"],
    ["1850 — 1860", "1850/1860"],
    ["1850 - 1860", "1850/1860"],
    ["1850 to 1860", "1850/1860"],
    ["between 1850 and 1860", "1850/1860"],
    ["1850-60", "1850/1860"],
    ["c. 1850-1860", "1850~/1860~"],
    ["1850s", "185X"],
    ["the 1850s", "185X"],
    ["1850's", "185X"],
    ["1800s", "18XX"],
    ["18th century", "17XX"],
    ["19th c.", "18XX"],
    ["1st century", "00XX"],
    ["early 19th century", "1800/1833"],
    ["mid 19th century", "1833/1866"],
    ["mid-19th century", "1833/1866"],
    ["late 19th century", "1866/1899"],
    ["first half of the 19th century", "1800/1849"],
    ["second half of the 19th century", "1850/1899"],
    ["c. 18th century", "17XX~"],
    ["18 April 1962", "1962-04-18"],
    ["April 18, 1962", "1962-04-18"],
    ["April 1962", "1962-04"],
    ["Spring 1950", "1950-21"],
    ["18/04/1962", "1962-04-18"],
    ["1962/04/18", "1962-04-18"],
    ["800", "0800"],
    ["04/1962", "1962-04"],
    ["4-1962", "1962-04"],
    ["100-1962", "0100/1962"],
    // Short signed years and years with an era are historians' years: -44 is 44 BC, EDTF -0043.
    ["-50--10", "-0049/-0009"],
    ["-44-03-15", "-0043-03-15"],
    ["-400", "-0399"],
    ["400 BC", "-0399"],
    ["400 a.C.", "-0399"],
    ["400 aC", "-0399"],
    ["c. 400 BC", "-0399~"],
    ["400-380 BC", "-0399/-0379"],
    ["400 BC - 380 BC", "-0399/-0379"],
    ["AD 14", "0014"],
    ["14 d.C.", "0014"],
    // Spanish
    ["hacia 1850", "1850~"],
    ["aprox. 1850", "1850~"],
    ["¿1850?", "1850?"],
    ["s. XVIII", "17XX"],
    ["s.XVIII", "17XX"],
    ["siglo XVIII", "17XX"],
    ["Siglo XIX", "18XX"],
    ["siglo 19", "18XX"],
    ["finales del siglo XIX", "1866/1899"],
    ["principios del siglo XX", "1900/1933"],
    ["mediados del siglo XVIII", "1733/1766"],
    ["primera mitad del siglo XIX", "1800/1849"],
    ["segunda mitad del s. XIX", "1850/1899"],
    ["entre 1850 y 1860", "1850/1860"],
    ["de 1850 a 1860", "1850/1860"],
    ["años 1850", "185X"],
    ["década de 1850", "185X"],
    ["18 de abril de 1962", "1962-04-18"],
    ["abril de 1962", "1962-04"],
    ["primavera de 1950", "1950-21"],
    ["c. 1850 - 1860", "1850~/1860~"],
    // Catalan
    ["cap a 1850", "1850~"],
    ["cap al 1850", "1850~"],
    ["segle XVIII", "17XX"],
    ["finals del segle XIX", "1866/1899"],
    ["principis del segle XX", "1900/1933"],
    ["mitjan segle XIX", "1833/1866"],
    ["segona meitat del segle XIX", "1850/1899"],
    ["anys 1850", "185X"],
    ["18 d'abril de 1962", "1962-04-18"],
    ["18 d’abril de 1962", "1962-04-18"],
    ["de març de 1962", "1962-03"],
    ["de 1850 a 1860", "1850/1860"],
    ["tardor de 1950", "1950-23"],
    // EDTF as it is
    ["1923-05", "1923-05"],
    ["1850~", "1850~"],
    ["1850/1860", "1850/1860"],
    ["18XX", "18XX"],
    ["185x", "185X"],
    ["1850/..", "1850/.."],
  ])("reads %j as %s", (written, edtf) => {
    expect(read(written).edtf).toBe(edtf);
  });

  it("reads 1923-05 as May 1923, never as the years 1923 to 5", () => {
    expect(read("1923-05")).toMatchObject({ earliest: "1923-05-01", latest: "1923-05-31", years: { from: 1923, to: 1923 }, display: "May 1923" });
  });

  it.each([
    ["sometime in spring", "unreadable"],
    ["", "unreadable"],
    ["n.d.", "unreadable"],
    ["1962-13-01", "unreadable"],
    ["31/04/1931", "not a date that exists: April 1931 has 30 days"],
    ["1860-1850", "starts after it ends"],
    ["1850-40", "unreadable"],
    ["19th", "unreadable"],
    ["siglo", "unreadable"],
    ["c.", "unreadable"],
    ["circa", "unreadable"],
    ["s. MMM", "unreadable"],
    ["200th century", "unreadable"],
    ["Frimaire 1850", "unreadable"],
    ["13/1962", "unreadable"],
    ["1962/4", "unreadable"],
    ["1962 to 4", "unreadable"],
  ])("refuses %j (%s)", (written, expected) => {
    expect(problem(written)).toBe(expected);
  });

  it("quotes what could not be read in the message", () => {
    expect(dateProblemMessage("sometime in spring", "unreadable")).toBe(
      '"sometime in spring" could not be read: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX',
    );
    expect(dateProblemMessage("x".repeat(80), "unreadable")).toMatch(/^"x{60}…" could not be read/);
    expect(dateProblemMessage("1860-1850", "starts after it ends")).toBe('"1860-1850" starts after it ends');
  });
});
