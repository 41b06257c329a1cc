import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { captionLineOf, MediaPlayerClient } from "./media-player-client";

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

  it("attaches caption tracks, the transcript's language by default, and a live caption line for a recording", () => {
    const captions = [
      { src: "/api/records/r/captions/transcript.vtt", language: "es", label: "Spanish" },
      { src: "/api/records/r/captions/transcript.en.vtt", language: "en", label: "English (machine translation)" },
    ];
    const audio = renderToStaticMarkup(createElement(MediaPlayerClient, { src: "/api/media/x", kind: "audio", label: "Recording", primary: true, captions }));
    expect(audio).toContain('<track kind="captions" src="/api/records/r/captions/transcript.vtt" srcLang="es" label="Spanish" default=""/>');
    expect(audio).toContain('<track kind="captions" src="/api/records/r/captions/transcript.en.vtt" srcLang="en" label="English (machine translation)"/>');
    expect(audio).toContain('aria-live="polite"');
    expect(audio).toContain('data-testid="caption-line"');
    expect(audio).toContain('<option value="1">English (machine translation)</option>');
    // A video draws its captions itself: tracks, no caption line.
    const video = renderToStaticMarkup(createElement(MediaPlayerClient, { src: "/api/media/x", kind: "video", label: "Video", captions }));
    expect(video).toMatch(/<video[^>]*><track kind="captions"/);
    expect(video).not.toContain("aria-live");
    // Without captions, neither.
    expect(render()).not.toContain("<track");
    expect(render()).not.toContain("aria-live");
  });

  it("reads the caption line from the cues' text: voices, markup and entities", () => {
    expect(captionLineOf(["<v Andrés Martín>Fish &amp; chips\n<i>then</i>?"])).toEqual([{ speaker: "Andrés Martín", text: "Fish & chips then?" }]);
    expect(captionLineOf(["Interviewer: Where?", "no speaker here"])).toEqual([
      { speaker: "Interviewer", text: "Where?" },
      { speaker: "", text: "no speaker here" },
    ]);
    expect(captionLineOf([])).toEqual([]);
  });
});
