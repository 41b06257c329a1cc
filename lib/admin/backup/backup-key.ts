import "server-only";
import { getConfig } from "../../config";
import type { PrismaClient } from "../../db/generated/client";
import { AppError } from "../../errors";
import { BackupKey } from "./backup-signature";

/** The installation_secrets row that holds the backup signing key (hex). */
const secretName = "backup-signing";

export interface InstallationBackupKey {
  key: BackupKey;
  /** MNEMO_BACKUP_KEY, or the key the installation made for itself and keeps in its database. */
  source: "environment" | "database";
}

/**
 * The key this installation signs project backups with and checks them by: MNEMO_BACKUP_KEY when
 * set, else the installation's own, made once (32 random bytes) on first use and kept in
 * `installation_secrets`, so a database backup and `npm run move-to-server` carry it. Two
 * processes making it at once keep the first one written.
 */
export async function installationBackupKey(prisma: PrismaClient, environmentKey = getConfig().MNEMO_BACKUP_KEY): Promise<InstallationBackupKey> {
  if (environmentKey) return { key: BackupKey.fromHex(environmentKey, "MNEMO_BACKUP_KEY"), source: "environment" };
  const stored = async () => (await prisma.installationSecret.findUnique({ where: { name: secretName } }))?.value;
  let hex = await stored();
  if (hex === undefined) {
    await prisma.installationSecret.createMany({ data: [{ name: secretName, value: BackupKey.generate().toHex() }], skipDuplicates: true });
    hex = await stored();
  }
  if (hex === undefined || !/^[0-9a-f]{64}$/.test(hex))
    throw new AppError("internal", `The installation's backup key (installation_secrets, ${secretName}) is damaged.`);
  return { key: BackupKey.fromHex(hex, "The installation's backup key"), source: "database" };
}
