import "server-only";
import { type Principal, actorIdOf, canEdit, egressAllowed, isAdmin, mayLeaveHost, projectScopeWhere } from "../acl";
import { audit } from "../db/audit";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import { isUuid } from "../ids";
import { transcriptFieldsOf } from "./audio-intake";
import { enqueueIndexing } from "./enqueue-indexing";
import { type FieldDefinition, type TranscriptTurn, sectionFieldsSchema } from "./field-definitions";
import type { SpeechToText } from "./speech-to-text";
import { serializeTranscript } from "./transcript-text";

/**
 * Transcript drafts for the record editor: a skeleton of timecoded empty turns from silence
 * detection, or a speech model's transcript (audio-intake.ts writes both). Drafts are part of
 * editing: only someone who may edit the record sees, uses, dismisses or asks for them; to
 * anyone else a record's drafts, like the record itself, are not found.
 */

export interface TranscriptDraftSummary {
  id: string;
  source: "segmentation" | "asr";
  status: "pending" | "ready" | "failed";
  model: string | null;
  /** Turns in the draft; for a segmentation draft, the speech segments found. */
  turnCount: number;
  error: string | null;
}

export interface TranscriptionTools {
  fieldKey: string;
  /** The recording the transcript belongs to, if the record has one. */
  recording: {
    mediaId: string;
    kind: "audio" | "video";
    durationSeconds: number | null;
    /** [min, max] pairs in -1..1, once the worker has read the recording. */
    peaks: [number, number][] | null;
    intake: "pending" | "ready" | "failed" | null;
  } | null;
  drafts: TranscriptDraftSummary[];
  /** The configured speech model and whether this record's recordings may be sent to it; null when off. */
  speechToText: { model: string; allowed: boolean } | null;
  /** When speech to text is off, what to tell this editor (speechToTextOffNote). */
  speechToTextOff: string | null;
}

/**
 * Why there is no "Transcribe with …", for the person reading it: the setting to an administrator,
 * what it means to an editor who cannot change it.
 */
export function speechToTextOffNote(principal: Pick<Principal, "role">): string {
  return isAdmin(principal)
    ? "No speech model ships with Mnemo; the offline default is segmentation only — set MNEMO_ASR to use a transcription server."
    : "Speech to text is not set up on this installation: recordings are cut into turns at their pauses for you to transcribe (an administrator can connect a transcription server).";
}

/** A record the principal may edit, with its section's fields and egress policy; anything else is not found. */
async function editableRecord(prisma: PrismaClient, principal: Principal, recordId: string) {
  if (!isUuid(recordId)) throw notFound();
  const record = await prisma.record.findFirst({
    where: { id: recordId, ...projectScopeWhere(principal) },
    select: { id: true, projectId: true, values: true, section: { select: { fields: true, egressPolicy: true } } },
  });
  if (!record || !canEdit(principal, record)) throw notFound();
  const fields: FieldDefinition[] = sectionFieldsSchema.parse(record.section.fields);
  return { ...record, fields, values: (record.values ?? {}) as Record<string, unknown> };
}

/** The media field a transcript field belongs to (see transcriptFieldsOf). */
function mediaFieldOf(fields: readonly FieldDefinition[], transcriptKey: string): string | null {
  const media = fields.filter((field) => field.type === "media");
  return media.find((field) => transcriptFieldsOf(fields, field.key).includes(transcriptKey))?.key ?? null;
}

/** What the editor offers beside each transcript field of a record the principal may edit. */
export async function transcriptionToolsFor(
  prisma: PrismaClient,
  principal: Principal,
  recordId: string,
  speechToText: Pick<SpeechToText, "model" | "external"> | null,
): Promise<Record<string, TranscriptionTools>> {
  const record = await editableRecord(prisma, principal, recordId);
  const transcriptKeys = record.fields.filter((field) => field.type === "transcript").map((field) => field.key);
  if (transcriptKeys.length === 0) return {};
  const [media, drafts] = await Promise.all([
    prisma.media.findMany({ where: { recordId: record.id, kind: { in: ["audio", "video"] } } }),
    prisma.transcriptDraft.findMany({
      where: { recordId: record.id, status: { in: ["pending", "ready", "failed"] } },
      orderBy: [{ source: "asc" }, { createdAt: "asc" }],
    }),
  ]);
  const allowed = speechToText ? mayLeaveHost(speechToText, egressAllowed([record.section.egressPolicy])) : false;
  return Object.fromEntries(
    transcriptKeys.map((fieldKey) => {
      const mediaField = mediaFieldOf(record.fields, fieldKey);
      const mediaId = mediaField ? record.values[mediaField] : undefined;
      const row = media.find((item) => item.id === mediaId);
      const tools: TranscriptionTools = {
        fieldKey,
        recording: row
          ? {
              mediaId: row.id,
              kind: row.kind === "video" ? "video" : "audio",
              durationSeconds: row.durationSeconds,
              peaks: Array.isArray(row.peaks) ? (row.peaks as [number, number][]) : null,
              intake: row.intake,
            }
          : null,
        drafts: drafts
          .filter((draft) => draft.fieldKey === fieldKey && draft.mediaId === row?.id)
          .map((draft) => ({
            id: draft.id,
            source: draft.source,
            status: draft.status as TranscriptDraftSummary["status"],
            model: draft.model,
            turnCount: Array.isArray(draft.turns) ? draft.turns.length : 0,
            error: draft.error,
          })),
        speechToText: speechToText ? { model: speechToText.model, allowed } : null,
        speechToTextOff: speechToText ? null : speechToTextOffNote(principal),
      };
      return [fieldKey, tools];
    }),
  );
}

