/**
 * `npm run eval:segmentation`: how well silence detection finds the turns of the demo's 12
 * interviews (espeak-ng speech whose turn timecodes were measured from the audio, see
 * scripts/synthesize-oral-histories.sh), at the settings the index worker uses and around them.
 * For each setting: the turns whose start has a segment start within 0.1 s, the median and
 * largest distance, and how many segments were drafted (ideally one per turn).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectSilences, probeRecording } from "../../lib/archive/audio-intake";
import { silenceMinSeconds, silenceNoiseDecibels, speechSegments } from "../../lib/archive/speech-segments";

const dataDir = join(process.cwd(), "prisma/seed/data/oral-histories");
const interviews = JSON.parse(readFileSync(join(dataDir, "interviews.json"), "utf8")) as { audio: string; turns: { start: number }[] }[];
const durations = await Promise.all(interviews.map(async (interview) => (await probeRecording(join(dataDir, "audio", interview.audio))).durationSeconds));

console.log(`Mnemo eval:segmentation — ${interviews.length} demo interviews, ${interviews.reduce((sum, interview) => sum + interview.turns.length, 0)} turns`);
console.log("| noise | pause | turn starts within 0.1 s | median distance | largest | segments | |");
console.log("|---|---|---|---|---|---|---|");
for (const noiseDecibels of [-30, -35, -40, -50]) {
  for (const minSeconds of [0.2, 0.3, 0.5]) {
    let found = 0;
    let turns = 0;
    let segments = 0;
    const distances: number[] = [];
    for (const [index, interview] of interviews.entries()) {
      const path = join(dataDir, "audio", interview.audio);
      const duration = durations[index] ?? 0;
      const starts = speechSegments(await detectSilences(path, duration, { noiseDecibels, minSeconds }), duration).map((segment) => segment.start);
      segments += starts.length;
      for (const turn of interview.turns) {
        turns++;
        const distance = Math.min(...starts.map((start) => Math.abs(start - turn.start)));
        if (distance <= 0.1) found++;
        distances.push(distance);
      }
    }
    distances.sort((a, b) => a - b);
    const used = noiseDecibels === silenceNoiseDecibels && minSeconds === silenceMinSeconds ? "← used" : "";
    console.log(
      `| ${noiseDecibels} dB | ${minSeconds} s | ${found}/${turns} | ${(distances[distances.length >> 1] ?? 0).toFixed(3)} s | ${(distances.at(-1) ?? 0).toFixed(3)} s | ${segments} | ${used} |`,
    );
  }
}
