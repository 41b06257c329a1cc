/**
 * `npm run eval:objects`: leave-one-out over the demo's catalogued objects. Each object's
 * typology, material, period and date are proposed from its neighbours (never itself) as the
 * app proposes them, and compared with the catalogue:
 *   - typology and material top-1 accuracy (and period), beside the majority-class baseline;
 *   - the share of objects whose true date (the middle of its range) falls inside the proposed
 *     range, with the range's median width and the central estimate's median error;
 *   - similar-objects latency (hybrid, 12 results) p50 / p95;
 *   - the near-duplicate floor: similarity of a re-encoded, resized copy of an image to its
 *     original against the similarity of the nearest DIFFERENT object, so the default floor is
 *     read off rather than guessed.
 * Hybrid mode uses the object's other roles as context (the typology proposal sees material and
 * period, never the typology); visual mode uses the images alone.
 *   - the contradiction rate: the share of proposals that contradict what the record's own title
 *     and free-text fields state (respect-statements.ts), for the neighbours' vote alone (as
 *     proposals were made before) and for the proposals as made now; how many proposals come from
 *     the record's text and how often that stated value agrees with the catalogued one.
 *
 * The demo (full by default) is seeded once into .data/eval-cache/objects-<size>-<model>/ and
 * its objects described there (images and context only; no text passages are needed).
 *
 *   npm run eval:objects [-- --size small|full] [--per-section 300]
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pgvector from "pgvector";
import { openImage } from "../../lib/archive/image-limits";
import { systemPrincipal } from "../../lib/acl";
import { openDatabase } from "../../lib/db/database";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { createEmbedder, embedderConfigFromEnv } from "../../lib/rag/embed/create-embedder";
import { activateIndexSpace, ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { type CharacterisationMode, characteriseObject, proposedFieldValue, votedFieldValue } from "../../lib/rag/objects/characterise";
import { contradicts } from "../../lib/rag/objects/respect-statements";
import { fold, isPlaceholderValue } from "../../lib/rag/objects/record-statements";
import { createDescriptorEmbedder, imageSpaceName } from "../../lib/rag/embed/descriptor-embedder";
import { indexObjects } from "../../lib/rag/index/index-objects";
import { dateRangeOf, defaultProposalContextWeight, readObjectContext, roleValue } from "../../lib/rag/config/object-context";
import { type ObjectsRuntime, findSimilarObjects } from "../../lib/rag/objects/similar-objects";
import { demoObjectContexts } from "../../prisma/seed/demo-object-contexts";
import { seedDemo } from "../../prisma/seed/seed-demo";

function readArguments() {
  try {
    return parseArgs({ options: { size: { type: "string" }, "per-section": { type: "string", default: "300" } }, strict: true }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\nusage: npm run eval:objects [-- --size small|full] [--per-section 300]`);
    process.exit(2);
  }
}
const flags = readArguments();
const size = flags.size === "small" ? "small" : "full";
const perSection = Number(flags["per-section"]);

const started = performance.now();
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const descriptor = createDescriptorEmbedder();
const cacheDir = join(process.cwd(), ".data", "eval-cache", `objects-${size}-${embedder.provider}-${embedder.model}-${embedder.dimension}`);
const marker = join(cacheDir, "described.json");
mkdirSync(cacheDir, { recursive: true });
const storageDir = join(cacheDir, "media");
const db = await openDatabase({ dataDir: join(cacheDir, "pgdata") });
const space = await ensureIndexSpace(db.sql, {
  provider: embedder.provider,
  model: embedder.model,
  dimension: embedder.dimension,
  chunkerVersion: CHUNKER_VERSION,
});
await activateIndexSpace(db.sql, space.id);

if (!existsSync(marker)) {
  console.log(`Seeding the ${size} demo archive into ${cacheDir} and describing its objects (once)…`);
  if (!(await db.prisma.user.count())) await seedDemo(db.prisma, db.sql, { dataDir: join(process.cwd(), "prisma", "seed", "data"), storageDir, size });
  const ids = (
    await db.sql.query<{ id: string }>(`SELECT r.id FROM records r JOIN sections s ON s.id = r.section_id WHERE s.object_context IS NOT NULL ORDER BY r.id`)
  ).map((row) => row.id);
  const describeStarted = performance.now();
  for (let offset = 0; offset < ids.length; offset += 64) {
    await indexObjects({ sql: db.sql, storageDir, imageEmbedders: [descriptor], textSpace: space, embedder }, ids.slice(offset, offset + 64));
    process.stdout.write(`\r  described ${Math.min(ids.length, offset + 64)}/${ids.length} objects`);
  }
  await db.sql.exec("ANALYZE object_vectors");
  writeFileSync(marker, JSON.stringify({ objects: ids.length, seconds: (performance.now() - describeStarted) / 1000 }));
  console.log(`\n  done in ${((performance.now() - describeStarted) / 1000).toFixed(0)} s`);
}
const described = JSON.parse(readFileSync(marker, "utf8")) as { objects: number; seconds: number };
// The cached archive takes the demo's current object contexts (weights, floors) every run.
for (const [slug, objectContext] of Object.entries(demoObjectContexts)) {
  await db.sql.query(`UPDATE sections SET object_context = $2::jsonb WHERE slug = $1`, [slug, JSON.stringify(objectContext)]);
}

const runtime: ObjectsRuntime = { sql: db.sql, embedder, textSpace: space, descriptor, multimodal: null };
const sections = await db.sql.query<{ id: string; slug: string; name: string; object_context: unknown }>(
  `SELECT id, slug, name, object_context FROM sections WHERE object_context IS NOT NULL ORDER BY position`,
);

/** A deterministic sample: the records whose id hashes lowest. */
function sample<T extends { id: string }>(items: T[], count: number): T[] {
  const key = (id: string) => createHash("sha256").update(id).digest("hex");
  return [...items].sort((a, b) => key(a.id).localeCompare(key(b.id))).slice(0, count);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

const pct = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "–");

