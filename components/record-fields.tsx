import Link from "next/link";
import type { ReactNode } from "react";
import { authorityLabel, authorityName, recogniseAuthorityUri } from "@/lib/archive/authorities";
import { authorityLinksOf } from "@/lib/archive/authority-text";
import { readDateValue } from "@/lib/archive/date-values";
import type { FieldDefinition, IndexSegment, TranscriptTurn } from "@/lib/archive/field-definitions";
import type { MediaSummary, RecordDetail } from "@/lib/archive/get-record";
import { formatTimecode } from "./format";
import { IndexSegmentList } from "./index-segment-list";
import { LongText } from "./long-text";
import { MarkedText } from "./marked-text";
import { type CaptionTrack, MediaPlayerClient } from "./media-player-client";
import type { ScanPage } from "@/lib/archive/scan-pages";
import { ScanPages } from "./scan-pages";

type ShortField = Extract<FieldDefinition, { type: "text" | "category" | "date" | "daterange" | "relation" | "authority" }>;
type ImageField = Extract<FieldDefinition, { type: "image" }>;
type MediaField = Extract<FieldDefinition, { type: "media" }>;
type TranscriptField = Extract<FieldDefinition, { type: "transcript" }>;
type SegmentsField = Extract<FieldDefinition, { type: "segments" }>;

type Item =
  | { kind: "short"; entries: { field: ShortField; content: ReactNode }[] }
  | { kind: "images"; fields: { field: ImageField; mediaId: string }[] }
  | { kind: "longtext"; field: FieldDefinition; text: string }
  | { kind: "segments"; field: SegmentsField; segments: IndexSegment[] }
  | { kind: "scan"; field: FieldDefinition; mediaId: string }
  | {
      kind: "player";
      media?: { field: MediaField; mediaId: string };
      transcript?: { field: TranscriptField; turns: TranscriptTurn[] };
      index?: { field: SegmentsField; segments: IndexSegment[] };
    };

function isTurnList(value: unknown): value is TranscriptTurn[] {
  return Array.isArray(value) && value.length > 0;
}

function isSegmentList(value: unknown): value is IndexSegment[] {
  return Array.isArray(value) && value.length > 0;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shortContent(field: ShortField, value: unknown, record: RecordDetail): ReactNode {
  switch (field.type) {
    case "text": {
      if (typeof value !== "string" || !value) return null;
      return /^https?:\/\/\S+$/.test(value) ? (
        <a href={value} className="link break-all" rel="noopener noreferrer" target="_blank">
          {value}
        </a>
      ) : (
        value
      );
    }
    case "category":
      return typeof value === "string" && value ? (
        <span className="inline-block rounded-full border border-accent-200 bg-accent-50 px-2.5 py-0.5 text-xs font-medium text-accent-900">{value}</span>
      ) : null;
    case "date":
    case "daterange": {
      // As written; the reading (EDTF and in words) on hover, when it says more than the text.
      const date = readDateValue(value);
      if (!date) return null;
      return date.shown === date.display ? date.shown : <span title={`${date.display} (EDTF ${date.edtf})`}>{date.shown}</span>;
    }
    case "relation": {
      // Only targets the reader may see are in `relations`; the others are simply not shown.
      const ids = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === "string");
      const targets = ids.map((id) => record.relations[id]).filter((target) => target !== undefined);
      if (targets.length === 0) return null;
      return (
        <ul className="space-y-0.5">
          {targets.map((target) => (
            <li key={target.id}>
              <Link href={`/records/${target.id}`} className="link">
                {target.title}
              </Link>
              <span className="text-xs text-stone-500"> · {target.sectionName}</span>
            </li>
          ))}
        </ul>
      );
    }
    case "authority": {
      // Each link as its label, to the authority's page, the authority named beside it. Only a
      // URI of a known authority is a link (never a javascript: or other scheme).
      const links = authorityLinksOf(value);
      if (links.length === 0) return null;
      return (
        <ul className="space-y-0.5">
          {links.map((link) => {
            const scheme = recogniseAuthorityUri(link.uri)?.scheme;
            return (
              <li key={link.uri}>
                {scheme ? (
                  <a href={link.uri} className="link" rel="noopener noreferrer" target="_blank">
                    {authorityLabel(link)}
                  </a>
                ) : (
                  authorityLabel(link)
                )}
                {scheme && <span className="text-xs text-stone-500"> · {authorityName(scheme)}</span>}
              </li>
            );
          })}
        </ul>
      );
    }
  }
}

