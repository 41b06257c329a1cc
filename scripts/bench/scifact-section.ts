import type { Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";

/** The benchmarks' SciFact section: title and abstract, embedded together as a long document. */
export async function createScifactSection(db: Pick<Database, "prisma" | "sql">) {
  await db.prisma.section.create({
    data: {
      slug: "scifact",
      name: "SciFact abstracts",
      fields: [
        { key: "title", label: "Title", type: "text", required: true },
        { key: "abstract", label: "Abstract", type: "longtext" },
      ],
    },
  });
  return saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: "scifact",
    group: { slug: "abstract", label: "Abstract", fields: ["title", "abstract"], chunking: "long_document", maxTokens: 220, minTokens: 48, overlap: 0 },
    requeue: false,
  });
}
