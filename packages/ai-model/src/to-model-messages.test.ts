import type { Message } from "@mm/core";
import { describe, expect, it } from "vitest";
import { NO_RESULT } from "@mm/core";
import { SUMMARY_HEADING, toModelPrompt } from "./to-model-messages.js";

const call = (id: string, command = "ls") => ({ id, name: "bash", input: { command } });
const result = (callId: string, output: string): Message => ({ role: "tool", callId, toolName: "bash", status: "completed", output });

describe("toModelPrompt", () => {
  it("sends user text, a summary headed as context, and assistant text", () => {
    const prompt = toModelPrompt("sys", [
      { role: "user", text: "earlier work, summarised", summary: true },
      { role: "user", text: "hi" },
      { role: "assistant", text: "hello", toolCalls: [] },
    ]);
    expect(prompt).toEqual({
      system: "sys",
      messages: [
        { role: "user", content: `${SUMMARY_HEADING}\nearlier work, summarised` },
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "text", text: "hello" }] },
      ],
    });
  });

  it("puts every call's result, in call order, in one tool message after the assistant message", () => {
    const prompt = toModelPrompt("sys", [
      { role: "assistant", text: "", toolCalls: [call("call_1"), call("call_2", "pwd")] },
      result("call_2", "/w"),
      result("call_1", "a.txt"),
    ]);
    expect(prompt.messages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "call_1", toolName: "bash", input: { command: "ls" } },
          { type: "tool-call", toolCallId: "call_2", toolName: "bash", input: { command: "pwd" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "call_1", toolName: "bash", output: { type: "text", value: "a.txt" } },
          { type: "tool-result", toolCallId: "call_2", toolName: "bash", output: { type: "text", value: "/w" } },
        ],
      },
    ]);
  });

  it("fills a missing result with a placeholder and drops a result without its call", () => {
    const prompt = toModelPrompt("sys", [
      result("call_0", "orphan"),
      { role: "assistant", text: "", toolCalls: [call("call_1")] },
      { role: "user", text: "stop" },
    ]);
    expect(prompt.messages).toEqual([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "bash", input: { command: "ls" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "bash", output: { type: "text", value: NO_RESULT } }] },
      { role: "user", content: "stop" },
    ]);
  });

  it("folds system messages found in the conversation into the system prompt", () => {
    expect(toModelPrompt("sys", [{ role: "system", text: "more" }, { role: "user", text: "hi" }])).toEqual({
      system: "sys\n\nmore",
      messages: [{ role: "user", content: "hi" }],
    });
  });
});

describe("a compaction summary", () => {
  it("reaches the model headed as context, not as a new request", () => {
    const { messages } = toModelPrompt("s", [{ role: "user", text: "## Goal\nship it", summary: true }]);
    expect(messages).toEqual([{ role: "user", content: `${SUMMARY_HEADING}\n## Goal\nship it` }]);
  });
});
