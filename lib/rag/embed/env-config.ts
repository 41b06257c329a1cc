import type { z } from "zod";

/**
 * Reading a model's configuration from environment variables, the same way for the text and
 * the image embedder: each config field has one variable, and every problem names it, so
 * start-up stops with something a person can fix.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

export function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** Typed readers over `env` that collect problems (whole numbers, flags) instead of throwing. */
export function envReader<Field extends string>(env: Environment, variableByField: Readonly<Record<Field, string>>) {
  const problems: string[] = [];
  const number = (field: Field): number | undefined => {
    const raw = present(env[variableByField[field]]);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value)) problems.push(`  ${variableByField[field]}: must be a whole number, got "${raw}"`);
    return value;
  };
  const flag = (field: Field): boolean | undefined => {
    const raw = present(env[variableByField[field]]);
    if (raw === undefined) return undefined;
    if (["1", "true"].includes(raw)) return true;
    if (["0", "false"].includes(raw)) return false;
    problems.push(`  ${variableByField[field]}: must be 1, true, 0 or false, got "${raw}"`);
    return undefined;
  };
  /** The trimmed values of text fields that are set, by field name. */
  const texts = (...fields: Field[]): Partial<Record<Field, string>> =>
    Object.fromEntries(fields.map((field) => [field, present(env[variableByField[field]])]).filter(([, value]) => value !== undefined));
  return { problems, number, flag, texts };
}

/**
 * Validates what was read with the schema; throws `title` and every problem, each naming its
 * variable ("is required" when it was not set at all), or `fallbackVariable` for the rest.
 */
export function parseEnvConfig<Schema extends z.ZodType, Field extends string>(
  schema: Schema,
  config: Record<string, unknown>,
  read: { problems: string[]; variableByField: Readonly<Record<Field, string>>; fallbackVariable: string; title: string },
): z.output<Schema> {
  const problems = [...read.problems];
  if (problems.length === 0) {
    const parsed = schema.safeParse(config);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      const known = typeof field === "string" && field in read.variableByField;
      const variable = known ? read.variableByField[field as Field] : read.fallbackVariable;
      const missing = known && config[field as string] === undefined;
      problems.push(`  ${variable}: ${missing ? "is required" : issue.message}`);
    }
  }
  throw new Error(`${read.title}:\n${problems.join("\n")}`);
}
