import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "@/lib/archive/field-definitions";
import type { RecordDetail } from "@/lib/archive/get-record";
import { RecordFields } from "./record-fields";
import { RecordFormClient } from "./record-form-client";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text" },
  { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
  { key: "subjects", label: "Subjects", type: "authority", multiple: true },
];
const nero = "http://www.wikidata.org/entity/Q1413";

function record(values: Record<string, unknown>): RecordDetail {
  return {
    id: "r1",
    title: "Denarius",
    version: 1,
    values: { title: "Denarius", ...values },
    updatedAt: new Date(0),
    createdAt: new Date(0),
    project: { id: "p", name: "P", restricted: false },
    section: { id: "s", slug: "coins", name: "Coins", fields, egressPolicy: "local" },
    media: {},
    relations: {},
    backlinks: [],
  };
}

describe("authority links on the record page", () => {
  it("shows each link as its label to the authority's URI, the authority named beside it", () => {
    const html = renderToStaticMarkup(
      createElement(RecordFields, {
        record: record({
          mint: { uri: "http://nomisma.org/id/rome", label: "Rome" },
          subjects: [{ uri: nero, label: "Nero" }, { uri: "http://vocab.getty.edu/aat/300037222" }],
        }),
      }),
    );
    expect(html).toContain(
      '<a href="http://nomisma.org/id/rome" class="link" rel="noopener noreferrer" target="_blank">Rome</a><span class="text-xs text-stone-500"> · Nomisma</span>',
    );
    expect(html).toContain(`<a href="${nero}" class="link" rel="noopener noreferrer" target="_blank">Nero</a>`);
    expect(html).toContain('target="_blank">Getty AAT 300037222</a><span class="text-xs text-stone-500"> · Getty AAT</span>');
    expect(html).toContain('<dt class="text-sm font-medium text-stone-500">Subjects</dt>');
  });

  it("links nothing that is not an authority's URI", () => {
    const html = renderToStaticMarkup(createElement(RecordFields, { record: record({ subjects: [{ uri: "javascript:alert(1)", label: "Click" }] }) }));
    expect(html).toContain("Click");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("<a ");
  });
});

describe("authority links in the record form", () => {
  it("offers one link as a URI and a label, several one a line, each named and described", () => {
    const html = renderToStaticMarkup(
      createElement(RecordFormClient, {
        action: async () => null,
        section: { slug: "coins", name: "Coins", fields },
        record: {
          id: "r1",
          version: 1,
          projectId: "p",
          values: {
            title: "Denarius",
            mint: { uri: "http://nomisma.org/id/rome", label: "Rome" },
            subjects: [{ uri: nero, label: "Nero" }, { uri: "http://nomisma.org/id/denarius" }],
          },
          media: {},
        },
        projects: [{ id: "p", name: "P" } as never],
        relationOptions: {},
        maxUploadBytes: 1024,
        cancelHref: "/records/r1",
      }),
    );
    expect(html).toMatch(
      /<label for="field-mint" class="field-label">Mint<\/label><input type="text" inputMode="url" id="field-mint" [^>]*aria-describedby="field-mint-hint" name="values.mint" value="http:\/\/nomisma.org\/id\/rome"\/>/,
    );
    expect(html).toMatch(
      /<label for="field-mint-label"[^>]*>Mint: label<\/label><input type="text" id="field-mint-label" [^>]*aria-describedby="field-mint-hint" [^>]*name="values.mint.label" value="Rome"\/>/,
    );
    expect(html).toContain('id="field-mint-hint" class="field-hint">Write a Nomisma URI, such as http://nomisma.org/id/athens. The label is the name shown');
    expect(html).toMatch(
      /<textarea id="field-subjects" name="values.subjects"[^>]*aria-describedby="field-subjects-hint">Nero &lt;http:\/\/www.wikidata.org\/entity\/Q1413&gt;\nhttp:\/\/nomisma.org\/id\/denarius<\/textarea>/,
    );
    expect(html).toContain('id="field-subjects-hint" class="field-hint">One link a line, as Label &lt;URI&gt; or the URI alone: write a Wikidata, Getty AAT');
  });
});
