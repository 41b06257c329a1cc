import { describe, expect, it } from "vitest";
import { type SystemCheck, installPlan, missingCapabilities, packagesToInstall } from "./system-packages";

const everything: SystemCheck = {
  bridge: { available: true, pairs: { es: true, ca: true } },
  ocr: { available: true, missing: [] },
  tesseract: true,
  pdfimages: true,
  ffmpeg: true,
};

describe("the system packages Mnemo uses", () => {
  it("finds nothing missing when everything is installed", () => {
    expect(missingCapabilities(everything)).toEqual([]);
    expect(installPlan([], { uid: 1000, apt: true, sudo: false })).toEqual({ action: "none" });
  });

  it("names each missing package with what it costs a reader", () => {
    const nothing: SystemCheck = {
      bridge: { available: false, pairs: { es: false, ca: false } },
      ocr: { available: false, missing: ["spa", "cat", "eng"] },
      tesseract: false,
      pdfimages: false,
      ffmpeg: false,
    };
    const missing = missingCapabilities(nothing);
    expect(missing.map((capability) => capability.name)).toEqual([
      "Spanish translation (Apertium)",
      "Catalan translation (Apertium)",
      "reading scans (tesseract)",
      "reading scanned PDFs (poppler)",
      "reading recordings (ffmpeg)",
    ]);
    expect(missing[0]!.cost).toBe("Spanish text is searched by its words only, not by meaning, and is not translated for readers.");
    expect(packagesToInstall(missing)).toEqual([
      "apertium",
      "apertium-eng-spa",
      "apertium-eng-cat",
      "tesseract-ocr",
      "tesseract-ocr-spa",
      "tesseract-ocr-cat",
      "tesseract-ocr-eng",
      "poppler-utils",
      "ffmpeg",
    ]);
  });

  it("asks only for what is missing: one pair, one OCR language", () => {
    const partly: SystemCheck = { ...everything, bridge: { available: true, pairs: { es: true, ca: false } }, ocr: { available: false, missing: ["cat"] } };
    expect(packagesToInstall(missingCapabilities(partly))).toEqual(["apertium-eng-cat", "tesseract-ocr-cat"]);
  });

  it("installs as root with apt-get, or with sudo that asks no password; otherwise gives the command to run", () => {
    const packages = ["apertium-eng-cat", "ffmpeg"];
    expect(installPlan(packages, { uid: 0, apt: true, sudo: false })).toEqual({
      action: "install",
      commands: [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", "apertium-eng-cat", "ffmpeg"],
      ],
    });
    expect(installPlan(packages, { uid: 1000, apt: true, sudo: true })).toEqual({
      action: "install",
      commands: [
        ["sudo", "-n", "apt-get", "update"],
        ["sudo", "-n", "apt-get", "install", "-y", "--no-install-recommends", "apertium-eng-cat", "ffmpeg"],
      ],
    });
    const notRoot = installPlan(packages, { uid: 1000, apt: true, sudo: false });
    expect(notRoot).toMatchObject({ action: "ask", command: "sudo apt-get install -y apertium-eng-cat ffmpeg" });
    expect(notRoot.action === "ask" && notRoot.reason).toMatch(/needs root/);
    expect(installPlan(packages, { uid: 0, apt: false, sudo: false })).toMatchObject({ action: "ask", reason: expect.stringMatching(/no apt-get/) });
  });
});
