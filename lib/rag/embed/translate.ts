import "server-only";
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddingError, errorMessage } from "./embedder";
import { rephraseEnglishForCatalan } from "./rephrase";

/**
 * The language bridge: Spanish and Catalan text is machine-translated to English with
 * Apertium (Debian packages apertium, apertium-eng-spa, apertium-eng-cat) so an English-only
 * embedding model can place it. Without Apertium the app still runs: callers check
 * `bridgeStatus()` and embed the original text.
 *
 * Texts translated with marks (the bridge's passages, queries and name probes, the glosses beside
 * an answer's quotations) go through long-lived pipelines per mode in Apertium's null-flush mode
 * (an apertium run spends ~0.4 s loading its dictionaries, which a researcher's new Spanish or
 * Catalan query paid on every search), and each text is tagged by a tagger of its own: Apertium
 * 3.8's part-of-speech tagger overwrites its class for unknown words whenever it meets a word
 * whose ambiguity class it was not trained on (Catalan "com", "les sent"), so in a shared stream
 * a text's translation depended on every text before it ("la Grossa" → "it Grossa", "Com les van
 * portar…?" → "Like the took…?" after an unrelated passage). With a tagger per text a text is
 * translated the same alone, in a batch and whatever a pipeline did before (translate.test.ts).
 * A pipeline stops after five idle minutes; one that fails, stalls or is missing leaves the text
 * to a run.
 *
 * A run (texts without marks, or when no pipeline can start) sends many texts through one
 * apertium process, separated by a paragraph holding a token Apertium does not know and so
 * copies through verbatim; the blank lines around it end the sentence, so no reordering rule
 * reaches across two texts, though the tagger's state does. Input and output are temporary
 * files: feeding apertium through a Node stdin pipe can hang.
 */
export type BridgeLanguage = "es" | "ca";
/** The archive's languages: the bridge's two and English, which both pairs go through. */
export type ArchiveLanguage = BridgeLanguage | "en";
const archiveLanguages: readonly string[] = ["en", "es", "ca"];
/** Whether a detected or declared language is one of the archive's. */
export const isArchiveLanguage = (language: string): language is ArchiveLanguage => archiveLanguages.includes(language);

export interface BridgeStatus {
  available: boolean;
  pairs: Record<BridgeLanguage, boolean>;
  detail: string;
}

export interface TranslationBridgeOptions {
  /** The apertium executable (default: "apertium" on PATH). */
  apertiumPath?: string;
  /** Longest one apertium run may take (default 60 s). */
  timeoutMs?: number;
  /** Where the single "bridge unavailable" warning goes (default console.warn). */
  warn?: (line: string) => void;
  /**
   * Keep one null-flush pipeline per mode for short texts (default: when apertiumPath is the
   * installed "apertium", whose modes and apertium-wblank-mode it reads).
   */
  pipelines?: boolean;
}

export interface TranslationBridge {
  status(): Promise<BridgeStatus>;
  translateToEnglish(texts: string[], from: BridgeLanguage): Promise<string[]>;
  /**
   * Any direction between English, Spanish and Catalan: Spanish ↔ Catalan goes through
   * English. Null when a pair on the way is not installed (callers then show no translation);
   * a bridge without it (a test double) translates nothing for the reader either. With
   * `marked`, Apertium's marks are left in at every step (as `translateMarked` gives them): a
   * reader's gloss shows the words the translator did not know. The index never asks for marks.
   */
  translate?(texts: string[], from: ArchiveLanguage, to: ArchiveLanguage, options?: { marked?: boolean }): Promise<string[] | null>;
  /**
   * The same translation with Apertium's marks left in: `*word` for a word the pair does not
   * know, `@word` for one it knows but cannot translate, `#word` for one it could not inflect.
   * The bridge counts them to choose between Spanish and Catalan and to probe names. A bridge
   * without it (a test double) gets no name probing and no such choice.
   */
  translateMarked?(texts: string[], from: BridgeLanguage): Promise<string[]>;
}

