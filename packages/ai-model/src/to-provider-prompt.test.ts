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

  it("converts an unchanged message once, and again when its call gets its result or the API differs", () => {
    const question: Message = { role: "user", text: "list" };
    const asked: Message = { role: "assistant", text: "", toolCalls: [call("call_1")] };
    const first = toProviderPrompt("sys", [question, asked]);
    const answered = result("call_1", "a.txt");
    const second = toProviderPrompt("sys", [question, asked, answered, { role: "user", text: "more" }]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).not.toBe(first[2]);
    expect(second.slice(1, 4)).toEqual([
      { role: "user", content: text("list") },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "bash", input: { command: "ls" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", toolName: "bash", output: { type: "text", value: "a.txt" } }] },
    ]);
    const third = toProviderPrompt("sys", [question, asked, answered]);
    expect(third[2]).toBe(second[2]);
    expect(third[3]).toBe(second[3]);
    const reasoned: Message = { role: "assistant", text: "ok", toolCalls: [], reasoning: [{ text: "hm" }] };
    expect(toProviderPrompt("sys", [reasoned])[1]).toEqual({ role: "assistant", content: [{ type: "reasoning", text: "hm" }, ...text("ok")] });
    expect(toProviderPrompt("sys", [reasoned], { imagesInToolResults: false })[1]).toEqual({ role: "assistant", content: text("ok") });
  });
});
