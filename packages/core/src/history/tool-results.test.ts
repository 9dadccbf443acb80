import { describe, expect, it } from "vitest";
import { assistantMessage, userMessage, type Message, type ToolResultMessage } from "./message.js";
import { NO_RESULT, withAllToolResults } from "./tool-results.js";

const result = (callId: string): ToolResultMessage => ({ role: "tool", callId, toolName: "bash", status: "completed", output: "ok" });
const filler = (callId: string): ToolResultMessage => ({ role: "tool", callId, toolName: "bash", status: "failed", output: NO_RESULT });
const calls = (...ids: string[]) =>
  assistantMessage(
    "",
    ids.map((id) => ({ id, name: "bash", input: {} })),
  );

describe("withAllToolResults", () => {
  it("returns the same messages when every call has its result", () => {
    const messages: Message[] = [userMessage("q"), calls("call_1"), result("call_1")];
    expect(withAllToolResults(messages)).toBe(messages);
  });

  it("adds a placeholder after the recorded results of the same step, for each call without one", () => {
    expect(withAllToolResults([userMessage("q"), calls("call_1", "call_2", "call_3"), result("call_2"), userMessage("next"), calls("call_4")])).toEqual([
      userMessage("q"),
      calls("call_1", "call_2", "call_3"),
      result("call_2"),
      filler("call_1"),
      filler("call_3"),
      userMessage("next"),
      calls("call_4"),
      filler("call_4"),
    ]);
  });
});