const modeByLanguage: Record<BridgeLanguage, string> = { es: "spa-eng", ca: "cat-eng" };
const modeFromEnglish: Record<BridgeLanguage, string> = { es: "eng-spa", ca: "eng-cat" };

/** The Apertium modes that carry text from one archive language to another, in order. */
export function translationSteps(from: ArchiveLanguage, to: ArchiveLanguage): string[] {
  if (from === to) return [];
  if (from === "en") return [modeFromEnglish[to as BridgeLanguage]];
  if (to === "en") return [modeByLanguage[from]];
  return [modeByLanguage[from], modeFromEnglish[to]];
}
const smokeTestSentence: Record<BridgeLanguage, string> = { es: "El perro ladra.", ca: "El gos borda." };
const separatorBase = "MNEMOSEP7Q";
/** Characters a pipeline takes in one call (about two pages); longer work is sent in several calls. */
const maxPipelineCharacters = 4_000;
/** Taggers running at once for one pipeline's texts (each ~25 ms to start and read its model). */
const taggerConcurrency = 2;
/** Longest a pipeline may take for one call before it is ended and the call goes to a run. */
const pipelineTimeoutMs = 10_000;
/** A pipeline unused this long is stopped (it holds ~200 MB); the next call starts it again. */
const pipelineIdleMs = 5 * 60_000;
/** Characters per apertium run: a few seconds of work, well inside the time-out. */
const maxCharactersPerRun = 200_000;
const statusTimeoutMs = 20_000;

/** The real bridge: every direction, marked or not. */
export type ApertiumBridge = TranslationBridge & Required<Pick<TranslationBridge, "translate" | "translateMarked">>;