/** Groups the record's fields, in definition order, into what the page renders. */
function layoutItems(record: RecordDetail): Item[] {
  const { fields } = record.section;
  const { values, media } = record;
  const mediaIdOf = (field: FieldDefinition) => {
    const id = values[field.key];
    return typeof id === "string" && media[id] ? id : undefined;
  };

  // A transcript is shown beside the player of its media field (or the section's first).
  const pairOfTranscript = new Map<string, string>();
  const pairOfMedia = new Map<string, string>();
  for (const field of fields) {
    if (field.type !== "transcript" || !isTurnList(values[field.key])) continue;
    const mediaField = fields.find((candidate) => candidate.type === "media" && (field.mediaField ? candidate.key === field.mediaField : true));
    if (mediaField && mediaIdOf(mediaField) && !pairOfMedia.has(mediaField.key)) {
      pairOfTranscript.set(field.key, mediaField.key);
      pairOfMedia.set(mediaField.key, field.key);
    }
  }

  // An index is shown with the player of its media field (or the section's first), below the transcript.
  const indexOfMedia = new Map<string, SegmentsField>();
  for (const field of fields) {
    if (field.type !== "segments" || !isSegmentList(values[field.key])) continue;
    const mediaField = fields.find((candidate) => candidate.type === "media" && (field.mediaField ? candidate.key === field.mediaField : true));
    if (mediaField && mediaIdOf(mediaField) && !indexOfMedia.has(mediaField.key)) indexOfMedia.set(mediaField.key, field);
  }

  const items: Item[] = [];
  // The title field is the page's heading already.
  const titleField = fields.find((field) => field.type === "text");
  const done = new Set<string>(titleField && values[titleField.key] === record.title ? [titleField.key] : []);
  const byKey = new Map(fields.map((field) => [field.key, field]));
  for (const field of fields) {
    if (done.has(field.key)) continue;
    done.add(field.key);
    const value = values[field.key];
    const last = items.at(-1);
    switch (field.type) {
      case "text":
      case "category":
      case "date":
      case "daterange":
      case "relation":
      case "authority": {
        const content = shortContent(field, value, record);
        if (content === null) break;
        if (last?.kind === "short") last.entries.push({ field, content });
        else items.push({ kind: "short", entries: [{ field, content }] });
        break;
      }
      case "image": {
        const mediaId = mediaIdOf(field);
        if (!mediaId) break;
        if (last?.kind === "images") last.fields.push({ field, mediaId });
        else items.push({ kind: "images", fields: [{ field, mediaId }] });
        break;
      }
      case "longtext":
        if (typeof value === "string" && value.trim()) items.push({ kind: "longtext", field, text: value });
        break;
      case "scan": {
        const mediaId = mediaIdOf(field);
        if (mediaId) items.push({ kind: "scan", field, mediaId });
        break;
      }
      case "media":
      case "transcript": {
        const mediaField = (field.type === "media" ? field : byKey.get(pairOfTranscript.get(field.key) ?? "")) as MediaField | undefined;
        const transcriptField = (field.type === "transcript" ? field : byKey.get(pairOfMedia.get(field.key) ?? "")) as TranscriptField | undefined;
        const mediaId = mediaField ? mediaIdOf(mediaField) : undefined;
        const turns = transcriptField ? values[transcriptField.key] : undefined;
        const indexField = mediaField && mediaId ? indexOfMedia.get(mediaField.key) : undefined;
        const segments = indexField ? values[indexField.key] : undefined;
        if (mediaField) done.add(mediaField.key);
        if (transcriptField) done.add(transcriptField.key);
        if (indexField) done.add(indexField.key);
        if (!mediaId && !isTurnList(turns)) break;
        items.push({
          kind: "player",
          media: mediaField && mediaId ? { field: mediaField, mediaId } : undefined,
          transcript: transcriptField && isTurnList(turns) ? { field: transcriptField, turns } : undefined,
          index: indexField && isSegmentList(segments) ? { field: indexField, segments } : undefined,
        });
        break;
      }
      case "segments":
        // Not beside a player (no recording uploaded): a plain list.
        if (isSegmentList(value)) items.push({ kind: "segments", field, segments: value });
        break;
    }
  }
  return items;
}

