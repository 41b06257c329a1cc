import { citationFiles, citationFormats, citedSeconds } from "@/lib/archive/citation-formats";
import type { RecordDetail } from "@/lib/archive/get-record";
import { eacCpfHref, personSectionSlug } from "@/lib/archive/finding-aids/links";
import { formatTimecode } from "@/components/format";

/**
 * "Cite: RIS · BibTeX · CSL-JSON": the record's citation files for a reference manager (Zotero,
 * EndNote, Mendeley import all three). Opened at a moment of its recording (`?t=`), the
 * citation names that moment. A person (a record of the People section) also offers their
 * authority record as EAC-CPF, for archival systems.
 */
export function CiteLinks({ record, startAt }: { record: RecordDetail; startAt?: number }) {
  const recording = record.section.fields.some((field) => field.type === "media" && typeof record.values[field.key] === "string");
  const seconds = recording ? citedSeconds(startAt) : undefined;
  const href = (format: string) => `/api/records/${encodeURIComponent(record.id)}/cite?format=${format}${seconds === undefined ? "" : `&t=${seconds}`}`;
  return (
    <nav aria-label="Cite this record" className="mt-2 text-sm text-stone-600" data-testid="cite-links">
      <span>Cite{seconds === undefined ? "" : ` at ${formatTimecode(seconds)}`}: </span>
      {citationFormats.map((format, index) => (
        <span key={format}>
          {index > 0 && <span aria-hidden="true"> · </span>}
          <a href={href(format)} download className="link" aria-label={`Download the citation as ${citationFiles[format].label}`}>
            {citationFiles[format].label}
          </a>
        </span>
      ))}
      {record.section.slug === personSectionSlug && (
        <span>
          <span aria-hidden="true"> · </span>
          <a href={eacCpfHref(record.id)} download className="link" aria-label="Download the person's authority record as EAC-CPF">
            EAC-CPF
          </a>
        </span>
      )}
    </nav>
  );
}
