import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../config";
import { searchSettings } from "../config/settings";
import { denseReading, denseReadingLabel } from "./search-archive";

describe("denseReading: how the meaning leg reads the graph", () => {
  const saved = process.env.MNEMO_DENSE_WALK;
  afterEach(() => {
    if (saved === undefined) delete process.env.MNEMO_DENSE_WALK;
    else process.env.MNEMO_DENSE_WALK = saved;
    resetConfig();
  });

  it("reads the beam alone by default, and walks past a narrower beam when MNEMO_DENSE_WALK is set", () => {
    delete process.env.MNEMO_DENSE_WALK;
    resetConfig();
    expect(denseReading({})).toEqual({ efSearch: searchSettings.denseEfSearch.value });
    process.env.MNEMO_DENSE_WALK = "1500";
    resetConfig();
    expect(denseReading({})).toEqual({ efSearch: searchSettings.denseWalkEfSearch.value, walk: 1500 });
    expect(searchSettings.denseWalkEfSearch.value).toBeLessThan(searchSettings.denseEfSearch.value);
  });

  it("lets a caller choose for itself: its own walk, or none whatever the environment says", () => {
    process.env.MNEMO_DENSE_WALK = "1500";
    resetConfig();
    expect(denseReading({ denseWalk: 300 })).toEqual({ efSearch: searchSettings.denseWalkEfSearch.value, walk: 300 });
    expect(denseReading({ denseWalk: null })).toEqual({ efSearch: searchSettings.denseEfSearch.value });
    expect(denseReadingLabel({ efSearch: 400, walk: 1500 })).toBe("ef_search 400, walk 1500");
    expect(denseReadingLabel({ efSearch: 1000 })).toBe("ef_search 1000");
  });
});