/** Every field of a record, rendered by type in the section's order. */
export function RecordFields({
  record,
  startAt,
  scans,
  cited,
  captions,
  textEnglish,
  terms = [],
}: {
  record: RecordDetail;
  startAt?: number;
  /** The read pages of the record's scans, by media id. */
  scans?: Record<string, ScanPage[]>;
  /** A cited passage on a page: its words are marked on that page of the scans. */
  cited?: { page: number; text: string };
  /** Caption files of the record's transcripts, by field key (none: no tracks, no links). */
  captions?: Record<string, TranscriptCaptions>;
  /** Long text fields whose English beside each paragraph can be made, by field key. */
  textEnglish?: Record<string, boolean>;
  /** Words of the search the page was opened from, marked in texts, transcripts and their English. */
  terms?: readonly string[];
}) {
  const items = layoutItems(record);
  if (items.length === 0) return <p className="text-sm text-stone-600">This record has no values yet.</p>;
  const pageIds = new Set<number>();
  // The first player with a transcript is the page's main player (citations open its moments);
  // without one, the first player.
  const players = items.filter((item) => item.kind === "player" && item.media);
  const primary = players.find((item) => item.kind === "player" && item.transcript) ?? players[0];

  return (
    <div className="space-y-8">
      {items.map((item, index) => {
        switch (item.kind) {
          case "short":
            return (
              <dl key={index} className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-[11rem_1fr]">
                {item.entries.map(({ field, content }) => (
                  <div key={field.key} className="contents">
                    <dt className="text-sm font-medium text-stone-500">{field.label}</dt>
                    <dd className="text-stone-900">{content}</dd>
                  </div>
                ))}
              </dl>
            );
          case "images":
            return (
              <div key={index} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                {item.fields.map(({ field, mediaId }) => {
                  const summary = record.media[mediaId];
                  if (summary?.imageCheck === "undecodable") {
                    return (
                      <figure key={field.key} className="rounded-lg border border-amber-300 bg-amber-50 p-3">
                        <p className="text-sm text-amber-900">
                          This image could not be decoded: the file may be damaged or incomplete. It is kept as uploaded;{" "}
                          <a href={`/api/media/${mediaId}`} download className="underline">
                            download {summary.originalName}
                          </a>{" "}
                          to check it, or replace it with a readable copy.
                        </p>
                        <figcaption className="mt-2 text-center text-sm text-stone-600">{capitalise(field.view)}</figcaption>
                      </figure>
                    );
                  }
                  return (
                    <figure key={field.key} className="rounded-lg border border-stone-200 bg-white p-3">
                      {/* Authenticated, access-checked media: not for the public image optimiser. */}
                      {/* eslint-disable-next-line @next/next/no-img-element */}
                      <img
                        src={`/api/media/${mediaId}`}
                        alt={`${record.title} — ${field.view}`}
                        loading="lazy"
                        width={summary?.width ?? undefined}
                        height={summary?.height ?? undefined}
                        className="mx-auto h-auto max-h-96 w-auto max-w-full rounded"
                      />
                      <figcaption className="mt-2 text-center text-sm text-stone-600">{capitalise(field.view)}</figcaption>
                    </figure>
                  );
                })}
              </div>
            );
          case "longtext":
            return (
              <section key={index} aria-labelledby={`field-${item.field.key}`}>
                <h2 id={`field-${item.field.key}`} className="text-lg font-semibold">
                  {item.field.label}
                </h2>
                <LongText
                  text={item.text}
                  pageIds={pageIds}
                  terms={terms}
                  english={textEnglish?.[item.field.key] ? { src: `/api/records/${record.id}/english/${item.field.key}`, label: item.field.label } : undefined}
                />
              </section>
            );
          case "segments":
            return (
              <div key={index} id={`field-${item.field.key}`}>
                <IndexSegmentList label={item.field.label} segments={item.segments} />
              </div>
            );
          case "scan":
            return (
              <section key={index} aria-labelledby={`field-${item.field.key}`}>
                <h2 id={`field-${item.field.key}`} className="mb-3 text-lg font-semibold">
                  {item.field.label}
                  <a href={`/api/media/${item.mediaId}`} className="link ml-2 text-sm font-normal">
                    Download {record.media[item.mediaId]?.originalName ?? "the file"}
                  </a>
                </h2>
                <ScanPages
                  mediaId={item.mediaId}
                  fieldKey={item.field.key}
                  label={`${record.title} — ${item.field.label}`}
                  pages={scans?.[item.mediaId]}
                  cited={cited}
                  terms={terms}
                />
              </section>
            );
          case "player": {
            const heading = item.media?.field.label ?? item.transcript?.field.label ?? "";
            const headingId = `field-${item.media?.field.key ?? item.transcript?.field.key}`;
            return (
              <section key={index} aria-labelledby={headingId}>
                <h2 id={headingId} className="mb-3 text-lg font-semibold">
                  {heading}
                  {item.media && item.transcript && (
                    <span className="ml-2 text-sm font-normal text-stone-500">with {item.transcript.field.label.toLowerCase()}</span>
                  )}
                </h2>
                {item.transcript && captions?.[item.transcript.field.key] && (
                  <CaptionDownloads
                    recordId={record.id}
                    fieldKey={item.transcript.field.key}
                    label={item.transcript.field.label}
                    captions={captions[item.transcript.field.key]!}
                  />
                )}
                {item.media ? (
                  <MediaPlayerClient
                    src={`/api/media/${item.media.mediaId}?variant=stream`}
                    kind={item.media.field.mediaKind}
                    label={`${item.media.field.label}: ${record.title}`}
                    primary={item === primary}
                    startAt={item === primary ? startAt : undefined}
                    transcript={item.transcript ? { label: item.transcript.field.label, turns: item.transcript.turns } : undefined}
                    recordingIndex={item.index ? { label: item.index.field.label, segments: item.index.segments } : undefined}
                    waveform={waveformOf(record.media[item.media.mediaId])}
                    captions={item.transcript ? captionTracksOf(record.id, item.transcript.field.key, captions?.[item.transcript.field.key]) : undefined}
                    translation={item.transcript ? translationOf(record.id, item.transcript.field.key, captions?.[item.transcript.field.key]) : undefined}
                    terms={terms}
                  />
                ) : (
                  item.transcript && <StaticTranscript turns={item.transcript.turns} terms={terms} />
                )}
              </section>
            );
          }
        }
      })}
    </div>
  );
}

