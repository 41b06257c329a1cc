import { describe, expect, it } from "vitest";
import { checkLayers, moduleOf } from "./deps";

const layers = [
  { name: "bottom", members: ["lib/errors.ts", "lib/db"] },
  { name: "middle", members: ["lib/rag/chunk", "lib/rag/embed"] },
  { name: "top", members: ["lib/api"] },
];

describe("npm run deps", () => {
  it("places files in the deepest member that holds them, root files with their tests", () => {
    expect(moduleOf("lib/rag/chunk/split.ts", layers)).toBe("lib/rag/chunk");
    expect(moduleOf("lib/errors.test.ts", layers)).toBe("lib/errors.ts");
    expect(moduleOf("lib/admin/people.ts", layers)).toBeNull();
  });

  it("accepts imports of the own layer and the layers below", () => {
    const report = checkLayers(
      [
        { from: "lib/api/operations.ts", to: "lib/rag/chunk/index.ts" },
        { from: "lib/rag/chunk/split.ts", to: "lib/rag/embed/embedder.ts" },
        { from: "lib/rag/embed/embedder.ts", to: "lib/errors.ts" },
        { from: "lib/rag/embed/embedder.test.ts", to: "tests/support/factories.ts" },
      ],
      layers,
    );
    expect(report).toMatchObject({ upward: [], loops: [], outward: [], unplaced: [] });
    expect([...report.edges.get("lib/api")!.keys()]).toEqual(["lib/rag/chunk"]);
  });

  it("reports an upward edge, a loop inside a layer, lib importing components and files in no layer", () => {
    const report = checkLayers(
      [
        { from: "lib/db/index.ts", to: "lib/rag/embed/embedder.ts" },
        { from: "lib/rag/chunk/split.ts", to: "lib/rag/embed/embedder.ts" },
        { from: "lib/rag/embed/embedder.ts", to: "lib/rag/chunk/split.ts" },
        { from: "lib/rag/embed/embedder.ts", to: "components/format.ts" },
        { from: "lib/admin/people.ts", to: "lib/db/index.ts" },
      ],
      layers,
    );
    expect(report.upward.map((edge) => `${edge.from} → ${edge.to}`)).toEqual(["lib/db → lib/rag/embed"]);
    expect(report.loops).toEqual([["lib/rag/chunk", "lib/rag/embed"]]);
    expect(report.outward).toEqual([{ from: "lib/rag/embed/embedder.ts", to: "components/format.ts" }]);
    expect(report.unplaced).toEqual(["lib/admin/people.ts"]);
  });
});
