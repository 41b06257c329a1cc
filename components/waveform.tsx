import { formatTranscriptTimecode } from "@/lib/archive/transcript-text";

/**
 * A recording's waveform (the index worker's min/max peaks, about a thousand pairs) as a small
 * SVG: a bar per pair, the played part darker; a click plays from there. The player's own
 * controls stay the keyboard's way to seek; this is the overview of where the talk and pauses are.
 */
export function Waveform({ peaks, duration, time, onSeek }: { peaks: [number, number][]; duration: number; time: number; onSeek: (seconds: number) => void }) {
  const played = Math.min(1, time / duration) * peaks.length;
  const bars = (from: number, to: number) =>
    peaks
      .slice(from, to)
      .map(([min, max], index) => `M${from + index + 0.5} ${50 - Math.max(0.5, max * 48)}V${50 - Math.min(-0.5, min * 48)}`)
      .join("");
  return (
    <svg
      viewBox={`0 0 ${peaks.length} 100`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`Waveform of the recording, ${formatTranscriptTimecode(duration)} long; select a point to play from there`}
      className="h-14 w-full cursor-pointer rounded bg-white"
      onClick={(event) => {
        const box = event.currentTarget.getBoundingClientRect();
        onSeek(((event.clientX - box.left) / box.width) * duration);
      }}
    >
      <path d={bars(0, Math.floor(played))} stroke="currentColor" className="text-accent-700" strokeWidth={1} />
      <path d={bars(Math.floor(played), peaks.length)} stroke="currentColor" className="text-stone-400" strokeWidth={1} />
    </svg>
  );
}
