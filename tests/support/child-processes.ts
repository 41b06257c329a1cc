import { spawn, type ChildProcess } from "node:child_process";

/**
 * Real processes for the fault tests: a TypeScript script started with Node itself (not npx,
 * which would stay behind as a parent and leave the real process orphaned when killed), with
 * tsx as its loader and the react-server condition, as `npm run worker` runs.
 */
export interface ScriptProcess {
  child: ChildProcess;
  /** Every line the process printed on stdout so far. */
  lines: string[];
  /** Its stderr so far, for failure messages. */
  errors: () => string;
  exited: Promise<number | null>;
}

export function startScript(script: string, args: string[], env: Record<string, string | undefined>, options: { stdin?: string } = {}): ScriptProcess {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", script, ...args], {
    env: { ...process.env, NODE_ENV: "test", ...env },
    stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  child.stdout?.on("data", (data: Buffer) => {
    const text = partial + data.toString("utf8");
    const parts = text.split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  });
  child.stderr?.on("data", (data: Buffer) => (stderr += data.toString("utf8")));
  // "close", not "exit": it comes after the last of the process's output has been read.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, lines, errors: () => stderr, exited };
}

/** SIGKILL: no handler runs, no transaction is finished, nothing is flushed by the process. */
export async function killHard(process: ScriptProcess): Promise<void> {
  if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill("SIGKILL");
  await process.exited;
}

export async function waitFor(what: string, condition: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}
