import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { projectBackupResponse } from "@/lib/http/project-backup-download";

/** Downloads a project's backup (zip; docs/architecture.md, "Project backup and restore"). Admins only; others: 404. */
export const GET = authorizedRoute(z.object({ slug: z.string().max(200) }), async (_request, { principal, params, runtime }) =>
  projectBackupResponse(runtime.database, principal, { slug: params.slug, storageDir: runtime.config.storageDir }),
);
