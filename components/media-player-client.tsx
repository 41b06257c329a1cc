"use client";

import { useEffect, useRef, useState } from "react";
import type { IndexSegment, TranscriptTurn } from "@/lib/archive/field-definitions";
import { cueVoices } from "@/lib/archive/transcript-formats/caption-cues";
import { fetchJson } from "./fetch-json";
import { formatTimecode } from "./format";
import { IndexSegmentList } from "./index-segment-list";
import { MarkedText } from "./marked-text";
import { Waveform } from "./waveform";

interface MediaPlayerProps {
  src: string;
  kind: "audio" | "video";
  /** Accessible name of the player, e.g. "Recording of The last harvest". */
  label: string;
  /** The page's main player: e2e reads it by data-testid="player", ?t= seeks it. */
  primary?: boolean;
  /** Seconds to open at (from ?t=); playback starts there if the browser allows it. */
  startAt?: number;
  transcript?: { label: string; turns: TranscriptTurn[] };
  /** The recording's index (OHMS index points), each segment playable from its start. */
  recordingIndex?: { label: string; segments: IndexSegment[] };
  /** The recording's peaks and length, once the index worker has read it. */
  waveform?: { peaks: [number, number][]; duration: number };
  /**
   * Caption tracks (WebVTT from /api/records/<id>/captions/…), the transcript's own language
   * first. A video shows them itself (the first by default); for a recording, the chosen
   * track's current cue is shown under the player as a live caption line.
   */
  captions?: CaptionTrack[];
  /**
   * A Spanish or Catalan transcript's English, turn by turn (`<field>.en.json` of the captions
   * route): offered as "English beside each turn", fetched when first shown.
   */
  translation?: { src: string; fromLanguage: string };
  /** Words of the search the page was opened from, marked in the turns and their English. */
  terms?: readonly string[];
}

type EnglishTurns = { status: "idle" | "loading" | "error" } | { status: "ready"; texts: string[] };

export interface CaptionTrack {
  src: string;
  /** BCP 47 language of the track, when known. */
  language?: string;
  label: string;
}

/** The caption line of the cues showing now: speaker and text of each voice, markup dropped. */
export function captionLineOf(cueTexts: readonly string[]): { speaker: string; text: string }[] {
  return cueTexts.flatMap((text) => cueVoices(text));
}

/** The turn playing at `time`: the last one that has started, if it has not ended long ago. */
function activeTurnIndex(turns: TranscriptTurn[], time: number): number {
  let found = -1;
  for (const [index, turn] of turns.entries()) {
    if (turn.start > time) break;
    found = index;
  }
  const turn = turns[found];
  // In a pause between turns the previous one stays lit, but not after a long silence.
  return turn && time <= Math.max(turn.end, turns[found + 1]?.start ?? turn.end) ? found : -1;
}

