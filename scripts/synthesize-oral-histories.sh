#!/usr/bin/env bash
# -----------------------------------------------------------------------------
# synthesize-oral-histories.sh
#
# NOTE: The audio produced by this script is SYNTHESISED SPEECH generated with
# espeak-ng for the Mnemo demo. The interviews are fiction written for the
# demo; no real person was recorded and the voices are not real narrators.
#
# Source of truth: prisma/seed/data/oral-histories/interviews.json (turn texts,
# speakers, languages). people.json maps each turn's speaker name to a person
# key, which selects the espeak-ng voice below.
#
# For every interview the script:
#   1. synthesises each turn to its own WAV with espeak-ng (voice per speaker,
#      language per interview: en / es / ca),
#   2. measures each WAV's exact duration with `soxi -D`,
#   3. concatenates the turns with a fixed silence of $GAP seconds between them
#      (sox), and encodes mono Ogg Opus at $BITRATE kbps (opusenc),
#   4. writes back turns[].start / turns[].end (cumulative measured durations,
#      rounded to 2 decimals), durationSeconds (measured from the encoded file
#      with opusinfo) and audio into interviews.json. Nothing else is changed.
#
# The script is idempotent and can be rerun at any time.
#
# Usage:   scripts/synthesize-oral-histories.sh [interview-key ...]
#          (no arguments = all interviews)
# Needs:   espeak-ng, sox (sox + soxi), opus-tools (opusenc + opusinfo), node
#          Debian/Ubuntu: apt-get install -y espeak-ng opus-tools sox
# -----------------------------------------------------------------------------
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/prisma/seed/data/oral-histories"
AUDIO="$DATA/audio"
GAP="${GAP:-0.6}"          # seconds of silence between turns
BITRATE="${BITRATE:-14}"   # kbps, Opus

for tool in espeak-ng sox soxi opusenc opusinfo node; do
  command -v "$tool" >/dev/null || { echo "missing required tool: $tool" >&2; exit 1; }
done

# Voice per person key: "<espeak variant> <pitch 0-99> <speed wpm>".
# The language part of the voice comes from the interview (-v <lang>+<variant>).
declare -A VOICE=(
  # interviewers
  [marta-puig]="f2 62 177"
  [helen-ashworth]="f3 58 177"
  [javier-ortega]="m3 45 177"
  [lucia-ferrer]="f4 60 180"
  # valley
  [josep-farre]="m1 30 157"
  [roser-cases]="f1 48 162"
  [andres-bielsa]="m2 38 167"
  [montserrat-farre]="f5 52 170"
  # harbour
  [carmen-roldan]="f1 50 162"
  [pere-vidal]="m4 28 152"
  [dolores-martinez]="f5 45 162"
  [ramon-soler]="m7 35 157"
  [gillian-hart]="f2 52 170"
  # mine
  [tony-llorens]="m3 40 167"
  [susan-grau]="f4 55 172"
  [francisco-jimenez]="m6 32 160"
  [rosa-amoros]="f3 46 162"
)
DEFAULT_INTERVIEWER_VOICE="f2 60 177"
DEFAULT_NARRATOR_VOICE="m3 40 167"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# --- 1. Export turn texts and a manifest from interviews.json ----------------
# manifest.tsv: key <TAB> turnIndex <TAB> lang <TAB> personKey <TAB> role
node --input-type=commonjs - "$DATA" "$TMP" "$@" <<'NODE'
const fs = require("fs");
const path = require("path");
const [dataDir, tmp, ...only] = process.argv.slice(2);
const interviews = JSON.parse(fs.readFileSync(path.join(dataDir, "interviews.json"), "utf8"));
const people = JSON.parse(fs.readFileSync(path.join(dataDir, "people.json"), "utf8"));
const byName = new Map(people.map((p) => [p.name, p.key]));
const keys = new Set(interviews.map((i) => i.key));
for (const k of only) if (!keys.has(k)) { console.error(`unknown interview key: ${k}`); process.exit(1); }
const lines = [];
for (const iv of interviews) {
  if (only.length && !only.includes(iv.key)) continue;
  if (!["en", "es", "ca"].includes(iv.language)) { console.error(`${iv.key}: bad language ${iv.language}`); process.exit(1); }
  fs.mkdirSync(path.join(tmp, iv.key), { recursive: true });
  iv.turns.forEach((t, i) => {
    const person = byName.get(t.speaker);
    if (!person) { console.error(`${iv.key} turn ${i}: speaker "${t.speaker}" not found in people.json`); process.exit(1); }
    const role = person === iv.interviewer ? "interviewer" : "narrator";
    const text = t.text.replace(/\s+/g, " ").trim();
    fs.writeFileSync(path.join(tmp, iv.key, `${String(i).padStart(3, "0")}.txt`), text + "\n");
    lines.push([iv.key, i, iv.language, person, role].join("\t"));
  });
}
fs.writeFileSync(path.join(tmp, "manifest.tsv"), lines.join("\n") + (lines.length ? "\n" : ""));
NODE

