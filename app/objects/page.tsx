import type { Metadata } from "next";
import Link from "next/link";
import { authorizedPage } from "@/lib/http/authorized";
import { listObjectSections } from "@/lib/rag/objects/list-object-sections";
import { isAppError } from "@/lib/errors";
import { type ObjectSearchHit, type ObjectSearchResult, objectSearchSchema, searchObjectsByText } from "@/lib/rag/objects/search-objects";
import { readMatchThresholds } from "@/lib/rag/ask/ask-settings";
import { type MatchThresholds, describeMatch } from "@/lib/rag/search/match-strength";
import { PageHeader } from "@/components/page-header";
import { SectionOptions } from "@/components/select-options";

export const metadata: Metadata = { title: "Objects by description" };

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Find objects by describing them. The label under the box says how the words were matched:
 * against the images themselves (a multimodal model) or against the objects' catalogue text.
 */
export default async function ObjectsPage({ searchParams }: PageProps) {
  const { principal, runtime } = await authorizedPage("/objects");
  const query = await searchParams;
  const q = typeof query.q === "string" ? query.q : "";
  const objects = await runtime.objects();
  const thresholds = await readMatchThresholds(objects.sql);
  const sections = await listObjectSections(objects.sql);
  const section = sections.find((candidate) => candidate.slug === query.section)?.slug;
  let result: ObjectSearchResult | null = null;
  let error: string | null = null;
  if (q.trim()) {
    const parsed = objectSearchSchema.safeParse({ query: q, sectionSlug: section });
    if (!parsed.success) error = parsed.error.issues[0]?.message ?? "This description cannot be searched.";
    else {
      try {
        result = await searchObjectsByText(objects, await runtime.search(), principal, parsed.data);
      } catch (caught) {
        if (!isAppError(caught)) throw caught;
        error = caught.message;
      }
    }
  }

  return (
    <div>
      <PageHeader title="Objects by description" />
      <form action="/objects" className="mt-4 flex flex-wrap items-end gap-2" role="search">
        <label className="min-w-72 flex-1">
          <span className="field-label">Describe the object</span>
          <input name="q" defaultValue={q} maxLength={500} className="field-input" placeholder="e.g. silver coin of the Roman Republic, glazed jug" />
        </label>
        <label>
          <span className="field-label">Collection</span>
          <select name="section" defaultValue={section ?? ""} className="field-input">
            <option value="">All object collections</option>
            <SectionOptions sections={sections} />
          </select>
        </label>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
      {error && (
        <div role="alert" className="notice-error mt-4">
          {error}
        </div>
      )}
      {!q.trim() && !error && <p className="notice mt-6">Describe an object in a few words to see the objects that match it, with their images.</p>}
      {result && (
        <section aria-labelledby="object-results-heading" className="mt-6">
          <h2 id="object-results-heading" className="text-xl font-semibold">
            {result.hits.length} object{result.hits.length === 1 ? "" : "s"}
          </h2>
          <p className="mt-1 text-sm text-stone-600" data-testid="object-search-via">
            {result.via === "multimodal"
              ? `Matched against the images themselves by the multimodal model ${result.model} (only collections allowed to leave this server are in its index).`
              : "Matched against the objects’ catalogue text (no multimodal image model is configured), not against the images."}
          </p>
          {result.hits.length === 0 ? (
            <p className="notice mt-3">No object you can read matches this description.</p>
          ) : (
            <ol className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
              {result.hits.map((hit) => (
                <li key={hit.recordId} className="rounded-lg border border-stone-200 bg-white p-2">
                  <Link href={`/records/${hit.recordId}`} className="block">
                    <span className="flex gap-1">
                      {hit.images.slice(0, 2).map((image) => (
                        // eslint-disable-next-line @next/next/no-img-element
                        <img
                          key={image.mediaId}
                          src={`/api/media/${image.mediaId}?variant=thumb`}
                          alt={`${hit.title}, ${image.view}`}
                          width={72}
                          height={72}
                          loading="lazy"
                          className="h-[72px] w-[72px] rounded border border-stone-200 object-contain"
                        />
                      ))}
                    </span>
                    <span className="link mt-1 block text-sm leading-snug">{hit.title}</span>
                  </Link>
                  <div className="mt-1 text-xs text-stone-500">
                    {hit.sectionName} · <ObjectMatch hit={hit} via={result.via} thresholds={thresholds} />
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </div>
  );
}

/**
 * Every card says the same kind of thing. Matched on the catalogue text: what the match means,
 * as in the record list (Strong, Good or Weak match, or Matches the words), in the list's order.
 * Matched by the image model: its similarity, by which the cards are sorted.
 */
function ObjectMatch({ hit, via, thresholds }: { hit: ObjectSearchHit; via: ObjectSearchResult["via"]; thresholds: MatchThresholds }) {
  if (via === "multimodal") return <span data-testid="object-match">similarity {(hit.similarity ?? 0).toFixed(2)}</span>;
  const match = describeMatch(hit, thresholds);
  return (
    <span title={match.explanation} data-testid="object-match" data-strength={match.strength}>
      {match.label}
    </span>
  );
}
