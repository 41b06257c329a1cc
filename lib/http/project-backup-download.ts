import "server-only";
import type { Principal } from "../acl";
import { exportProject } from "../admin/backup/export-project";
import type { Database } from "../db/database";

/**
 * GET /api/admin/projects/<slug>/backup: the project's backup zip as a download, never cached
 * (admins only; anyone else, and a missing project, get the same 404). The archive is built in
 * memory and sent whole; very large projects are backed up with `npm run export-project`.
 */
export async function projectBackupResponse(
  database: Pick<Database, "prisma" | "sql">,
  principal: Principal,
  options: { slug: string; storageDir: string },
): Promise<Response> {
  const backup = await exportProject(database.prisma, database.sql, principal, { slug: options.slug, storageDir: options.storageDir });
  return new Response(new Blob([backup.bytes as Uint8Array<ArrayBuffer>], { type: "application/zip" }), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${backup.fileName.replace(/[^A-Za-z0-9._-]+/g, "-")}"`,
      "content-length": String(backup.bytes.byteLength),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
