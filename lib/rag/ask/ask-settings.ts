import "server-only";
import { z } from "zod";
import { auditSql } from "../../db/audit";
import type { SqlExecutor } from "../../db/sql-executor";
import { answerSettings } from "../config/settings";

/**
 * The refusal thresholds an admin sets over answerSettings' defaults (minSimilarity,
 * strongSimilarity, minTermCoverage): stored in app_settings, read per question (so a change
 * applies at once). Ask owns them; lib/admin checks who may change them
 * and writes through `saveAskThresholds`.
 */
export const askThresholdsKey = "ask.thresholds";

export interface AskThresholdOverrides {
  minSimilarity?: number;
  strongSimilarity?: number;
  minTermCoverage?: number;
}

export const askThresholdsSchema = z
  .object({
    minSimilarity: z.number().min(-1, "Similarities run from -1 to 1.").max(1, "Similarities run from -1 to 1."),
    strongSimilarity: z.number().min(-1, "Similarities run from -1 to 1.").max(1, "Similarities run from -1 to 1."),
    minTermCoverage: z.number().min(0, "Coverage runs from 0 to 1.").max(1, "Coverage runs from 0 to 1."),
  })
  .refine((value) => value.minSimilarity <= value.strongSimilarity, {
    path: ["strongSimilarity"],
    message: "The strong threshold must not be below the minimum.",
  });

/** The stored overrides (nothing stored: {}). Read per question, so a change applies at once. */
export async function readAskThresholdOverrides(sql: SqlExecutor): Promise<AskThresholdOverrides> {
  const [row] = await sql.query<{ value: unknown }>(`SELECT value FROM app_settings WHERE key = $1`, [askThresholdsKey]);
  const parsed = askThresholdsSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : {};
}

/** Stores validated thresholds and audits the change (before and after) in one transaction. */
export async function saveAskThresholds(sql: SqlExecutor, thresholds: z.infer<typeof askThresholdsSchema>, actorId: string | null): Promise<void> {
  const before = await readAskThresholdOverrides(sql);
  await sql.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO app_settings (key, value, updated_by_id, updated_at) VALUES ($1, $2::jsonb, $3, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by_id = EXCLUDED.updated_by_id, updated_at = now()`,
      [askThresholdsKey, JSON.stringify(thresholds), actorId],
    );
    await auditSql(tx, {
      actorId,
      action: "settings.ask_thresholds",
      targetType: "setting",
      targetId: askThresholdsKey,
      details: { before, after: thresholds },
    });
  });
}

/** The thresholds in force: the admin's where saved, else answerSettings' defaults. */
export async function readAskThresholds(sql: SqlExecutor): Promise<Required<AskThresholdOverrides>> {
  const overrides = await readAskThresholdOverrides(sql);
  return {
    minSimilarity: overrides.minSimilarity ?? answerSettings.minSimilarity.value,
    strongSimilarity: overrides.strongSimilarity ?? answerSettings.strongSimilarity.value,
    minTermCoverage: overrides.minTermCoverage ?? answerSettings.minTermCoverage.value,
  };
}

/** The similarity thresholds in force: what search calls a good and a strong match. */
export async function readMatchThresholds(sql: SqlExecutor): Promise<{ good: number; strong: number }> {
  const thresholds = await readAskThresholds(sql);
  return { good: thresholds.minSimilarity, strong: thresholds.strongSimilarity };
}
