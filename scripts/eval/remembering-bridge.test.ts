import { describe, expect, it } from "vitest";
import type { BridgeLanguage, TranslationBridge } from "../../lib/rag/embed/translate";
import { rememberingBridge } from "./remembering-bridge";

function countingBridge(withMarked: boolean) {
  const runs: { method: string; texts: string[]; from: BridgeLanguage }[] = [];
  const translate = (method: string) => async (texts: string[], from: BridgeLanguage) => {
    runs.push({ method, texts, from });
    return texts.map((text) => `${method}:${from}:${text}`);
  };
  const bridge: TranslationBridge = {
    status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "test" }),
    translateToEnglish: translate("plain"),
    ...(withMarked ? { translateMarked: translate("marked") } : {}),
  };
  return { bridge, runs };
}

describe("rememberingBridge", () => {
  it("translates only unknown texts, in one run, and answers known ones from memory", async () => {
    const { bridge, runs } = countingBridge(true);
    const remembering = rememberingBridge(bridge);
    expect(await remembering.translateMarked?.(["hola", "adiós", "hola"], "es")).toEqual(["marked:es:hola", "marked:es:adiós", "marked:es:hola"]);
    expect(await remembering.translateMarked?.(["adiós", "gracias"], "es")).toEqual(["marked:es:adiós", "marked:es:gracias"]);
    expect(runs.map((run) => run.texts)).toEqual([["hola", "adiós"], ["gracias"]]);
  });

  it("keeps languages and plain and marked translations apart", async () => {
    const { bridge, runs } = countingBridge(true);
    const remembering = rememberingBridge(bridge);
    await remembering.translateMarked?.(["casa"], "es");
    expect(await remembering.translateMarked?.(["casa"], "ca")).toEqual(["marked:ca:casa"]);
    expect(await remembering.translateToEnglish(["casa"], "es")).toEqual(["plain:es:casa"]);
    expect(runs).toHaveLength(3);
  });

  it("offers no marked translation when the bridge has none, so the language handling behaves as with that bridge", () => {
    expect(rememberingBridge(countingBridge(false).bridge).translateMarked).toBeUndefined();
  });
});
