import type { Message } from "@mm/core";
import { describe, expect, it } from "vitest";
import { NO_RESULT } from "@mm/core";
import { SUMMARY_HEADING, toProviderPrompt } from "./to-provider-prompt.js";

const call = (id: string, command = "ls") => ({ id, name: "bash", input: { command } });
const result = (callId: string, output: string): Message => ({ role: "tool", callId, toolName: "bash", status: "completed", output });
const text = (t: string) => [{ type: "text", text: t }];

describe("toProviderPrompt", () => {
  it("sends the system prompt, user text, a summary headed as context, and assistant text", () => {
    const prompt = toProviderPrompt("sys", [
      { role: "user", text: "earlier work, summarised", summary: true },
      { role: "user", text: "hi" },
      { role: "assistant", text: "hello", toolCalls: [] },
    ]);
    expect(prompt).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: text(`${SUMMARY_HEADING}\nearlier work, summarised`) },
      { role: "user", content: text("hi") },
      { role: "assistant", content: text("hello") },
    ]);
  });

  it("puts every call's result, in call order, in one tool message after the assistant message", () => {
    const prompt = toProviderPrompt("sys", [
      { role: "assistant", text: "", toolCalls: [call("call_1"), call("call_2", "pwd")] },
      result("call_2", "/w"),
      result("call_1", "a.txt"),
    ]);
    expect(prompt.slice(1)).toEqual([
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
    const prompt = toProviderPrompt("sys", [
      result("call_0", "orphan"),
      { role: "assistant", text: "", toolCalls: [call("call_1")] },
      { role: "user", text: "stop" },
    ]);
    expect(prompt.slice(1)).toEqual([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "bash", input: { command: "ls" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "bash", output: { type: "text", value: NO_RESULT } }] },
      { role: "user", content: text("stop") },
    ]);
  });

  it("joins system messages of the history to the system prompt and skips an empty assistant message", () => {
    expect(
      toProviderPrompt("sys", [
        { role: "system", text: "more" },
        { role: "assistant", text: "", toolCalls: [] },
      ]),
    ).toEqual([{ role: "system", content: "sys\n\nmore" }]);
  });
});