/** A draft of a record the principal may edit; anything else is not found. */
async function editableDraft(prisma: PrismaClient, principal: Principal, draftId: string) {
  if (!isUuid(draftId)) throw notFound();
  const draft = await prisma.transcriptDraft.findFirst({
    where: { id: draftId, record: projectScopeWhere(principal) },
    include: { record: { select: { projectId: true } } },
  });
  if (!draft || !canEdit(principal, draft.record)) throw notFound();
  return draft;
}

/**
 * The draft's turns as transcript text for the editor to fill in (a segmentation draft's turns
 * have no text yet: saving refuses each one left empty, naming its line), and the draft marked
 * used. Only a ready draft can be used.
 */
export async function applyTranscriptDraft(
  prisma: PrismaClient,
  principal: Principal,
  input: { draftId: string },
): Promise<{ fieldKey: string; text: string; turns: number; empty: number }> {
  const draft = await editableDraft(prisma, principal, input.draftId);
  if (draft.status !== "ready")
    throw new AppError("conflict", draft.status === "pending" ? "This draft is not ready yet." : "This draft can no longer be used.");
  const turns = (Array.isArray(draft.turns) ? draft.turns : []) as unknown as TranscriptTurn[];
  await prisma.$transaction([
    prisma.transcriptDraft.update({ where: { id: draft.id }, data: { status: "applied" } }),
    audit(prisma, {
      actorId: actorIdOf(principal),
      action: "transcript_draft.applied",
      targetType: "record",
      targetId: draft.recordId,
      projectId: draft.record.projectId,
      details: { draftId: draft.id, fieldKey: draft.fieldKey, source: draft.source, model: draft.model, turns: turns.length },
    }),
  ]);
  return { fieldKey: draft.fieldKey, text: serializeTranscript(turns), turns: turns.length, empty: turns.filter((turn) => !turn.text.trim()).length };
}

export async function dismissTranscriptDraft(prisma: PrismaClient, principal: Principal, input: { draftId: string }): Promise<void> {
  const draft = await editableDraft(prisma, principal, input.draftId);
  await prisma.$transaction([
    prisma.transcriptDraft.update({ where: { id: draft.id }, data: { status: "dismissed" } }),
    audit(prisma, {
      actorId: actorIdOf(principal),
      action: "transcript_draft.dismissed",
      targetType: "record",
      targetId: draft.recordId,
      projectId: draft.record.projectId,
      details: { draftId: draft.id, fieldKey: draft.fieldKey, source: draft.source },
    }),
  ]);
}

/**
 * Queues the record's recording for the speech model: a pending `asr` draft, transcribed by the
 * index worker (queued in the same transaction). Refused, with the reason, when speech to text
 * is off, when the record has no recording for the field, and when the section's recordings
 * must stay on this host and the endpoint is elsewhere (the egress rule, lib/acl).
 */
export async function requestTranscription(
  prisma: PrismaClient,
  principal: Principal,
  input: { recordId: string; fieldKey: string },
  speechToText: Pick<SpeechToText, "model" | "external"> | null,
): Promise<{ draftId: string }> {
  const record = await editableRecord(prisma, principal, input.recordId);
  const field = record.fields.find((candidate) => candidate.key === input.fieldKey && candidate.type === "transcript");
  if (!field)
    throw new AppError("bad_request", `“${input.fieldKey}” is not a transcript field of this record.`, {
      fieldErrors: { fieldKey: ["Not a transcript field of this record."] },
    });
  if (!speechToText) {
    throw new AppError("bad_request", speechToTextOffNote(principal));
  }
  if (!mayLeaveHost(speechToText, egressAllowed([record.section.egressPolicy]))) {
    throw new AppError(
      "bad_request",
      `This section's recordings stay on this server (egress policy: local only), so they are never sent to ${speechToText.model}, which runs elsewhere.`,
    );
  }
  const mediaField = mediaFieldOf(record.fields, field.key);
  const mediaId = mediaField ? record.values[mediaField] : undefined;
  const media =
    typeof mediaId === "string" ? await prisma.media.findFirst({ where: { id: mediaId, recordId: record.id, kind: { in: ["audio", "video"] } } }) : null;
  if (!media) throw new AppError("bad_request", `This record has no saved recording for “${field.label}”: upload one and save the record first.`);
  return prisma.$transaction(async (tx) => {
    const draft = await tx.transcriptDraft.upsert({
      where: { recordId_fieldKey_source: { recordId: record.id, fieldKey: field.key, source: "asr" } },
      create: {
        recordId: record.id,
        fieldKey: field.key,
        mediaId: media.id,
        source: "asr",
        status: "pending",
        model: speechToText.model,
        createdById: actorIdOf(principal),
      },
      update: { mediaId: media.id, status: "pending", model: speechToText.model, turns: [], error: null, attempts: 0, createdById: actorIdOf(principal) },
    });
    await enqueueIndexing(tx, record.id, "transcription");
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "transcript_draft.requested",
      targetType: "record",
      targetId: record.id,
      projectId: record.projectId,
      details: { draftId: draft.id, fieldKey: field.key, mediaId: media.id, model: speechToText.model, external: speechToText.external },
    });
    return { draftId: draft.id };
  });
}