export function createTranslationBridge(options: TranslationBridgeOptions = {}): ApertiumBridge {
  const apertiumPath = options.apertiumPath ?? "apertium";
  const timeoutMs = options.timeoutMs ?? 60_000;
  const warn = options.warn ?? ((line: string) => console.warn(line));
  let cachedStatus: Promise<BridgeStatus> | undefined;
  let cachedModes: Promise<string[]> | undefined;
  const pipelines = (options.pipelines ?? apertiumPath === "apertium") ? new Map<string, TextPipeline | null>() : null;

  /** The mode's pipeline, started on first use; null where it cannot run (then a run is used). */
  async function pipelineFor(mode: string, marked: boolean): Promise<TextPipeline | null> {
    if (!pipelines) return null;
    const key = `${mode}${marked ? " marked" : ""}`;
    if (!pipelines.has(key)) {
      const script = await nullFlushScript(mode).catch(() => null);
      const stages = script ? splitAtTagger(script) : null;
      pipelines.set(key, stages ? new TaggerPerTextPipeline(stages, marked) : null);
    }
    const pipeline = pipelines.get(key) ?? null;
    return pipeline?.usable ? pipeline : null;
  }

  /** The installed modes (apertium -l), read once; an apertium that cannot run has none. */
  function installedModes(): Promise<string[]> {
    cachedModes ??= runApertium(apertiumPath, ["-l"], statusTimeoutMs).then(
      (listed) => listed.split(/\s+/).filter(Boolean),
      () => [],
    );
    return cachedModes;
  }

  async function translateWithMode(texts: string[], mode: string, marked = false): Promise<string[]> {
    const cleaned = texts.map(cleanForApertium);
    const results = cleaned.map(() => "");
    // Blank texts need no translation, and would only blur where one text ends.
    const pending = cleaned.flatMap((text, index) => (text.trim() ? [index] : []));
    // The bridge's texts (bridge-text.ts counts the marks) and an answer's glosses are
    // translated marked, so only marked modes get a pipeline: each holds ~200 MB of dictionaries
    // in a dozen processes. Long work goes in calls of about two pages.
    if (marked && pending.length > 0) {
      const pipeline = await pipelineFor(mode, marked);
      const calls = runsByLength(pending, (index) => cleaned[index]?.length ?? 0, maxPipelineCharacters);
      const translated: string[][] = [];
      for (const call of pipeline ? calls : []) {
        const answer = await pipeline!.translate(call.map((index) => cleaned[index] ?? "")).catch(() => null);
        if (!answer) break;
        translated.push(answer);
      }
      if (translated.length === calls.length) {
        calls.forEach((call, number) =>
          call.forEach((index, position) => {
            results[index] = translated[number]![position] ?? "";
          }),
        );
        return results;
      }
    }
    for (const run of runsByLength(pending, (index) => cleaned[index]?.length ?? 0)) {
      const translated = await translateRun(
        run.map((index) => cleaned[index] ?? ""),
        mode,
        timeoutMs,
        marked,
      );
      run.forEach((index, position) => {
        results[index] = translated[position] ?? "";
      });
    }
    return results;
  }

  async function translateRun(texts: string[], mode: string, runTimeoutMs: number, marked = false): Promise<string[]> {
    const separator = separatorFor(texts);
    const directory = await mkdtemp(join(tmpdir(), "mnemo-apertium-"));
    try {
      const input = join(directory, "input.txt");
      const output = join(directory, "output.txt");
      await writeFile(input, texts.join(`\n\n${separator}\n\n`) + "\n", "utf8");
      await runApertium(apertiumPath, [...(marked ? [] : ["-u"]), mode, input, output], runTimeoutMs);
      // In marked mode the separator comes back as an unknown word: *MNEMOSEP7Q.
      const translated = (await readFile(output, "utf8")).split(new RegExp(`\\s*\\*?${separator}\\s*`)).map((text) => text.trim());
      if (translated.length !== texts.length) {
        throw new EmbeddingError(`Apertium ${mode} returned ${translated.length} texts for ${texts.length}.`, { retryable: false });
      }
      return translated;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  async function checkStatus(): Promise<BridgeStatus> {
    let listed: string[];
    try {
      listed = (await runApertium(apertiumPath, ["-l"], statusTimeoutMs)).split(/\s+/).filter(Boolean);
      cachedModes ??= Promise.resolve(listed);
    } catch (error) {
      return { available: false, pairs: { es: false, ca: false }, detail: `apertium could not run (${errorMessage(error)})` };
    }
    const problems: string[] = [];
    const check = async (language: BridgeLanguage): Promise<boolean> => {
      const mode = modeByLanguage[language];
      if (!listed.includes(mode)) {
        problems.push(`mode ${mode} is not installed`);
        return false;
      }
      try {
        // A real sentence through the whole pipeline: a listed mode can still miss a program.
        const [english] = await translateRun([smokeTestSentence[language]], mode, statusTimeoutMs);
        if (!english) throw new Error("empty translation");
        return true;
      } catch (error) {
        problems.push(`${mode} failed (${errorMessage(error)})`);
        return false;
      }
    };
    const [es, ca] = await Promise.all([check("es"), check("ca")]);
    const detail = problems.length ? problems.join("; ") : `apertium ready: ${modeByLanguage.es}, ${modeByLanguage.ca}`;
    return { available: es || ca, pairs: { es, ca }, detail };
  }

  return {
    status() {
      cachedStatus ??= checkStatus().then((status) => {
        if (!status.pairs.es || !status.pairs.ca) {
          warn(
            `[mnemo] translation bridge incomplete (${status.detail}): text in a language without a pair is embedded untranslated. Install the Debian packages apertium, apertium-eng-spa and apertium-eng-cat.`,
          );
        }
        return status;
      });
      return cachedStatus;
    },

    translateToEnglish(texts: string[], from: BridgeLanguage): Promise<string[]> {
      return translateWithMode(texts, modeByLanguage[from]);
    },

    translateMarked(texts: string[], from: BridgeLanguage): Promise<string[]> {
      return translateWithMode(texts, modeByLanguage[from], true);
    },

    async translate(texts: string[], from: ArchiveLanguage, to: ArchiveLanguage, options: { marked?: boolean } = {}): Promise<string[] | null> {
      const steps = translationSteps(from, to);
      if (steps.length === 0) return [...texts];
      const modes = await installedModes();
      if (!steps.every((mode) => modes.includes(mode))) return null;
      let current = texts;
      for (const mode of steps)
        current = await translateWithMode(mode === modeFromEnglish.ca ? current.map(rephraseEnglishForCatalan) : current, mode, options.marked === true);
      return current;
    },
  };
}

/** The process's bridge: apertium from PATH, its status checked (and warned about) once. */
export const processTranslationBridge = createTranslationBridge();

export function translateToEnglish(texts: string[], from: BridgeLanguage): Promise<string[]> {
  return processTranslationBridge.translateToEnglish(texts, from);
}

export function bridgeStatus(): Promise<BridgeStatus> {
  return processTranslationBridge.status();
}

/** Apertium reads plain lines: no carriage returns, no control characters. */
function cleanForApertium(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ");
}

/** The separator token, lengthened until no text contains it. */
function separatorFor(texts: readonly string[]): string {
  let separator = separatorBase;
  for (let suffix = 0; texts.some((text) => text.toUpperCase().includes(separator)); suffix++) {
    separator = `${separatorBase}${suffix}Q`;
  }
  return separator;
}

function runsByLength(indexes: number[], length: (index: number) => number, limit = maxCharactersPerRun): number[][] {
  const runs: number[][] = [];
  let current: number[] = [];
  let characters = 0;
  for (const index of indexes) {
    if (current.length > 0 && characters + length(index) > limit) {
      runs.push(current);
      current = [];
      characters = 0;
    }
    current.push(index);
    characters += length(index);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

/**
 * Runs apertium (or one of its programs) with the given standard input, or none, and returns its
 * standard output. apertium is a shell script around a pipeline of programs, so it runs in its own
 * process group and a time-out ends the whole group.
 */
function runApertium(apertiumPath: string, args: string[], timeoutMs: number, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(apertiumPath, args, { stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], detached: true });
    if (input !== undefined) {
      child.stdin!.on("error", () => undefined);
      child.stdin!.end(input);
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }, timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new EmbeddingError(`Could not start ${apertiumPath}: ${error.message}`, { retryable: false, cause: error }));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new EmbeddingError(`Apertium took longer than ${timeoutMs} ms.`, { retryable: true }));
      } else if (code !== 0) {
        const message = Buffer.concat(stderr).toString("utf8").trim().split("\n")[0] ?? "";
        reject(new EmbeddingError(`Apertium failed (exit ${code}): ${message}`, { retryable: false }));
      } else {
        resolve(Buffer.concat(stdout).toString("utf8"));
      }
    });
  });
}

