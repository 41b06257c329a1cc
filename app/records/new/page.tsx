import type { Metadata } from "next";
import Link from "next/link";
import { canCreateRecords } from "@/lib/acl";
import { getSectionBySlug, listSections, type SectionSummary } from "@/lib/archive/sections";
import { authorizedPage } from "@/lib/http/authorized";
import { isAppError } from "@/lib/errors";
import { NewRecordPicker } from "@/components/new-record-picker";
import { RecordFormClient } from "@/components/record-form-client";
import { saveRecordAction } from "../actions";
import { loadRecordFormOptions } from "@/lib/archive/record-form-options";

export const metadata: Metadata = { title: "New record" };

export default async function NewRecordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const slug = typeof query.section === "string" && query.section ? query.section : undefined;
  const { principal, runtime } = await authorizedPage(slug ? `/records/new?section=${encodeURIComponent(slug)}` : "/records/new");

  if (!canCreateRecords(principal)) {
    return (
      <div>
        <h1 className="text-2xl font-semibold">New record</h1>
        <p className="notice mt-6">
          You may read records but not create them.{" "}
          <Link href="/records" className="link">
            Back to the records
          </Link>
        </p>
      </div>
    );
  }

  const { prisma } = runtime.database;
  let section: SectionSummary | undefined;
  let sectionError: string | undefined;
  if (slug) {
    try {
      section = await getSectionBySlug(prisma, slug);
    } catch (error) {
      if (!isAppError(error)) throw error;
      sectionError = error.message;
    }
  }

  if (!section) {
    const sections = await listSections(prisma);
    return (
      <div>
        <h1 className="text-2xl font-semibold">New record</h1>
        {sectionError && (
          <p role="alert" className="notice-error mt-6">
            {sectionError}
          </p>
        )}
        <div className="mt-6">
          <NewRecordPicker sections={sections} />
        </div>
      </div>
    );
  }

  const { projects, relationOptions } = await loadRecordFormOptions(prisma, principal, section.fields);
  return (
    <div>
      <p className="text-sm text-stone-500">{section.name}</p>
      <h1 className="text-2xl font-semibold">New record</h1>
      {section.description && <p className="mt-2 max-w-prose text-sm text-stone-600">{section.description}</p>}
      <div className="mt-8 max-w-3xl">
        <RecordFormClient
          action={saveRecordAction}
          section={{ slug: section.slug, name: section.name, fields: section.fields }}
          projects={projects}
          relationOptions={relationOptions}
          maxUploadBytes={runtime.config.MAX_UPLOAD_BYTES}
          cancelHref={`/records?section=${encodeURIComponent(section.slug)}`}
        />
      </div>
    </div>
  );
}
