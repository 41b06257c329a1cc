import { longTextBlocks } from "@/lib/archive/long-text-blocks";
import { type LongTextBlockView, LongTextClient } from "./long-text-client";

/**
 * Renders a longtext value. Page markers carry id="page-N" so a citation can open the page;
 * `pageIds` is shared across the record's fields so an id is only used once on the page.
 * `english` offers the English beside each paragraph (a Spanish or Catalan text); `terms` are
 * the words of the search the page was opened from, marked in the text and in its English.
 */
export function LongText({
  text,
  pageIds,
  english,
  terms = [],
}: {
  text: string;
  pageIds: Set<number>;
  english?: { src: string; label: string };
  terms?: readonly string[];
}) {
  const blocks = longTextBlocks(text).map((block): LongTextBlockView => {
    if (block.kind !== "page") return block;
    const firstUse = !pageIds.has(block.page);
    pageIds.add(block.page);
    return { ...block, anchor: firstUse ? `page-${block.page}` : undefined };
  });
  return <LongTextClient blocks={blocks} english={english} terms={terms} />;
}
