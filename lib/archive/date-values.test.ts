import { describe, expect, it } from "vitest";
import { readDateValue, shownDate, writtenDate } from "./date-values";

describe("stored dates, read through one door", () => {
  it("shows a date as written, else in words, and gives the editor the text to change", () => {
    expect([shownDate("1962-04-18"), writtenDate("1962-04-18")]).toEqual(["18 April 1962", "1962-04-18"]);
    expect([shownDate("1850~"), writtenDate("1850~")]).toEqual(["c. 1850", "1850~"]);
    expect([shownDate("800"), writtenDate("800")]).toEqual(["800", "800"]);
    expect([shownDate({ edtf: "1850~", text: "c. 1850" }), writtenDate({ edtf: "1850~", text: "c. 1850" })]).toEqual(["c. 1850", "c. 1850"]);
    expect(shownDate({ from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" })).toBe("s. XVIII");
    expect([shownDate({ from: -27, to: 14 }), writtenDate({ from: -27, to: 14 })]).toEqual(["27 BC – AD 14", "-27/14"]);
    expect([shownDate({ from: 1936, to: 1936 }), writtenDate({ from: 1936, to: 1936 })]).toEqual(["1936", "1936"]);
  });

  it("reads nothing from what is not a date, without throwing", () => {
    for (const value of [undefined, null, "", "nonsense", 1962, [], {}, { edtf: "c. 1850" }, { from: "1900", to: 1950 }, { from: 1.5, to: 2 }]) {
      expect(readDateValue(value)).toBeNull();
      expect(shownDate(value)).toBe("");
    }
  });

  it("gives the interval and years a stored value covers", () => {
    expect(readDateValue({ edtf: "1850/1860", text: "1850-1860" })).toMatchObject({
      earliest: "1850-01-01",
      latest: "1860-12-31",
      years: { from: 1850, to: 1860 },
    });
    expect(readDateValue({ from: 1920, to: 1930 })).toMatchObject({ edtf: "1920/1930", years: { from: 1920, to: 1930 } });
  });
});
