export function findPostgres(): { bin: string; vector: boolean } | null;
export function freePort(): Promise<number>;
export const settingsForTests: Record<string, string>;
export const settingsForBenchmarks: Record<string, string>;
export interface Cluster {
  url: string;
  logFile: string;
  stop(mode?: "fast" | "immediate"): void;
}
export function startCluster(options: { dir: string; port: number; settings?: Record<string, string>; log?: (line: string) => void }): Promise<Cluster>;
