import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ScanPage } from "@/lib/archive/scan-pages";
import { ScanPages } from "./scan-pages";

const word = (t: string, x: number) => ({ t, x, y: 100, w: 80, h: 40, c: 95 });
const page = (n: number): ScanPage => ({
  page: n,
  width: 1000,
  height: 2000,
  text: "Sant Romà de Vall",
  words: [word("Sant", 100), word("Romà", 200), word("de", 300), word("Vall", 400)],
  meanConfidence: 94.6,
  language: "ca",
  status: "read",
  error: null,
});

describe("ScanPages", () => {
  it("marks the cited passage's words on its page image, scaled to the image", () => {
    const html = renderToStaticMarkup(
      createElement(ScanPages, { mediaId: "m1", fieldKey: "scan", label: "Essay", pages: [page(1), page(2)], cited: { page: 2, text: "Romà de Vall" } }),
    );
    expect(html.match(/data-testid="scan-word-mark"/g)).toHaveLength(3);
    expect(html).toContain("left:20%;top:5%;width:8%;height:2%");
    expect(html).toContain('src="/api/media/m1?page=2"');
    expect(html).toContain('id="scan-scan-page-2"');
    expect(html).toContain("<mark");
  });

  it("says when the pages are not read yet, and why a page could not be read", () => {
    expect(renderToStaticMarkup(createElement(ScanPages, { mediaId: "m1", fieldKey: "scan", label: "Essay", pages: undefined }))).toContain(
      "not been read yet",
    );
    const failed = { ...page(1), status: "failed" as const, error: "tesseract failed: timed out after 180 s" };
    expect(renderToStaticMarkup(createElement(ScanPages, { mediaId: "m1", fieldKey: "scan", label: "Essay", pages: [failed] }))).toContain(
      "could not be read: tesseract failed: timed out",
    );
  });
});
