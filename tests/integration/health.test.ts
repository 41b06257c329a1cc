import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../lib/db/database";
import { healthReport } from "../../lib/health";
import { type TesseractProbe, ocrStatus, probeTesseract } from "../../lib/archive/ocr/run-tesseract";
import { createTranslationBridge } from "../../lib/rag/embed/translate";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

describe(`health report (${testDatabaseMode()})`, () => {
  it("says when the language bridge is missing, and which index space serves search", async () => {
    await ensureIndexSpace(db.sql, { provider: "hash", model: "health", dimension: 8, chunkerVersion: 1 });
    const missing = createTranslationBridge({ apertiumPath: "/nonexistent/apertium", warn: () => undefined });
    const report = await healthReport(db.sql, db.mode, missing);
    expect(report).toMatchObject({
      status: "degraded",
      database: { ok: true },
      indexSpace: "hash/health/8/c1",
      languageBridge: { available: false, spanish: false, catalan: false },
    });
    expect(report.languageBridge.detail).not.toBe("");
    expect(JSON.stringify(report)).not.toMatch(/record|title/i);
  });

  it("says whether ffmpeg is there to read uploaded recordings", async () => {
    const bridge = { status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "" }) } as unknown as Parameters<typeof healthReport>[2];
    expect(
      await healthReport(db.sql, db.mode, bridge, { ocr: async () => ({ available: true, languages: ["spa", "cat", "eng"], missing: [] }) }),
    ).toMatchObject({ status: "ok", ffmpeg: { available: true } });
    expect(await healthReport(db.sql, db.mode, bridge, { ffmpeg: async () => false })).toMatchObject({ status: "degraded", ffmpeg: { available: false } });
  });

  it("says whether scans can be read: tesseract with every configured language", async () => {
    const installed = await healthReport(db.sql, db.mode, undefined, { ocr: () => ocrStatus("spa+cat+eng") });
    expect(installed.ocr).toEqual({ available: true, languages: ["spa", "cat", "eng"], missing: [] });
    const lacking = await healthReport(db.sql, db.mode, undefined, { ocr: () => ocrStatus("spa+cat+eng+grc") });
    expect(lacking).toMatchObject({ status: "degraded", ocr: { available: false, missing: ["grc"] } });
  });

  it("tells a tesseract that is not installed from one that did not answer, and asks again only after the latter", async () => {
    expect(await probeTesseract(15_000, "tesseract-not-installed-here")).toEqual({ state: "missing" });
    // A command that exists but fails (here: a shell's false) is no answer about tesseract.
    expect(await probeTesseract(15_000, "false")).toMatchObject({ state: "unsure" });
    let asked = 0;
    const busy = async (): Promise<TesseractProbe> => {
      asked += 1;
      return asked === 1 ? { state: "unsure", reason: "timed out" } : { state: "present", languages: ["eng", "spa", "cat", "ita"] };
    };
    expect(await ocrStatus("ita+eng", busy)).toMatchObject({ available: false });
    expect(await ocrStatus("ita+eng", busy)).toEqual({ available: true, languages: ["ita", "eng"], missing: [] });
    expect(await ocrStatus("ita+eng", busy)).toMatchObject({ available: true });
    expect(asked).toBe(2);
  });
});
