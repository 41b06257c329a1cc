import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { canEdit } from "@/lib/acl";
import { getRecord } from "@/lib/archive/get-record";
import { authorizedPage } from "@/lib/http/authorized";
import { isAppError } from "@/lib/errors";
import { RecordFormClient } from "@/components/record-form-client";
import { saveRecordAction } from "../../actions";
import { loadRecordFormOptions } from "@/lib/archive/record-form-options";
import { speechToTextFromConfig } from "@/lib/archive/speech-to-text";
import { transcriptionToolsFor } from "@/lib/archive/transcript-drafts";
import { applyTranscriptDraftAction, dismissTranscriptDraftAction, requestTranscriptionAction } from "./transcription-actions";

export const metadata: Metadata = { title: "Edit record" };

export default async function EditRecordPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { principal, runtime } = await authorizedPage(`/records/${encodeURIComponent(id)}/edit`);
  const { prisma } = runtime.database;
  const record = await getRecord(prisma, principal, id).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });

  if (!canEdit(principal, { projectId: record.project.id })) {
    return (
      <div>
        <h1 className="text-2xl font-semibold">{record.title}</h1>
        <p className="notice mt-6">
          You may read this record but not edit it.{" "}
          <Link href={`/records/${record.id}`} className="link">
            Back to the record
          </Link>
        </p>
      </div>
    );
  }

  const { projects, relationOptions } = await loadRecordFormOptions(prisma, principal, record.section.fields, record);
  const transcriptionTools = await transcriptionToolsFor(prisma, principal, record.id, speechToTextFromConfig(runtime.config));
  return (
    <div>
      <p className="text-sm text-stone-500">
        {record.section.name} · version {record.version}
      </p>
      <h1 className="text-2xl font-semibold">Edit “{record.title}”</h1>
      <div className="mt-8 max-w-3xl">
        <RecordFormClient
          action={saveRecordAction}
          section={{ slug: record.section.slug, name: record.section.name, fields: record.section.fields }}
          record={{ id: record.id, version: record.version, projectId: record.project.id, values: record.values, media: record.media }}
          projects={projects}
          relationOptions={relationOptions}
          maxUploadBytes={runtime.config.MAX_UPLOAD_BYTES}
          cancelHref={`/records/${record.id}`}
          transcription={{
            tools: transcriptionTools,
            actions: { apply: applyTranscriptDraftAction, dismiss: dismissTranscriptDraftAction, transcribe: requestTranscriptionAction },
          }}
        />
      </div>
    </div>
  );
}
