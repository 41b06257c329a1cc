import { describe, expect, it } from "vitest";
import { GenerationError } from "./generator";
import { type ToolChatMessage, anthropicToolRequestBody, openAiToolRequestBody, parseAnthropicToolTurn, parseOpenAiToolTurn } from "./tool-chat";

const conversation: ToolChatMessage[] = [
  { role: "user", text: "What did the lamp burn?" },
  {
    role: "assistant",
    text: "Searching.",
    toolCalls: [
      { id: "c1", name: "semantic_search", arguments: { query: "lamp" } },
      { id: "c2", name: "read_record", arguments: '{"recordId":"r1"}' },
    ],
  },
  {
    role: "tool",
    results: [
      { id: "c1", name: "semantic_search", content: '{"results":[]}', isError: false },
      { id: "c2", name: "read_record", content: "not_found: Not found.", isError: true },
    ],
  },
];
const request = {
  system: "Be brief.",
  messages: conversation,
  tools: [{ name: "semantic_search", description: "Search.", inputSchema: { type: "object", properties: { query: { type: "string" } } } }],
  maxTokens: 500,
  temperature: 0.1,
};

describe("OpenAI chat-completions tool calls", () => {
  it("sends the system prompt, tool calls as JSON strings and results as tool messages", () => {
    expect(openAiToolRequestBody("m", request)).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What did the lamp burn?" },
        {
          role: "assistant",
          content: "Searching.",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "semantic_search", arguments: '{"query":"lamp"}' } },
            { id: "c2", type: "function", function: { name: "read_record", arguments: '{"recordId":"r1"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: '{"results":[]}' },
        { role: "tool", tool_call_id: "c2", content: "Error: not_found: Not found." },
      ],
      tools: [{ type: "function", function: { name: "semantic_search", description: "Search.", parameters: request.tools[0]!.inputSchema } }],
      tool_choice: "auto",
      max_tokens: 500,
      temperature: 0.1,
      stream: false,
    });
  });

  it("reads tool calls, text and usage, and refuses what is not a completion", () => {
    const turn = parseOpenAiToolTurn({
      choices: [
        {
          message: { content: null, tool_calls: [{ id: "x", type: "function", function: { name: "retrieve", arguments: '{"query":"oil"}' } }] },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 120, completion_tokens: 7 },
    });
    expect(turn).toEqual({
      text: "",
      toolCalls: [{ id: "x", name: "retrieve", arguments: '{"query":"oil"}' }],
      usage: { input: 120, output: 7 },
      stop: "tool_calls",
    });
    expect(parseOpenAiToolTurn({ choices: [{ message: { content: "Whale oil [1]." }, finish_reason: "stop" }] })).toEqual({
      text: "Whale oil [1].",
      toolCalls: [],
      usage: { input: 0, output: 0 },
      stop: "stop",
    });
    for (const malformed of [{}, { choices: [] }, { choices: [{ message: { tool_calls: [{ id: "", function: { name: "x" } }] } }] }, "text", null]) {
      expect(() => parseOpenAiToolTurn(malformed)).toThrow(GenerationError);
    }
    expect(() => parseOpenAiToolTurn({ choices: [] })).toThrow(/not a chat completion/);
  });
});

describe("Anthropic Messages tool use", () => {
  it("sends tool_use blocks with object inputs and tool_result blocks in a user turn", () => {
    expect(anthropicToolRequestBody("claude", request)).toEqual({
      model: "claude",
      system: "Be brief.",
      max_tokens: 500,
      temperature: 0.1,
      tools: [{ name: "semantic_search", description: "Search.", input_schema: request.tools[0]!.inputSchema }],
      messages: [
        { role: "user", content: "What did the lamp burn?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Searching." },
            { type: "tool_use", id: "c1", name: "semantic_search", input: { query: "lamp" } },
            { type: "tool_use", id: "c2", name: "read_record", input: { recordId: "r1" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: '{"results":[]}' },
            { type: "tool_result", tool_use_id: "c2", content: "not_found: Not found.", is_error: true },
          ],
        },
      ],
    });
  });

  it("reads text and tool_use blocks and usage, skips thinking, and refuses what is not a message", () => {
    const turn = parseAnthropicToolTurn({
      content: [
        { type: "thinking", thinking: "hm" },
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "t1", name: "read_record", input: { recordId: "r1" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 50, output_tokens: 9 },
    });
    expect(turn).toEqual({
      text: "Let me look.",
      toolCalls: [{ id: "t1", name: "read_record", arguments: { recordId: "r1" } }],
      usage: { input: 50, output: 9 },
      stop: "tool_calls",
    });
    expect(parseAnthropicToolTurn({ content: [{ type: "text", text: "Done." }], stop_reason: "end_turn" }).stop).toBe("end_turn");
    for (const malformed of [{}, { content: "text" }, { content: [{ type: "tool_use", name: "x" }] }, { content: [{ type: "image" }] }]) {
      expect(() => parseAnthropicToolTurn(malformed)).toThrow(GenerationError);
    }
  });
});
