import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import { captionFileName, readCaptionSource } from "../archive/record-captions";
import { writeSrt, writeWebVtt } from "../archive/transcript-formats";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import type { CaptionTranslator } from "../rag/embed/caption-translation";

/**
 * GET /api/records/<id>/captions/<file>: a record's transcript field as a caption file —
 * `<fieldKey>.vtt` or `<fieldKey>.srt` in the transcript's own language, `<fieldKey>.en.vtt` or
 * `<fieldKey>.en.srt` in English by machine translation (Spanish and Catalan transcripts, when
 * the bridge has the pair), and `<fieldKey>.en.json` the same English turns as JSON for the record
 * page's "English beside each turn" (one English turn per original turn, same times and
 * speakers). Access as on the record page: whatever the principal may not read,
 * a field that is no transcript, a file name of no known shape and an English track that does
 * not exist all answer the one not_found.
 */
export const captionFileSchema = z.string().regex(/^[a-z][a-zA-Z0-9]{0,63}(?:(?:\.en)?\.(?:vtt|srt)|\.en\.json)$/);
export const captionRouteParamsSchema = z.object({ id: z.string(), file: captionFileSchema });

export interface CaptionRequest {
  recordId: string;
  file: string;
}

export const captionContentTypes = { vtt: "text/vtt; charset=utf-8", srt: "application/x-subrip; charset=utf-8" } as const;

/** The record page's links: the file names of a transcript field's tracks. */
export function captionFileNames(fieldKey: string): { vtt: string; srt: string; englishVtt: string; englishSrt: string } {
  return { vtt: `${fieldKey}.vtt`, srt: `${fieldKey}.srt`, englishVtt: `${fieldKey}.en.vtt`, englishSrt: `${fieldKey}.en.srt` };
}

export async function captionsResponse(prisma: PrismaClient, principal: Principal, request: CaptionRequest, translator: CaptionTranslator): Promise<Response> {
  const parsed = captionFileSchema.safeParse(request.file);
  if (!parsed.success) throw notFound();
  const [, fieldKey = "", english, format = "vtt"] = /^([^.]+)(\.en)?\.(vtt|srt|json)$/.exec(parsed.data) ?? [];
  const source = await readCaptionSource(prisma, principal, request.recordId, fieldKey);
  const input = { turns: source.turns, contentHash: source.contentHash, declaredLanguage: source.declaredLanguage, egressPolicy: source.egressPolicy };

  let turns = source.turns;
  let language = await translator.languageOf(input);
  let note = `${source.fieldLabel} of “${source.title}”, from Mnemo.`;
  if (english) {
    const translated = await translator.englishTurns(input).catch((error: unknown) => {
      throw new AppError("unavailable", "The English captions could not be made just now. Try again later.", { cause: error });
    });
    if (!translated) throw notFound();
    turns = translated;
    note = `${source.fieldLabel} of “${source.title}”, from Mnemo: English (machine translation from ${language === "ca" ? "Catalan" : "Spanish"} by Apertium).`;
    language = "en";
  }

  if (format === "json") {
    const from = (await translator.languageOf(input)) === "ca" ? "ca" : "es";
    return Response.json(
      {
        field: fieldKey,
        language: "en",
        translatedFrom: from,
        machineTranslation: "Apertium",
        turns: turns.map(({ start, end, speaker, text }) => ({ start, end, speaker, text })),
      },
      { headers: { "cache-control": "private, no-cache", etag: `"${source.contentHash.slice(0, 32)}-en-json"`, "x-content-type-options": "nosniff" } },
    );
  }
  const body = format === "srt" ? writeSrt(turns) : writeWebVtt(turns, { language: language === "und" ? undefined : language, note });
  const fileName = captionFileName(source, `${english ? ".en" : ""}.${format}`);
  return new Response(body, {
    headers: {
      "content-type": captionContentTypes[format as "vtt" | "srt"],
      "content-disposition": `attachment; filename="${fileName}"`,
      // Per reader (the record's access decides), revalidated: a changed transcript has a new ETag.
      "cache-control": "private, no-cache",
      etag: `"${source.contentHash.slice(0, 32)}${english ? "-en" : ""}-${format}"`,
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * For the record page: each transcript field with turns, its language and whether an English
 * track exists (Spanish or Catalan, the bridge's pair installed, egress permitting). Read through
 * the same scope as the files; a bridge that cannot answer just leaves the English track out.
 */
export async function recordCaptions(
  prisma: PrismaClient,
  principal: Principal,
  record: { id: string; section: { fields: readonly { key: string; type: string }[] } },
  translator: CaptionTranslator,
): Promise<Record<string, { language: string | null; english: boolean }>> {
  const found: Record<string, { language: string | null; english: boolean }> = {};
  for (const field of record.section.fields.filter((candidate) => candidate.type === "transcript")) {
    const source = await readCaptionSource(prisma, principal, record.id, field.key).catch(() => null);
    if (!source) continue;
    const input = { turns: source.turns, contentHash: source.contentHash, declaredLanguage: source.declaredLanguage, egressPolicy: source.egressPolicy };
    const language = await translator.languageOf(input).catch(() => "und");
    const english = await translator.offersEnglish(input).catch(() => false);
    found[field.key] = { language: language === "und" ? null : language, english };
  }
  return found;
}