/** What the record page knows of a transcript's caption files: its language, and whether an English track exists. */
export interface TranscriptCaptions {
  language: string | null;
  english: boolean;
}

const languageNames: Record<string, string> = { en: "English", es: "Spanish", ca: "Catalan" };

function captionsHref(recordId: string, file: string): string {
  return `/api/records/${recordId}/captions/${file}`;
}

/** The player's tracks: the transcript's own language first (shown by default), then English by machine translation. */
/** The English of a Spanish or Catalan transcript, turn by turn, when the bridge makes one. */
function translationOf(recordId: string, fieldKey: string, captions: TranscriptCaptions | undefined): { src: string; fromLanguage: string } | undefined {
  if (!captions?.english) return undefined;
  return { src: captionsHref(recordId, `${fieldKey}.en.json`), fromLanguage: (captions.language && languageNames[captions.language]) || "Spanish or Catalan" };
}

function captionTracksOf(recordId: string, fieldKey: string, captions: TranscriptCaptions | undefined): CaptionTrack[] | undefined {
  if (!captions) return undefined;
  const original = captions.language ? languageNames[captions.language] : undefined;
  const tracks: CaptionTrack[] = [
    { src: captionsHref(recordId, `${fieldKey}.vtt`), language: captions.language ?? undefined, label: original ?? "Transcript" },
  ];
  if (captions.english) tracks.push({ src: captionsHref(recordId, `${fieldKey}.en.vtt`), language: "en", label: "English (machine translation)" });
  return tracks;
}

function CaptionDownloads({ recordId, fieldKey, label, captions }: { recordId: string; fieldKey: string; label: string; captions: TranscriptCaptions }) {
  return (
    <p className="-mt-2 mb-3 text-sm text-stone-600">
      {label}:{" "}
      <a href={captionsHref(recordId, `${fieldKey}.vtt`)} className="link" download>
        WebVTT
      </a>
      {" · "}
      <a href={captionsHref(recordId, `${fieldKey}.srt`)} className="link" download>
        SRT
      </a>
      {captions.english && (
        <>
          {" · English (machine translation): "}
          <a href={captionsHref(recordId, `${fieldKey}.en.vtt`)} className="link" download>
            WebVTT
          </a>
          {" · "}
          <a href={captionsHref(recordId, `${fieldKey}.en.srt`)} className="link" download>
            SRT
          </a>
        </>
      )}
    </p>
  );
}

function waveformOf(media: MediaSummary | undefined): { peaks: [number, number][]; duration: number } | undefined {
  return media?.peaks && media.durationSeconds ? { peaks: media.peaks, duration: media.durationSeconds } : undefined;
}

function StaticTranscript({ turns, terms }: { turns: TranscriptTurn[]; terms: readonly string[] }) {
  return (
    <ol className="space-y-2 text-sm">
      {turns.map((turn, index) => (
        <li key={index} className="grid grid-cols-[4.5rem_1fr] gap-x-3">
          <span className="font-mono text-xs leading-6 text-stone-500">{formatTimecode(turn.start)}</span>
          <span>
            {turn.speaker && <span className="font-semibold">{turn.speaker}: </span>}
            <MarkedText text={turn.text} terms={terms} />
          </span>
        </li>
      ))}
    </ol>
  );
}
