import "server-only";
import { z } from "zod";
import { notFound } from "../../errors";
import { listEmbedGroups } from "../../rag/config/embed-groups";
import { embedGroupsOutput } from "../api-schemas";
import { id } from "./inputs";
import { defineOperation } from "./operation";

export const embedGroupsOperation = defineOperation({
  name: "embed_groups",
  title: "A section's embed groups",
  description: "Which fields of a section are embedded together, and how they are cut into passages. Use a group's slug to understand a citation's location.",
  method: "GET",
  path: "/sections/{section}/embed-groups",
  pathParams: ["section"],
  input: z.strictObject({ section: id.describe("The section's slug (see list_sections).") }),
  output: embedGroupsOutput,
  cost: 1,
  scope: "read",
  async run(input, context) {
    const section = await context.runtime.prisma.section.findUnique({ where: { slug: input.section }, select: { id: true, slug: true } });
    if (!section) throw notFound();
    const groups = await listEmbedGroups(context.runtime.prisma, section.id);
    return { section: section.slug, groups };
  },
});