/**
 * The mode's programs as one shell pipeline with every program in null-flush mode (each text
 * ends with a NUL and comes back ending with one), as the apertium script itself builds it.
 */
export function nullFlushScript(mode: string): Promise<string> {
  const file = join(process.env.APERTIUM_DATADIR || "/usr/share/apertium", "modes", `${mode}.mode`);
  if (!existsSync(file)) return Promise.reject(new Error(`no mode file ${file}`));
  return new Promise((resolve, reject) => {
    execFile("apertium-wblank-mode", ["-z", file], { timeout: statusTimeoutMs }, (error, stdout) =>
      error || !stdout.trim() ? reject(error ?? new Error("empty mode")) : resolve(stdout.trim()),
    );
  });
}

/**
 * Text as Apertium's plain-text deformatter writes it: its reserved characters escaped, a tilde
 * and line breaks kept as format blocks, and a full stop before a paragraph break and at the end
 * (it ends a sentence for the tagger and transfer rules; the reformatter takes it out again).
 */
export function toApertiumStream(text: string): string {
  const escaped = text.replace(/[\\[\]^$/<>@{}]/g, (character) => `\\${character}`).replace(/~/g, "[~]");
  return escaped.replace(/\n+/g, (breaks) => (breaks.length > 1 ? `.[][${breaks}]` : `[${breaks}]`)) + ".[][\n]";
}

