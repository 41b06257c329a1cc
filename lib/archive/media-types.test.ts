import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { oggDurationSeconds, sniffMediaType } from "./media-types";

const bytes = (...values: number[]) => new Uint8Array([...values, ...new Array(16).fill(0)]);
const text = (value: string) => [...value].map((character) => character.charCodeAt(0));

describe("sniffMediaType", () => {
  it("recognises types by their bytes", () => {
    expect(sniffMediaType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))?.mime).toBe("image/png");
    expect(sniffMediaType(bytes(0xff, 0xd8, 0xff, 0xe0))?.mime).toBe("image/jpeg");
    expect(sniffMediaType(bytes(...text("RIFF"), 0, 0, 0, 0, ...text("WEBP")))?.mime).toBe("image/webp");
    expect(sniffMediaType(bytes(...text("RIFF"), 0, 0, 0, 0, ...text("WAVE")))?.mime).toBe("audio/wav");
    expect(sniffMediaType(bytes(...text("OggS")))?.kind).toBe("audio");
    expect(sniffMediaType(bytes(0, 0, 0, 0x20, ...text("ftypisom")))?.mime).toBe("video/mp4");
    expect(sniffMediaType(bytes(0x1a, 0x45, 0xdf, 0xa3))?.mime).toBe("video/webm");
  });

  it("recognises scans: TIFF in either byte order as an image, PDF as a document", () => {
    expect(sniffMediaType(bytes(0x49, 0x49, 0x2a, 0x00))).toEqual({ mime: "image/tiff", kind: "image", extension: "tif" });
    expect(sniffMediaType(bytes(0x4d, 0x4d, 0x00, 0x2a))?.mime).toBe("image/tiff");
    expect(sniffMediaType(bytes(0x49, 0x49, 0x2b, 0x00))).toBeNull(); // BigTIFF: not decoded by sharp here
    expect(sniffMediaType(new TextEncoder().encode("%PDF-1.7\n%âãÏÓ"))).toEqual({ mime: "application/pdf", kind: "document", extension: "pdf" });
    expect(sniffMediaType(new TextEncoder().encode(" %PDF-1.7"))).toBeNull();
  });

  it("refuses what it does not know, whatever the name says", () => {
    expect(sniffMediaType(new TextEncoder().encode("<svg onload=alert(1)>"))).toBeNull();
    expect(sniffMediaType(new Uint8Array())).toBeNull();
  });
});

describe("oggDurationSeconds", () => {
  it("reads an Opus recording's length from its last page", () => {
    const file = new Uint8Array(readFileSync(new URL("../../prisma/seed/data/oral-histories/audio/valley-04.ogg", import.meta.url)));
    const interviews = JSON.parse(readFileSync(new URL("../../prisma/seed/data/oral-histories/interviews.json", import.meta.url), "utf8")) as {
      key: string;
      durationSeconds: number;
    }[];
    const expected = interviews.find((interview) => interview.key === "valley-04")?.durationSeconds ?? 0;
    expect(oggDurationSeconds(file)).toBeCloseTo(expected, 1);
  });
});