mkdir -p "$AUDIO"
: > "$TMP/timings.tsv"     # key idx start end
: > "$TMP/durations.tsv"   # key durationSeconds

# --- 2. Synthesise every turn ------------------------------------------------
while IFS=$'\t' read -r key idx lang person role; do
  voice="${VOICE[$person]:-}"
  if [[ -z "$voice" ]]; then
    [[ "$role" == interviewer ]] && voice="$DEFAULT_INTERVIEWER_VOICE" || voice="$DEFAULT_NARRATOR_VOICE"
  fi
  read -r variant pitch speed <<<"$voice"
  n="$(printf '%03d' "$idx")"
  espeak-ng -v "${lang}+${variant}" -p "$pitch" -s "$speed" \
    -f "$TMP/$key/$n.txt" -w "$TMP/$key/$n.wav"
done < "$TMP/manifest.tsv"

# --- 3. Measure, concatenate, encode -----------------------------------------
serial=1000
for key in $(cut -f1 "$TMP/manifest.tsv" | uniq); do
  dir="$TMP/$key"
  mapfile -t wavs < <(ls "$dir"/*.wav | sort)
  # silence in exactly the same format as espeak-ng's output
  rate="$(soxi -r "${wavs[0]}")"
  sox -R -n -r "$rate" -c 1 -b 16 -e signed-integer "$dir/gap.wav" trim 0 "$GAP"

  parts=()
  cum="0"
  for i in "${!wavs[@]}"; do
    d="$(soxi -D "${wavs[$i]}")"
    if (( i > 0 )); then
      parts+=("$dir/gap.wav")
      cum="$(awk -v c="$cum" -v g="$GAP" 'BEGIN { printf "%.6f", c + g }')"
    fi
    parts+=("${wavs[$i]}")
    awk -v k="$key" -v i="$i" -v s="$cum" -v d="$d" \
      'BEGIN { printf "%s\t%d\t%.2f\t%.2f\n", k, i, s + 1e-9, s + d + 1e-9 }' >> "$TMP/timings.tsv"
    cum="$(awk -v c="$cum" -v d="$d" 'BEGIN { printf "%.6f", c + d }')"
  done

  # -R: repeatable (fixed dither seed) so reruns give byte-identical audio
  sox -R "${parts[@]}" "$dir/full.wav" norm -1
  serial=$((serial + 1))
  opusenc --quiet --bitrate "$BITRATE" --downmix-mono --serial "$serial" \
    --title "$key" --artist "Mnemo demo (synthesised speech, espeak-ng)" \
    "$dir/full.wav" "$AUDIO/$key.ogg"

  # "Playback length: 1m:23.420s" -> seconds, rounded UP to 2 decimals so that
  # the last turn's (rounded) end never exceeds durationSeconds.
  dur="$(opusinfo "$AUDIO/$key.ogg" \
    | sed -n 's/.*Playback length: *\([0-9]*\)m:\([0-9.]*\)s.*/\1 \2/p' \
    | awk '{ t = ($1 * 60 + $2) * 100; c = int(t); if (t - c > 1e-6) c++; printf "%.2f", c / 100 }')"
  [[ -n "$dur" ]] || { echo "$key: could not read duration from opusinfo" >&2; exit 1; }
  wavdur="$(soxi -D "$dir/full.wav")"
  printf '%s\t%s\n' "$key" "$dur" >> "$TMP/durations.tsv"
  printf '%-12s turns=%-3d wav=%8.3fs  ogg=%7ss  %6d bytes\n' \
    "$key" "${#wavs[@]}" "$wavdur" "$dur" "$(stat -c %s "$AUDIO/$key.ogg")"
done

# --- 4. Write timecodes back into interviews.json ----------------------------
node --input-type=commonjs - "$DATA" "$TMP" <<'NODE'
const fs = require("fs");
const path = require("path");
const [dataDir, tmp] = process.argv.slice(2);
const file = path.join(dataDir, "interviews.json");
const interviews = JSON.parse(fs.readFileSync(file, "utf8"));
const read = (f) => fs.readFileSync(path.join(tmp, f), "utf8").split("\n").filter(Boolean).map((l) => l.split("\t"));
const byKey = new Map(interviews.map((iv) => [iv.key, iv]));
for (const [key, idx, start, end] of read("timings.tsv")) {
  const turn = byKey.get(key).turns[Number(idx)];
  turn.start = Number(start);
  turn.end = Number(end);
}
for (const [key, dur] of read("durations.tsv")) {
  const iv = byKey.get(key);
  iv.durationSeconds = Number(dur);
  iv.audio = `${key}.ogg`;
}
fs.writeFileSync(file, JSON.stringify(interviews, null, 2) + "\n");
NODE

echo "updated $(wc -l < "$TMP/durations.tsv") interview(s) in ${DATA#$ROOT/}/interviews.json"
