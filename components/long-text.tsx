import type { ReactNode } from "react";

type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "page"; page: number }
  | { kind: "paragraph"; text: string };

const headingPattern = /^(#{1,3}) +(.+)$/;
const pagePattern = /^\[\[page:(\d{1,6})\]\]$/;

/** Splits long text into headings (# to ###), page markers ([[page:N]]) and paragraphs. */
export function longTextBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join("\n") });
    paragraph = [];
  };
  for (const rawLine of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    const heading = headingPattern.exec(line);
    const page = pagePattern.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]!.length as 1 | 2 | 3, text: heading[2]!.trim() });
    } else if (page) {
      flush();
      blocks.push({ kind: "page", page: Number(page[1]) });
    } else if (!line) {
      flush();
    } else {
      paragraph.push(rawLine);
    }
  }
  flush();
  return blocks;
}

const headingClasses = {
  1: "mt-6 text-xl font-semibold",
  2: "mt-5 text-lg font-semibold",
  3: "mt-4 text-base font-semibold",
} as const;

/**
 * Renders a longtext value. Page markers carry id="page-N" so a citation can open the page;
 * `pageIds` is shared across the record's fields so an id is only used once on the page.
 */
export function LongText({ text, pageIds }: { text: string; pageIds: Set<number> }) {
  return (
    <div className="max-w-prose leading-relaxed text-stone-800">
      {longTextBlocks(text).map((block, index): ReactNode => {
        if (block.kind === "heading") {
          const Heading = (["h3", "h4", "h5"] as const)[block.level - 1]!;
          return (
            <Heading key={index} className={headingClasses[block.level]}>
              {block.text}
            </Heading>
          );
        }
        if (block.kind === "page") {
          const firstUse = !pageIds.has(block.page);
          pageIds.add(block.page);
          return (
            <div key={index} id={firstUse ? `page-${block.page}` : undefined} className="my-3 flex items-center gap-2 text-xs text-stone-500">
              <span className="h-px flex-1 bg-stone-200" aria-hidden="true" />
              <span className="font-mono">p. {block.page}</span>
            </div>
          );
        }
        return (
          <p key={index} className="mt-3 whitespace-pre-line">
            {block.text}
          </p>
        );
      })}
    </div>
  );
}
