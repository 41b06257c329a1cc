import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedCors } from "../../lib/api/cors";
import type { ApiDeps } from "../../lib/api/handle-api-request";
import { createRateLimiter } from "../../lib/rate-limit";
import { authenticateApiTokenWithId } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { createExtractiveGenerator } from "../../lib/rag/ask/extractive-generator";
import type { AskContext } from "../../lib/rag/ask/ask";
import type { Embedder } from "../../lib/rag/embed/embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import type { ObjectsRuntime } from "../../lib/rag/objects/similar-objects";
import type { SearchContext } from "../../lib/rag/search/search-archive";

/** A bridge that reads every text as English: no Apertium in tests that probe access. */
export const englishOnly = { detect: async () => ({ language: "en", confidence: 1 }) };

/** Where the API's uploads (attach_media) go in a test: a fresh folder, and a 5 MB limit. */
export function testMediaStorage(maxBytes = 5 * 1024 * 1024): { storageDir: string; maxBytes: number } {
  return { storageDir: mkdtempSync(join(tmpdir(), "mnemo-api-media-")), maxBytes };
}

let sharedMedia: { storageDir: string; maxBytes: number } | undefined;
/** One such folder for the whole test file, for runtimes built per call. */
function sharedTestMediaStorage() {
  sharedMedia ??= testMediaStorage();
  return sharedMedia;
}

export interface ServiceRuntime {
  search: SearchContext;
  askContext: AskContext;
  objects: ObjectsRuntime;
  apiDeps: ApiDeps;
}

/**
 * Search, ask, objects and the JSON API wired over one test database as the app wires them: the
 * offline answerer with permissive thresholds (every readable passage may be evidence, so a leak
 * would show) and no rate limit to get in the way of thousands of probes.
 */
export function serviceRuntime(
  db: Database,
  options: {
    embedder: Embedder;
    space: IndexSpace;
    descriptor: ObjectsRuntime["descriptor"];
    origin: string;
    /** How much of the question the evidence must cover (0.2 unless a test asks for a stricter answerer). */
    minTermCoverage?: number;
    /** API calls per minute per token (unlimited in practice unless a test asks for less). */
    perMinute?: number;
  },
): ServiceRuntime {
  const { embedder, space, descriptor, origin, minTermCoverage = 0.2, perMinute = 1_000_000 } = options;
  const search: SearchContext = { sql: db.sql, embedder, space, prepare: englishOnly };
  const askContext: AskContext = {
    ...search,
    generator: createExtractiveGenerator({ embedder, prepare: englishOnly, minScore: 0 }),
    settings: { minSimilarity: 0.05, strongSimilarity: 0.99, minTermCoverage },
  };
  const objects: ObjectsRuntime = { sql: db.sql, embedder, textSpace: space, descriptor, multimodal: null };
  const apiDeps: ApiDeps = {
    runtime: { prisma: db.prisma, search: async () => search, ask: async () => askContext, objects: async () => objects, media: sharedTestMediaStorage() },
    limiter: createRateLimiter({ perMinute }),
    cors: closedCors,
    authenticate: (authorization) => authenticateApiTokenWithId(db.prisma, authorization),
    origin,
  };
  return { search, askContext, objects, apiDeps };
}

/**
 * The JSON API over a test database for operations that need no model (imports, sections,
 * records): search, ask and objects refuse if called.
 */
export function apiDepsWithoutModels(
  db: Database,
  origin: string,
  options: { media?: { storageDir: string; maxBytes: number }; mcpAllowWrite?: boolean } = {},
): ApiDeps {
  const unused = () => Promise.reject(new Error("this test wires no models"));
  return {
    runtime: { prisma: db.prisma, search: unused, ask: unused, objects: unused, media: options.media ?? sharedTestMediaStorage() },
    limiter: createRateLimiter({ perMinute: 100_000 }),
    cors: closedCors,
    authenticate: (authorization) => authenticateApiTokenWithId(db.prisma, authorization),
    origin,
    mcpAllowWrite: options.mcpAllowWrite,
  };
}
