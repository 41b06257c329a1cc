import { describe, expect, it } from "vitest";
import {
  authorityLabels,
  authorityLinksOf,
  authorityText,
  formatAuthorityLink,
  parseAuthorityLines,
  parseAuthorityLink,
  splitAuthorityText,
} from "./authority-text";

const nero = { uri: "http://www.wikidata.org/entity/Q1413", label: "Nero" };
const rome = { uri: "http://nomisma.org/id/rome" };

describe("authority links as text", () => {
  it("reads Label <URI> and a URI alone, keeping whatever else as the URI so the save quotes it", () => {
    expect(parseAuthorityLink(" Nero  <http://www.wikidata.org/entity/Q1413> ")).toEqual(nero);
    expect(parseAuthorityLink("http://nomisma.org/id/rome")).toEqual(rome);
    expect(parseAuthorityLink("<http://nomisma.org/id/rome>")).toEqual(rome);
    expect(parseAuthorityLink("a < b <http://nomisma.org/id/rome>")).toEqual({ ...rome, label: "a < b" });
    expect(parseAuthorityLink("Nero")).toEqual({ uri: "Nero" });
    expect(parseAuthorityLink("Nero <not a uri")).toEqual({ uri: "Nero <not a uri" });
  });

  it("writes a link back as it is read", () => {
    for (const link of [nero, rome, { uri: rome.uri, label: "Roma; ciutat" }]) {
      expect(parseAuthorityLink(formatAuthorityLink(link))).toEqual(link);
    }
    expect(formatAuthorityLink({ uri: rome.uri, label: "  " })).toBe(rome.uri);
  });

  it("splits lines, and in an import's cell semicolons outside <…>", () => {
    expect(splitAuthorityText("Nero <a>\r\n\n  b  \n")).toEqual(["Nero <a>", "b"]);
    expect(splitAuthorityText("x; y")).toEqual(["x; y"]);
    expect(splitAuthorityText("Nero <a;b>; Rome <c>\nd", { semicolons: true })).toEqual(["Nero <a;b>", "Rome <c>", "d"]);
    expect(parseAuthorityLines(`Nero <${nero.uri}>\n${rome.uri}`)).toEqual([nero, rome]);
  });

  it("reads a stored value, one link or several, leaving out what is not a link", () => {
    expect(authorityLinksOf(nero)).toEqual([nero]);
    expect(authorityLinksOf([nero, "x", null, { label: "no uri" }, rome])).toEqual([nero, rome]);
    expect(authorityLinksOf(undefined)).toEqual([]);
    expect(authorityText([nero, rome])).toBe(`Nero <${nero.uri}>\n${rome.uri}`);
    expect(authorityLabels([nero, rome])).toEqual(["Nero", "Nomisma rome"]);
  });
});
