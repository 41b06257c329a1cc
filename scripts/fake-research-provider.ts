/**
 * A scripted research model on 127.0.0.1 for the e2e and for trying research mode without a real
 * model: `npx tsx scripts/fake-research-provider.ts [port] [openai|anthropic]`. It speaks both
 * wire formats (OpenAI chat-completions tool calls at /v1/chat/completions, Anthropic tool_use at
 * /v1/messages); the flavour only picks the configuration it prints. Its script is deterministic:
 * search for the question, read the first hit, answer quoting one sentence of it with its citation
 * (tests/support/fake-tool-chat-server.ts, defaultResearchScript).
 */
import { exitWithUsage, parseArgsOrExit } from "./command-line";
import { defaultResearchScript, startFakeToolChatServer } from "../tests/support/fake-tool-chat-server";

const usage = "usage: tsx scripts/fake-research-provider.ts [port] [openai|anthropic]";
const { positionals } = parseArgsOrExit({ options: {}, allowPositionals: true, strict: true }, usage);
const port = Number(positionals[0] ?? "3199");
const flavour = positionals[1] ?? "openai";
if (positionals.length > 2 || !Number.isInteger(port) || port < 1 || port > 65_535 || (flavour !== "openai" && flavour !== "anthropic")) exitWithUsage(usage);
const server = await startFakeToolChatServer({ script: defaultResearchScript, port });
console.log(`fake research model (both wire formats) at ${server.url}`);
console.log(
  `  MNEMO_RESEARCH_PROVIDER=${flavour === "openai" ? "openai-compatible" : "anthropic"} MNEMO_RESEARCH_BASE_URL=${server.url} MNEMO_RESEARCH_MODEL=fake-research MNEMO_RESEARCH_EXTERNAL=0`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
