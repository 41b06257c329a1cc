import { defineConfig } from "prisma/config";

// The datasource URL matters only to Prisma's own CLI on a machine that has its schema engine
// (e.g. `prisma migrate status` against server mode); the app migrates itself (lib/db/migrate.ts).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/mnemo" },
});
