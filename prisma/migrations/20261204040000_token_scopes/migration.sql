-- API tokens gain scopes: `read` (search, passages, answers, records) and `write` (imports and,
-- later, other changes). Tokens made before scopes existed could only read, so they keep read
-- only; a write token must be made on purpose. Every token can read (write without read would
-- be a token that cannot look at what it changed). The column is nullable as Prisma declares
-- lists; the check refuses NULL and any list without read.
CREATE TYPE "ApiTokenScope" AS ENUM ('read', 'write');

ALTER TABLE "api_tokens" ADD COLUMN "scopes" "ApiTokenScope"[] DEFAULT ARRAY['read']::"ApiTokenScope"[];

ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_scopes_read" CHECK ("scopes" IS NOT NULL AND 'read' = ANY ("scopes"));
