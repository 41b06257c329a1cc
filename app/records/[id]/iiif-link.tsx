import type { RecordDetail } from "@/lib/archive/get-record";
import { showsInIiif } from "@/lib/archive/iiif/presentation";

/**
 * "IIIF manifest": the record's images, recording (with its transcript) or scanned pages for a
 * IIIF viewer (Mirador, Universal Viewer, Clover) or harvester. Shown when the record has one;
 * with text to search (a transcript, an index, a scan, long text) also the Content Search
 * service the manifest declares, which a viewer's search box uses.
 */
export function IiifLink({ record }: { record: RecordDetail }) {
  if (!showsInIiif(record)) return null;
  const base = `/iiif/${encodeURIComponent(record.id)}`;
  const searchable = record.section.fields.some(
    (field) => ["transcript", "segments", "scan", "longtext"].includes(field.type) && hasValue(record.values[field.key]),
  );
  return (
    <div className="mt-1 text-sm text-stone-600" data-testid="iiif-link">
      <p>
        <a href={`${base}/manifest`} className="link" type="application/ld+json">
          IIIF manifest
        </a>
      </p>
      {searchable && (
        <p className="mt-1">
          IIIF search service: <code className="break-all">{`${base}/search?q=`}</code>
        </p>
      )}
    </div>
  );
}

function hasValue(value: unknown): boolean {
  return (typeof value === "string" && value.trim() !== "") || (Array.isArray(value) && value.length > 0);
}
