import { describe, expect, it } from "vitest";
import { type ExportFieldContext, exportFieldText, transcriptText } from "./export-field-text";
import type { FieldDefinition } from "./field-definitions";

const readableId = "11111111-1111-4111-8111-111111111111";
const hiddenId = "22222222-2222-4222-8222-222222222222";
const mediaId = "33333333-3333-4333-8333-333333333333";
const context: ExportFieldContext = {
  relationTitles: new Map([[readableId, "Sant Romà de Vall"]]),
  mediaLinks: new Map([[mediaId, "talk.wav <http://mnemo.test/api/media/33333333-3333-4333-8333-333333333333>"]]),
};
const text = (field: Partial<FieldDefinition> & Pick<FieldDefinition, "type">, value: unknown) =>
  exportFieldText({ key: "f", label: "F", ...field } as FieldDefinition, value, context);

describe("exportFieldText", () => {
  it("gives text, long text and categories as written, and nothing for what is not text", () => {
    expect(text({ type: "text" }, "Miller")).toBe("Miller");
    expect(text({ type: "longtext" }, "Born in the valley.\n\nLeft in 1962.")).toBe("Born in the valley.\n\nLeft in 1962.");
    expect(text({ type: "category", options: ["es"] }, "es")).toBe("es");
    expect(text({ type: "text" }, 42)).toBe("");
    expect(text({ type: "text" }, undefined)).toBe("");
  });

  it("gives dates as written, else their EDTF", () => {
    expect(text({ type: "date" }, "c. 1921")).toBe("c. 1921");
    expect(text({ type: "daterange" }, { from: 1850, to: 1860, edtf: "1850/1860", text: "1850s" })).toBe("1850s");
    expect(text({ type: "date" }, "1999-03-02")).toBe("1999-03-02");
    expect(text({ type: "date" }, "1921")).toBe("1921");
  });

  it("gives authority links as Label <URI>, one a line", () => {
    expect(
      text({ type: "authority", multiple: true }, [
        { uri: "http://www.wikidata.org/entity/Q42", label: "Miller" },
        { uri: "http://vocab.getty.edu/tgn/7000874" },
      ]),
    ).toBe("Miller <http://www.wikidata.org/entity/Q42>\nhttp://vocab.getty.edu/tgn/7000874");
  });

  it("names only linked records in the readable titles: a hidden one is left out like a missing one", () => {
    const relation = { type: "relation", targetSection: "places", multiple: true } as const;
    expect(text(relation, [readableId, hiddenId])).toBe("Sant Romà de Vall");
    expect(text(relation, [hiddenId])).toBe("");
    expect(text(relation, readableId)).toBe("Sant Romà de Vall");
  });

  it("links only the record's own files, by name and URL", () => {
    expect(text({ type: "media", mediaKind: "audio" }, mediaId)).toBe("talk.wav <http://mnemo.test/api/media/33333333-3333-4333-8333-333333333333>");
    expect(text({ type: "image", view: "obverse" }, "44444444-4444-4444-8444-444444444444")).toBe("");
  });

  it("gives transcripts one turn a line and index segments with their start", () => {
    expect(
      text({ type: "transcript" }, [
        { speaker: "A", start: 0, end: 2, text: "Good morning." },
        { speaker: "B", start: 2, end: 4, text: "Morning." },
      ]),
    ).toBe("Good morning.\nMorning.");
    expect(text({ type: "segments" }, [{ start: 65, end: 90, title: "The mill", synopsis: "", keywords: [], partialTranscript: "" }])).toBe("01:05 The mill");
    expect(transcriptText("as written")).toBe("as written");
  });
});
