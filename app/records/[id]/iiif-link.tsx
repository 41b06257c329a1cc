import type { RecordDetail } from "@/lib/archive/get-record";
import { showsInIiif } from "@/lib/archive/iiif/presentation";

/**
 * "IIIF manifest": the record's images, recording (with its transcript) or scanned pages for a
 * IIIF viewer (Mirador, Universal Viewer, Clover) or harvester. Shown when the record has one.
 */
export function IiifLink({ record }: { record: RecordDetail }) {
  if (!showsInIiif(record)) return null;
  return (
    <p className="mt-1 text-sm text-stone-600" data-testid="iiif-link">
      <a href={`/iiif/${encodeURIComponent(record.id)}/manifest`} className="link" type="application/ld+json">
        IIIF manifest
      </a>
    </p>
  );
}
