import "server-only";
import { z } from "zod";
import { listSectionsCached } from "../../archive/sections";
import { listSectionsOutput } from "../api-schemas";
import { defineOperation } from "./operation";

export const listSectionsOperation = defineOperation({
  name: "list_sections",
  title: "List the sections",
  description: "The archive's sections (oral histories, coins, people…) with their slugs and fields: the structure, not the content.",
  method: "GET",
  path: "/sections",
  pathParams: [],
  input: z.strictObject({}),
  output: listSectionsOutput,
  cost: 1,
  scope: "read",
  // The output schema is the allow-list: a section's other properties never leave the server.
  async run(_input, context) {
    return { sections: await listSectionsCached(context.runtime.prisma) };
  },
});
