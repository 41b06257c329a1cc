import { describe, expect, it } from "vitest";
import { partOf } from "./profile-summary";

const frame = (url: string, functionName = "f") => ({ url, functionName, lineNumber: 0 });

describe("profile:summary's parts of the stack", () => {
  it("names the database, the model, the framework, the app bundle and V8's own entries", () => {
    expect(partOf(frame("", "(idle)"))).toBe("idle");
    expect(partOf(frame("", "(garbage collector)"))).toBe("garbage collection");
    expect(partOf(frame("file:///app/node_modules/@electric-sql/pglite/dist/index.js"))).toBe("PGlite (embedded Postgres)");
    expect(partOf(frame("file:///app/node_modules/@tensorflow/tfjs-core/dist/tf-core.node.js"))).toBe("sentence encoder (TF.js)");
    expect(partOf(frame("file:///app/node_modules/next/dist/compiled/react-dom/cjs/react-dom-server.node.production.js"))).toBe("React rendering");
    expect(partOf(frame("file:///app/node_modules/next/dist/server/base-server.js"))).toBe("Next.js");
    expect(partOf(frame("file:///app/.next/server/chunks/ssr/123.js"))).toBe("app bundle (our code and bundled libraries)");
    expect(partOf(frame("file:///app/node_modules/@auth/core/index.js"))).toBe("library: @auth/core");
    expect(partOf(frame("node:internal/streams/readable"))).toMatch(/^Node internals/);
    expect(partOf(frame("wasm://wasm/022aac12"))).toMatch(/^WebAssembly/);
    expect(partOf(frame("file:///app/lib/rag/search/search.ts"))).toBe("our code (tsx)");
  });
});
