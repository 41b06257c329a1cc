import { type ParseArgsConfig, parseArgs } from "node:util";

/**
 * The script's command line by util.parseArgs (pass `strict: true`); a call it refuses (an unknown
 * option, a missing value) prints why and the usage line and exits 2, as every script does.
 */
export function parseArgsOrExit<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    exitWithUsage(usage, error);
  }
}

/** Prints the usage line (after why, when given) and exits 2: the script was called wrongly. */
export function exitWithUsage(usage: string, why?: unknown): never {
  console.error(why === undefined ? usage : `${why instanceof Error ? why.message : String(why)}\n${usage}`);
  process.exit(2);
}
