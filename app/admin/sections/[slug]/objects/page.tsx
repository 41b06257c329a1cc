import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { sectionFieldsSchema } from "@/lib/archive/field-definitions";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { defaultNearDuplicateFloor, defaultProposalContextWeight, readObjectContext } from "@/lib/rag/config/object-context";
import { listSectionsForObjectContext } from "@/lib/rag/objects/save-object-context";
import { ObjectContextFormClient } from "./object-context-form-client";
import { PageHeader } from "@/components/page-header";

export const metadata: Metadata = { title: "Object context" };

/**
 * Admins choose which image fields of a section carry the visual signal (and their views),
 * which fields are typology, material, period and date, and which sections objects are compared
 * with. Anyone else gets the not-found page, as for every admin page.
 */
export default async function ObjectContextPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { runtime } = await authorizedAdminPage(`/admin/sections/${encodeURIComponent(slug)}/objects`);
  const sections = await listSectionsForObjectContext(runtime.database.prisma);
  const section = sections.find((candidate) => candidate.slug === slug);
  if (!section) notFound();
  const fields = sectionFieldsSchema.parse(section.fields);
  const context = readObjectContext(section.objectContext);
  return (
    <div>
      <PageHeader back={{ href: `/records?section=${encodeURIComponent(section.slug)}`, label: section.name }} title={<>Object context of {section.name}</>}>
        Which images describe an object, which fields a curator catalogues, and what it is compared with. Saving re-queues the section’s records so their image
        and context vectors follow; proposals and similar objects use the new context once they are indexed.
      </PageHeader>
      <ObjectContextFormClient
        sectionSlug={section.slug}
        fields={fields.map((field) => ({ key: field.key, label: field.label, type: field.type, view: field.type === "image" ? field.view : undefined }))}
        sections={sections.map((candidate) => ({ slug: candidate.slug, name: candidate.name, isObject: Boolean(readObjectContext(candidate.objectContext)) }))}
        initial={context}
        defaults={{ nearDuplicateFloor: defaultNearDuplicateFloor, proposalContextWeight: defaultProposalContextWeight }}
      />
    </div>
  );
}