export function MediaPlayerClient({
  src,
  kind,
  label,
  primary = false,
  startAt,
  transcript,
  recordingIndex,
  waveform,
  captions,
  translation,
  terms = [],
}: MediaPlayerProps) {
  const playerRef = useRef<HTMLAudioElement & HTMLVideoElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const [activeIndex, setActiveIndex] = useState(-1);
  const [time, setTime] = useState(0);
  const turns = transcript?.turns;
  const showWaveform = waveform !== undefined && waveform.peaks.length > 0 && waveform.duration > 0;
  const captionTracks = captions ?? [];
  const showCaptionLine = kind === "audio" && captionTracks.length > 0;
  /** The track feeding a recording's caption line: an index into `captions`, -1 for none. */
  const [captionChoice, setCaptionChoice] = useState(0);
  const [captionLine, setCaptionLine] = useState<{ speaker: string; text: string }[]>([]);
  /** Whether the recording has played: before it, an empty caption line is not drawn (an empty black box). */
  const [played, setPlayed] = useState(false);
  const [showEnglish, setShowEnglish] = useState(false);
  const [english, setEnglish] = useState<EnglishTurns>({ status: "idle" });

  /** Shows or hides the English beside each turn; the first showing (or one after a failure) fetches it. */
  const toggleEnglish = () => {
    const next = !showEnglish;
    setShowEnglish(next);
    if (!next || !translation || english.status === "ready" || english.status === "loading") return;
    setEnglish({ status: "loading" });
    fetchJson<{ turns: { text: string }[] }>(translation.src)
      .then((body) =>
        setEnglish(body.turns.length === (turns?.length ?? 0) ? { status: "ready", texts: body.turns.map((turn) => turn.text) } : { status: "error" }),
      )
      .catch(() => setEnglish({ status: "error" }));
  };

  // A recording's caption line: the chosen track is loaded hidden (an <audio> draws no captions)
  // and its cuechange events say what is being said; the other tracks are off.
  useEffect(() => {
    const player = playerRef.current;
    if (!player || !showCaptionLine || !player.textTracks) return;
    const tracks = Array.from(player.textTracks);
    tracks.forEach((track, index) => {
      track.mode = index === captionChoice ? "hidden" : "disabled";
    });
    const chosen = tracks[captionChoice];
    setCaptionLine([]);
    if (!chosen) return;
    const update = () => setCaptionLine(captionLineOf(Array.from(chosen.activeCues ?? []).map((cue) => (cue as VTTCue).text ?? "")));
    update();
    chosen.addEventListener("cuechange", update);
    return () => chosen.removeEventListener("cuechange", update);
  }, [captionChoice, showCaptionLine]);

  useEffect(() => {
    const player = playerRef.current;
    if (!player || !showWaveform) return;
    const update = () => setTime(player.currentTime);
    player.addEventListener("timeupdate", update);
    player.addEventListener("seeked", update);
    return () => {
      player.removeEventListener("timeupdate", update);
      player.removeEventListener("seeked", update);
    };
  }, [showWaveform]);

  // Open at ?t=: once metadata is known the position can be set; play() may be refused by the
  // browser's autoplay policy, which leaves the player paused at the right moment.
  useEffect(() => {
    const player = playerRef.current;
    if (!player || startAt === undefined) return;
    const seek = () => {
      player.currentTime = startAt;
      player.play().catch(() => undefined);
    };
    if (player.readyState >= HTMLMediaElement.HAVE_METADATA) {
      seek();
      return;
    }
    player.addEventListener("loadedmetadata", seek, { once: true });
    return () => player.removeEventListener("loadedmetadata", seek);
  }, [startAt]);

  useEffect(() => {
    const player = playerRef.current;
    if (!player || !turns?.length) return;
    const update = () => setActiveIndex(activeTurnIndex(turns, player.currentTime));
    update();
    player.addEventListener("timeupdate", update);
    player.addEventListener("seeked", update);
    return () => {
      player.removeEventListener("timeupdate", update);
      player.removeEventListener("seeked", update);
    };
  }, [turns]);

  // Keep the playing turn in view inside the transcript's own scroll box, without moving the
  // page, and only while playing, so reading ahead during a pause is not interrupted.
  useEffect(() => {
    const player = playerRef.current;
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>(`[data-turn="${activeIndex}"]`);
    if (!player || !list || !item || player.paused) return;
    const itemTop = item.offsetTop; // the list is the positioned parent
    if (itemTop >= list.scrollTop && itemTop + item.offsetHeight <= list.scrollTop + list.clientHeight) return;
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    list.scrollTo({ top: Math.max(0, itemTop - list.clientHeight / 3), behavior: reduceMotion ? "auto" : "smooth" });
  }, [activeIndex]);

  const playFrom = (seconds: number) => {
    const player = playerRef.current;
    if (!player) return;
    player.currentTime = seconds;
    player.play().catch(() => undefined);
  };

  const Player = kind === "video" ? "video" : "audio";
  return (
    <div className="space-y-3">
      <Player
        ref={playerRef}
        controls
        preload="metadata"
        src={src}
        aria-label={label}
        data-testid={primary ? "player" : undefined}
        className={kind === "video" ? "w-full rounded-md bg-black" : "w-full"}
        onPlay={() => setPlayed(true)}
      >
        {captionTracks.map((track, index) => (
          <track key={track.src} kind="captions" src={track.src} srcLang={track.language} label={track.label} default={index === 0} />
        ))}
      </Player>
      {showCaptionLine && (
        <div className="space-y-1">
          <p
            aria-live="polite"
            hidden={captionChoice < 0 || (!played && captionLine.length === 0)}
            data-testid={primary ? "caption-line" : undefined}
            className="min-h-[3.5rem] rounded-md bg-stone-900 px-3 py-2 text-center text-base leading-snug text-white"
          >
            {captionLine.map((voice, index) => (
              <span key={index} className="block">
                {voice.speaker && <span className="font-semibold text-accent-200">{voice.speaker}: </span>}
                {voice.text}
              </span>
            ))}
          </p>
          <label className="flex items-center justify-end gap-2 text-sm text-stone-600">
            Captions
            <select
              value={captionChoice}
              onChange={(event) => setCaptionChoice(Number(event.target.value))}
              className="rounded-md border border-stone-300 bg-white px-2 py-1 text-sm"
            >
              {captionTracks.map((track, index) => (
                <option key={track.src} value={index}>
                  {track.label}
                </option>
              ))}
              <option value={-1}>Off</option>
            </select>
          </label>
        </div>
      )}
      {showWaveform && <Waveform peaks={waveform.peaks} duration={waveform.duration} time={time} onSeek={playFrom} />}
      {transcript && turns && turns.length > 0 && (
        <section aria-label={transcript.label}>
          {translation && (
            <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600">
              <button type="button" className="btn" aria-pressed={showEnglish} onClick={toggleEnglish} data-testid="english-toggle">
                English beside each turn
              </button>
              <span aria-live="polite">
                {showEnglish && english.status === "loading" && "Translating…"}
                {showEnglish && english.status === "ready" && `Machine translation from ${translation.fromLanguage} (Apertium); names are kept as written.`}
                {showEnglish && english.status === "error" && (
                  <span className="text-red-700">The English could not be made just now. Select the button again to retry.</span>
                )}
              </span>
            </div>
          )}
          <ol
            ref={listRef}
            lang={captionTracks[0]?.language}
            className="relative max-h-[28rem] space-y-1 overflow-y-auto rounded-md border border-stone-200 bg-white p-2"
          >
            {turns.map((turn, index) => {
              const active = index === activeIndex;
              return (
                <li key={`${turn.start}-${index}`} data-turn={index}>
                  <button
                    type="button"
                    onClick={() => playFrom(turn.start)}
                    aria-current={active ? "true" : undefined}
                    className={`grid w-full grid-cols-[4.5rem_1fr] gap-x-3 rounded-md px-2 py-1.5 text-left text-sm ${
                      active ? "bg-accent-50 ring-1 ring-accent-200" : "hover:bg-stone-100"
                    }`}
                  >
                    <span className="font-mono text-xs leading-6 text-accent-800">{formatTimecode(turn.start)}</span>
                    <span>
                      {turn.speaker && <span className="font-semibold text-stone-900">{turn.speaker}: </span>}
                      <span className="text-stone-700">
                        <MarkedText text={turn.text} terms={terms} />
                      </span>
                      {showEnglish && english.status === "ready" && english.texts[index] && (
                        <span lang="en" className="mt-0.5 block text-stone-500 italic" data-testid="turn-english">
                          <MarkedText text={english.texts[index]} terms={terms} />
                        </span>
                      )}
                    </span>
                  </button>
                </li>
              );
            })}
          </ol>
          <p className="field-hint">Select a turn to play the recording from there.</p>
        </section>
      )}
      {recordingIndex && recordingIndex.segments.length > 0 && (
        <IndexSegmentList label={recordingIndex.label} segments={recordingIndex.segments} onPlay={playFrom} />
      )}
    </div>
  );
}
