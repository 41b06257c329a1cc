-- Secrets the installation makes for itself once and keeps (lib/admin/backup/backup-key.ts): today
-- `backup-signing`, the 32 random bytes (hex) that sign project backups. A row of the database, so
-- a database backup and `npm run move-to-server` carry it with everything it signed. Read only by
-- the code that uses it and by `npm run backup:key`; never listed or served.
CREATE TABLE "installation_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installation_secrets_pkey" PRIMARY KEY ("name")
);