console.log(
  `\nMnemo eval:objects — ${size} demo, ${described.objects} objects described (${described.seconds.toFixed(0)} s), context model ${embedder.model}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"})`,
);
console.log(`Leave-one-out on up to ${perSection} catalogued objects per collection; the object itself never votes.\n`);

const latencies: number[] = [];
const rows: string[] = [];
const contradictionRows: string[] = [];
const totals = { voted: 0, votedContradicting: 0, proposed: 0, proposedContradicting: 0 };
for (const section of sections) {
  const context = readObjectContext(section.object_context);
  if (!context) continue;
  const records = await db.sql.query<{ id: string; values: Record<string, unknown> }>(`SELECT id, "values" FROM records WHERE section_id = $1`, [section.id]);
  const catalogued = records.filter((record) => roleValue(context, "typology", record.values));
  const chosen = sample(catalogued, perSection);
  // Majority-class baselines over the collection's catalogued objects.
  const majority = (role: "typology" | "material" | "period") => {
    const counts = new Map<string, number>();
    for (const record of catalogued) {
      const value = roleValue(context, role, record.values).toLowerCase();
      if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const best = [...counts.values()].sort((a, b) => b - a)[0] ?? 0;
    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    return total ? best / total : Number.NaN;
  };

  for (const mode of ["hybrid", "visual"] as CharacterisationMode[]) {
    const hits = { typology: [0, 0], material: [0, 0], period: [0, 0] } as Record<"typology" | "material" | "period", [number, number]>;
    let inRange = 0;
    let dated = 0;
    const widths: number[] = [];
    const errors: number[] = [];
    const timings: number[] = [];
    const c = {
      voted: 0,
      votedContradicting: 0,
      proposed: 0,
      proposedContradicting: 0,
      flagged: 0,
      stated: 0,
      statedAgree: 0,
      statedChecked: 0,
      votedPlaceholder: 0,
      proposedPlaceholder: 0,
    };
    /** Typology, material and period hits over objects catalogued with a real value (no placeholder). */
    const real = { right: 0, checked: 0 };
    for (const record of chosen) {
      const t0 = performance.now();
      const result = await characteriseObject(runtime, systemPrincipal, { recordId: record.id, mode });
      timings.push(performance.now() - t0);
      for (const role of result.roles) {
        const voted = votedFieldValue(role);
        const proposed = proposedFieldValue(role);
        if (voted !== null) {
          c.voted++;
          if (contradicts(role.role, voted, role.statements)) c.votedContradicting++;
          if (typeof voted === "string" && isPlaceholderValue(voted)) c.votedPlaceholder++;
        }
        if (proposed !== null) {
          c.proposed++;
          if (contradicts(role.role, proposed, role.statements)) c.proposedContradicting++;
          if (typeof proposed === "string" && isPlaceholderValue(proposed)) c.proposedPlaceholder++;
        } else if (role.judgement.flag) c.flagged++;
        if (role.judgement.source === "stated") c.stated++;
        if (role.role === "date") {
          const truth = context.roles.date ? dateRangeOf(record.values[context.roles.date]) : null;
          if (!truth || proposed === null || typeof proposed === "string") continue;
          dated++;
          const middle = (truth.from + truth.to) / 2;
          if (proposed.from <= middle && middle <= proposed.to) inRange++;
          if (role.judgement.source === "stated") {
            c.statedChecked++;
            if (proposed.from <= middle && middle <= proposed.to) c.statedAgree++;
          }
          widths.push(proposed.to - proposed.from);
          const central = role.judgement.source === "votes" && role.date ? role.date.central : (proposed.from + proposed.to) / 2;
          errors.push(Math.abs(central - middle));
        } else {
          const truth = roleValue(context, role.role, record.values).toLowerCase();
          if (!truth) continue;
          const tally = hits[role.role];
          tally[1]++;
          if (typeof proposed === "string" && fold(proposed) === fold(truth)) tally[0]++;
          if (!isPlaceholderValue(truth)) {
            real.checked++;
            if (typeof proposed === "string" && fold(proposed) === fold(truth)) real.right++;
          }
          if (role.judgement.source === "stated" && typeof proposed === "string") {
            c.statedChecked++;
            if (fold(proposed) === fold(truth)) c.statedAgree++;
          }
        }
      }
    }
    contradictionRows.push(
      `| ${section.name} | ${mode} | ${c.voted} | ${pct(c.votedContradicting / c.voted)} (${c.votedContradicting}) | ${c.proposed} | ${pct(c.proposedContradicting / c.proposed)} (${c.proposedContradicting}) | ${c.flagged} | ${c.stated} | ${pct(c.statedAgree / c.statedChecked)} of ${c.statedChecked} | ${c.votedPlaceholder} | ${c.proposedPlaceholder} | ${pct(real.right / real.checked)} of ${real.checked} |`,
    );
    if (mode === "hybrid") {
      totals.voted += c.voted;
      totals.votedContradicting += c.votedContradicting;
      totals.proposed += c.proposed;
      totals.proposedContradicting += c.proposedContradicting;
    }
    rows.push(
      `| ${section.name} | ${mode} | ${chosen.length} | ${pct(hits.typology[0] / hits.typology[1])} (${pct(majority("typology"))}) | ${pct(hits.material[0] / hits.material[1])} (${pct(majority("material"))}) | ${pct(hits.period[0] / hits.period[1])} (${pct(majority("period"))}) | ${pct(inRange / dated)} of ${dated} | ${quantile(widths, 0.5).toFixed(0)} y | ${quantile(errors, 0.5).toFixed(0)} y | ${quantile(timings, 0.5).toFixed(0)} ms |`,
    );
  }
  for (const record of chosen.slice(0, 100)) {
    const t0 = performance.now();
    await findSimilarObjects(runtime, systemPrincipal, { recordId: record.id, mode: "hybrid", limit: 12 });
    latencies.push(performance.now() - t0);
  }
}

console.log(
  `Proposal context weight per collection: ${sections.map((section) => `${section.name} ${readObjectContext(section.object_context)?.proposalContextWeight ?? defaultProposalContextWeight}`).join(", ")}.\n`,
);
console.log(
  "| collection | mode | objects | typology top-1 (majority) | material (majority) | period (majority) | true date inside range | median range width | median central error | characterise p50 |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
console.log(
  "\nContradiction rate: proposals that contradict the record's own title and free-text fields (a stated date range, a period whose catalogued span excludes it, a different stated vocabulary term).",
);
console.log("'votes' = the neighbours' vote alone, as proposals were made before the record's text counted; 'proposals' = as made now.");
console.log(
  "| collection | mode | votes | votes contradicting | proposals | proposals contradicting | flagged, not proposed | stated in the record | stated agrees with catalogue | votes for a placeholder | placeholders proposed | typology, material, period right where the catalogue has a real value |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const row of contradictionRows) console.log(row);
console.log(
  `Hybrid, all collections: votes contradicting ${pct(totals.votedContradicting / totals.voted)} (${totals.votedContradicting} of ${totals.voted}), proposals contradicting ${pct(totals.proposedContradicting / totals.proposed)} (${totals.proposedContradicting} of ${totals.proposed}).`,
);
console.log(
  `\nSimilar objects (hybrid, 12 results), ${latencies.length} queries: p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p95 ${quantile(latencies, 0.95).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
);

// Near-duplicate floor: copies (JPEG q70, resized to 200 px, as a re-photographed scan would
// differ) against their originals, and every sampled image's nearest different object.
const spaceName = imageSpaceName(descriptor);
const vectors = await db.sql.query<{ record_id: string; media_id: string; view: string; vector: string }>(
  `SELECT record_id, media_id, view, embedding::text AS vector FROM object_vectors WHERE space = $1 AND kind = 'image'`,
  [spaceName],
);
const parsed = vectors.map((row) => ({ ...row, values: pgvector.fromSql(row.vector) as number[] }));
const byView = new Map<string, typeof parsed>();
for (const row of parsed) byView.set(row.view, [...(byView.get(row.view) ?? []), row]);
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);
const copies: number[] = [];
const nearestOther: number[] = [];
for (const row of sample(
  parsed.map((item) => ({ ...item, id: item.media_id })),
  200,
)) {
  const media = await db.prisma.media.findUniqueOrThrow({ where: { id: row.media_id } });
  const original = readFileSync(join(storageDir, media.storageKey));
  const copy = await openImage(original).resize(200, 200).jpeg({ quality: 70 }).toBuffer();
  const [vector] = await descriptor.embedImages([{ bytes: copy, mime: "image/jpeg" }]);
  if (vector) copies.push(dot(Array.from(vector), row.values));
  let best = -1;
  for (const other of byView.get(row.view) ?? []) if (other.record_id !== row.record_id) best = Math.max(best, dot(other.values, row.values));
  nearestOther.push(best);
}
const copyLow = quantile(copies, 0.01);
const otherHigh = quantile(nearestOther, 0.99);
console.log(
  `\nNear-duplicate floor (${copies.length} images): re-encoded copies vs original min ${Math.min(...copies).toFixed(3)}, p1 ${copyLow.toFixed(3)}, median ${quantile(copies, 0.5).toFixed(3)}`,
);
console.log(
  `  nearest different object: median ${quantile(nearestOther, 0.5).toFixed(3)}, p99 ${otherHigh.toFixed(3)}, max ${Math.max(...nearestOther).toFixed(3)}`,
);
console.log("  | floor | copies kept | different objects above it |");
console.log("  |---|---|---|");
let bestFloor = { floor: 0, score: -Infinity };
for (const floor of [0.85, 0.9, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99]) {
  const kept = copies.filter((value) => value >= floor).length / copies.length;
  const above = nearestOther.filter((value) => value >= floor).length / nearestOther.length;
  if (kept - above > bestFloor.score) bestFloor = { floor, score: kept - above };
  console.log(`  | ${floor.toFixed(2)} | ${pct(kept)} | ${pct(above)} |`);
}
console.log(`  best separation (copies kept − different objects above): ${bestFloor.floor.toFixed(2)}`);
console.log(
  `  ${copyLow > otherHigh ? `separated: a floor between ${otherHigh.toFixed(3)} and ${copyLow.toFixed(3)} keeps copies and drops different objects` : "NOT separated: copies and different objects overlap at the 1%/99% points"}`,
);
console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s.`);
await db.close();