/** The reformatter's work: the added full stops out, format blocks give back their content, escapes their character. */
export function fromApertiumStream(stream: string): string {
  let text = "";
  let inBlock = false;
  for (let index = 0; index < stream.length; index++) {
    const character = stream[index]!;
    if (character === "\\" && index + 1 < stream.length) {
      text += stream[++index];
    } else if (!inBlock && character === "[") {
      if (text.endsWith(".") && stream.startsWith("[][", index)) text = text.slice(0, -1);
      inBlock = true;
    } else if (inBlock && character === "]") {
      inBlock = false;
    } else {
      text += character;
    }
  }
  return text.trim();
}

/** Texts in, their translations out, in order. */
export interface TextPipeline {
  readonly usable: boolean;
  translate(texts: string[]): Promise<string[]>;
  stop(): void;
}

/** A null-flush script cut around its part-of-speech tagger. */
export interface TaggerStages {
  /** Deformatted text to the analyses the tagger reads (morphology, constraint grammar). */
  before: string;
  tagger: string;
  /** The tagger's choices to text (transfer, generation). */
  after: string;
}

/** The script's programs before the tagger, the tagger, and those after; null without a tagger. */
export function splitAtTagger(script: string): TaggerStages | null {
  const programs = script.split(" | ");
  const at = programs.findIndex((program) => /^\s*apertium-tagger\s/.test(program));
  if (at <= 0 || at === programs.length - 1) return null;
  return { before: programs.slice(0, at).join(" | "), tagger: programs[at]!.trim(), after: programs.slice(at + 1).join(" | ") };
}

/**
 * One Apertium mode with a fresh tagger for every text: the analysis before the tagger and the
 * transfer and generation after it stay running in null-flush mode, the tagger (a model of ~100
 * KB) starts for each text, so nothing one text does to it reaches another (see the top of this
 * file). A failure anywhere fails the call.
 */
export class TaggerPerTextPipeline implements TextPipeline {
  private readonly before: NullFlushPipeline;
  private readonly after: NullFlushPipeline;

  constructor(
    private readonly stages: TaggerStages,
    private readonly marked: boolean,
    private readonly timeoutMs = pipelineTimeoutMs,
  ) {
    this.before = new NullFlushPipeline(stages.before, marked, timeoutMs, "before");
    this.after = new NullFlushPipeline(stages.after, marked, timeoutMs, "after");
  }

  get usable(): boolean {
    return this.before.usable && this.after.usable;
  }

  async translate(texts: string[]): Promise<string[]> {
    const analysed = await this.before.translate(texts);
    const tagged: string[] = new Array(analysed.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(taggerConcurrency, analysed.length) }, async () => {
        while (next < analysed.length) {
          const index = next++;
          tagged[index] = await runTagger(this.stages.tagger, analysed[index]!, this.marked, this.timeoutMs);
        }
      }),
    );
    return this.after.translate(tagged);
  }

  stop(): void {
    this.before.stop();
    this.after.stop();
  }
}

/**
 * A mode file's command as its words, when it is only words, single-quoted paths and the
 * positional parameters $1 and $2 (an empty one drops out, as in the shell); null otherwise.
 */
export function plainCommand(command: string, parameters: readonly string[]): string[] | null {
  const words: string[] = [];
  for (const match of command.trim().matchAll(/'([^']*)'|(\S+)/g)) {
    if (match[1] !== undefined) words.push(match[1]);
    else if (/^\$[12]$/.test(match[2]!)) {
      const value = parameters[Number(match[2]!.slice(1)) - 1] ?? "";
      if (value) words.push(value);
    } else if (/^[\w./=+-]+$/.test(match[2]!)) words.push(match[2]!);
    else return null;
  }
  return words.length > 0 ? words : null;
}

