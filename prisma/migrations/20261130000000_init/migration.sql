-- Extensions
CREATE EXTENSION IF NOT EXISTS "vector";
CREATE EXTENSION IF NOT EXISTS "unaccent";
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('admin', 'curator', 'researcher');
CREATE TYPE "MemberRole" AS ENUM ('reader', 'editor');
CREATE TYPE "EgressPolicy" AS ENUM ('local_only', 'allow_external');
CREATE TYPE "MediaKind" AS ENUM ('image', 'audio', 'video');
CREATE TYPE "ChunkingMode" AS ENUM ('short', 'long_document', 'transcription', 'auto');
CREATE TYPE "IndexSpaceStatus" AS ENUM ('building', 'active', 'retired');
CREATE TYPE "QueueStatus" AS ENUM ('pending', 'running', 'parked');
CREATE TYPE "ProposalStatus" AS ENUM ('pending', 'accepted', 'overridden', 'rejected');
CREATE TYPE "ChatRole" AS ENUM ('user', 'assistant');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT,
    "role" "UserRole" NOT NULL DEFAULT 'researcher',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "session_version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "restricted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "memberships" (
    "user_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL DEFAULT 'reader',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("user_id","project_id")
);

CREATE TABLE "sections" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "fields" JSONB NOT NULL,
    "egress_policy" "EgressPolicy" NOT NULL DEFAULT 'local_only',
    "object_context" JSONB,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "sections_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "records" (
    "id" TEXT NOT NULL,
    "section_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "date_from" INTEGER,
    "date_to" INTEGER,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_by_id" TEXT,
    "updated_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "records_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "record_links" (
    "source_id" TEXT NOT NULL,
    "field_key" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    CONSTRAINT "record_links_pkey" PRIMARY KEY ("source_id","field_key","target_id")
);

CREATE TABLE "media" (
    "id" TEXT NOT NULL,
    "record_id" TEXT,
    "project_id" TEXT NOT NULL,
    "field_key" TEXT,
    "kind" "MediaKind" NOT NULL,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "duration_seconds" DOUBLE PRECISION,
    "view" TEXT,
    "original_name" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "media_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "embed_groups" (
    "id" TEXT NOT NULL,
    "section_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "fields" JSONB NOT NULL,
    "chunking" "ChunkingMode" NOT NULL DEFAULT 'auto',
    "max_tokens" INTEGER NOT NULL DEFAULT 256,
    "min_tokens" INTEGER NOT NULL DEFAULT 32,
    "overlap" INTEGER NOT NULL DEFAULT 0,
    "languages" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "embed_groups_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "index_spaces" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dimension" INTEGER NOT NULL,
    "chunker_version" INTEGER NOT NULL,
    "status" "IndexSpaceStatus" NOT NULL DEFAULT 'building',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activated_at" TIMESTAMP(3),
    CONSTRAINT "index_spaces_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "chunks" (
    "id" TEXT NOT NULL,
    "record_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "section_id" TEXT NOT NULL,
    "embed_group_id" TEXT NOT NULL,
    "index_space_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "embedded_text" TEXT NOT NULL,
    "translated_text" TEXT,
    "start_offset" INTEGER NOT NULL,
    "end_offset" INTEGER NOT NULL,
    "heading_path" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "page" INTEGER,
    "time_start" DOUBLE PRECISION,
    "time_end" DOUBLE PRECISION,
    "field_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "contributing_section_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "content_hash" TEXT NOT NULL,
    "embedding" vector,
    "search_vector" tsvector,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chunks_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "index_queue" (
    "id" TEXT NOT NULL,
    "record_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" "QueueStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "available_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_at" TIMESTAMP(3),
    "locked_by" TEXT,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "index_queue_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "proposals" (
    "id" TEXT NOT NULL,
    "record_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "evidence" JSONB NOT NULL,
    "status" "ProposalStatus" NOT NULL DEFAULT 'pending',
    "decided_value" JSONB,
    "decided_by_id" TEXT,
    "decided_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "proposals_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_id" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "project_id" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "chat_threads" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "scope" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "chat_threads_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "chat_messages" (
    "id" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "role" "ChatRole" NOT NULL,
    "content" TEXT NOT NULL,
    "citations" JSONB NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'complete',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "sign_in_attempts" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sign_in_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
CREATE UNIQUE INDEX "projects_slug_key" ON "projects"("slug");
CREATE INDEX "memberships_project_id_idx" ON "memberships"("project_id");
CREATE UNIQUE INDEX "sections_slug_key" ON "sections"("slug");
CREATE INDEX "records_section_id_project_id_idx" ON "records"("section_id", "project_id");
CREATE INDEX "records_project_id_idx" ON "records"("project_id");
CREATE INDEX "records_title_idx" ON "records"("title");
CREATE INDEX "record_links_target_id_idx" ON "record_links"("target_id");
CREATE UNIQUE INDEX "media_storage_key_key" ON "media"("storage_key");
CREATE INDEX "media_record_id_idx" ON "media"("record_id");
CREATE UNIQUE INDEX "embed_groups_section_id_slug_key" ON "embed_groups"("section_id", "slug");
CREATE UNIQUE INDEX "index_spaces_name_key" ON "index_spaces"("name");
CREATE INDEX "chunks_record_id_idx" ON "chunks"("record_id");
CREATE INDEX "chunks_index_space_id_project_id_idx" ON "chunks"("index_space_id", "project_id");
CREATE UNIQUE INDEX "index_queue_record_id_key" ON "index_queue"("record_id");
CREATE INDEX "index_queue_status_available_at_idx" ON "index_queue"("status", "available_at");
CREATE INDEX "proposals_record_id_idx" ON "proposals"("record_id");
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");
CREATE INDEX "audit_events_action_idx" ON "audit_events"("action");
CREATE INDEX "chat_threads_user_id_updated_at_idx" ON "chat_threads"("user_id", "updated_at");
CREATE INDEX "chat_messages_thread_id_created_at_idx" ON "chat_messages"("thread_id", "created_at");
CREATE INDEX "sign_in_attempts_email_at_idx" ON "sign_in_attempts"("email", "at");
CREATE INDEX "sign_in_attempts_address_at_idx" ON "sign_in_attempts"("address", "at");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "records" ADD CONSTRAINT "records_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "records" ADD CONSTRAINT "records_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "record_links" ADD CONSTRAINT "record_links_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "record_links" ADD CONSTRAINT "record_links_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "media" ADD CONSTRAINT "media_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "embed_groups" ADD CONSTRAINT "embed_groups_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_embed_group_id_fkey" FOREIGN KEY ("embed_group_id") REFERENCES "embed_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_index_space_id_fkey" FOREIGN KEY ("index_space_id") REFERENCES "index_spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "index_queue" ADD CONSTRAINT "index_queue_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "chat_threads" ADD CONSTRAINT "chat_threads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "chat_threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Lexical search over passages: accent-folded, language-neutral ('simple') so Spanish and
-- Catalan words are not stemmed as English.
CREATE INDEX "chunks_search_vector_idx" ON "chunks" USING GIN ("search_vector");
-- Text-in-a-field filters on the record list.
CREATE INDEX "records_title_trgm_idx" ON "records" USING GIN ("title" gin_trgm_ops);
