/**
 * Ranking and answering settings, in one place: every tuned number search and Ask use, named,
 * with its default and the one-line reason it has that value. Code reads `searchSettings.x.value`
 * or `answerSettings.x.value`; the admin spaces page lists both tables from here, so what an
 * admin reads is what the code runs. Figures that justify a value live in docs/quality.md (they
 * change with the archive); a reason here says what the number does, not the score it reached.
 *
 * A setting an admin may override per installation (Ask's refusal thresholds) or per index space
 * (fusion calibration) names where the override is stored in `overriddenBy`; the value here is the
 * default the override replaces.
 */

export interface Setting<Value extends number | string | boolean = number> {
  /** The value the code runs with (and the default an override replaces). */
  readonly value: Value;
  /** One line: what the number does and why it has this value. */
  readonly reason: string;
  /** Where an admin may replace it, if anywhere (e.g. "Admin → Ask thresholds"). */
  readonly overriddenBy?: string;
}

function setting<Value extends number | string | boolean>(value: Value, reason: string, overriddenBy?: string): Setting<Value> {
  return overriddenBy === undefined ? { value, reason } : { value, reason, overriddenBy };
}

/** Search: candidate pools, keyword scoring, fusion of the two legs, collapsing passages to records. */
export const searchSettings = {
  // Filled in as search-archive.ts and its neighbours name their constants.
  placeholder: setting(0, "Removed once the first search setting lands."),
} as const;

/** Ask: which passages may support an answer, and how the extractive answer picks its sentences. */
export const answerSettings = {
  // Filled in as ask.ts and extractive-generator.ts name their constants.
  placeholder: setting(0, "Removed once the first answer setting lands."),
} as const;

export type SettingTable = Readonly<Record<string, Setting<number | string | boolean>>>;

/** Both tables as rows for a page: section, name, value, reason, override. */
export function settingRows(): { table: "search" | "answer"; name: string; value: number | string | boolean; reason: string; overriddenBy?: string }[] {
  const rows = (table: "search" | "answer", settings: SettingTable) =>
    Object.entries(settings).map(([name, entry]) => ({ table, name, value: entry.value, reason: entry.reason, ...(entry.overriddenBy ? { overriddenBy: entry.overriddenBy } : {}) }));
  return [...rows("search", searchSettings), ...rows("answer", answerSettings)];
}

export { setting };