/** One text's analyses through a tagger of its own (null-flush mode: one text, ended by a NUL). */
async function runTagger(tagger: string, analyses: string, marked: boolean, timeoutMs: number): Promise<string> {
  // Started directly when the mode's line is plain words (a shell would add ~5 ms per text).
  const words = plainCommand(tagger, [marked ? "-g" : "-n", ""]);
  const [program, args] = words ? [words[0]!, words.slice(1)] : ["bash", ["-c", tagger, "apertium", marked ? "-g" : "-n", ""]];
  const tagged = await runApertium(program, args, timeoutMs, `${analyses}\0`);
  // It ends the text with a NUL, and another at the end of its input.
  if (!tagged.endsWith("\0")) throw new EmbeddingError("The Apertium tagger gave no whole text.", { retryable: false });
  return tagged.replace(/\0+$/, "");
}

/**
 * One Apertium mode (or part of one) kept running in null-flush mode. Calls are answered in
 * order, one at a time; a call that errs or stalls ends the pipeline (its process group), and
 * after three such ends it is not started again in this process. A whole mode reads and writes
 * text; the part `before` the tagger reads text and writes Apertium's stream as is, the part
 * `after` it reads the tagger's stream and writes text.
 */
export class NullFlushPipeline implements TextPipeline {
  private child: ChildProcessWithoutNullStreams | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private failures = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly script: string,
    private readonly marked: boolean,
    private readonly timeoutMs = pipelineTimeoutMs,
    private readonly part: "whole" | "before" | "after" = "whole",
  ) {}

  get usable(): boolean {
    return this.failures < 3;
  }

  /** The running pipeline's process group id, if one runs (for tests). */
  get processGroup(): number | undefined {
    return this.child?.pid;
  }

  translate(texts: string[]): Promise<string[]> {
    clearTimeout(this.idle);
    const result = this.queue.then(() => this.run(texts));
    this.queue = result.catch(() => undefined);
    void this.queue.then(() => {
      clearTimeout(this.idle);
      this.idle = setTimeout(() => this.stop(), pipelineIdleMs);
      this.idle.unref();
    });
    return result;
  }

  private start(): ChildProcessWithoutNullStreams {
    // $1 is the generator's option (-g marks what it cannot generate, -n leaves it unmarked),
    // $2 the tagger's (none).
    const child = spawn("bash", ["-c", this.script, "apertium", this.marked ? "-g" : "-n", ""], { stdio: ["pipe", "pipe", "pipe"], detached: true });
    child.stdout.setEncoding("utf8");
    child.stderr.resume();
    child.on("error", () => undefined);
    // Ended from outside (killed, out of memory): the next call starts a new one.
    child.once("exit", () => {
      if (this.child === child) this.child = null;
    });
    child.stdin.on("error", () => undefined);
    // A pipeline waiting for text does not keep the process alive; its stdin closes with it.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr] as unknown as { unref?: () => void }[]) stream.unref?.();
    return child;
  }

  stop(): void {
    const child = this.child;
    this.child = null;
    if (child?.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }

  private run(texts: string[]): Promise<string[]> {
    const child = (this.child ??= this.start());
    return new Promise<string[]>((resolve, reject) => {
      const outputs: string[] = [];
      let buffered = "";
      const finish = (error?: Error) => {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.off("exit", onExit);
        if (error) {
          this.failures++;
          this.stop();
          reject(error);
        } else {
          resolve(outputs);
        }
      };
      const onData = (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\0"); end >= 0; end = buffered.indexOf("\0")) {
          outputs.push(this.part === "before" ? buffered.slice(0, end) : fromApertiumStream(buffered.slice(0, end)));
          buffered = buffered.slice(end + 1);
        }
        if (outputs.length >= texts.length) finish(buffered.trim() ? new Error("apertium pipeline answered more than it was asked") : undefined);
      };
      const onExit = () => finish(new Error("apertium pipeline ended"));
      const timer = setTimeout(() => finish(new Error(`apertium pipeline took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
      child.stdout.on("data", onData);
      child.once("exit", onExit);
      child.stdin.write(texts.map((text) => `${this.part === "after" ? text : toApertiumStream(text)}\0`).join(""));
    });
  }
}
