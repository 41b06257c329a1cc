import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MediaPlayerClient } from "./media-player-client";

const peaks: [number, number][] = Array.from({ length: 40 }, (_, index) => [-index / 40, index / 40]);
const render = (waveform?: { peaks: [number, number][]; duration: number }) =>
  renderToStaticMarkup(createElement(MediaPlayerClient, { src: "/api/media/x?variant=stream", kind: "audio", label: "Recording: test", waveform }));

describe("MediaPlayerClient", () => {
  it("shows the recording's waveform once the worker has read its peaks and length", () => {
    const html = render({ peaks, duration: 125 });
    expect(html).toContain('aria-label="Waveform of the recording, 02:05.0 long; select a point to play from there"');
    expect(html).toContain('viewBox="0 0 40 100"');
  });

  it("shows no waveform before then", () => {
    expect(render()).not.toContain("Waveform");
    expect(render({ peaks: [], duration: 125 })).not.toContain("Waveform");
    expect(render({ peaks, duration: 0 })).not.toContain("Waveform");
  });
});
