import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { stepParts } from "./step-parts.js";

const raw = (rawValue: unknown): LanguageModelV3StreamPart => ({ type: "raw", rawValue });
const text = (delta: string): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta });
const finish = (unified: "stop" | "length" | "content-filter" | "error" | "other"): LanguageModelV3StreamPart => ({
  type: "finish",
  finishReason: { unified, raw: undefined },
  usage: {
    inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 3, text: undefined, reasoning: undefined },
  },
});
const chatFinish = (reason: string) => raw({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });

describe("an error after the server said the answer was cut off", () => {
  it.each([
    ["length", "length"],
    ["content_filter", "content-filter"],
  ] as const)("ends the step as the %s finish said, the error kept for the log", (wire, reason) => {
    const parts = stepParts();
    parts.take(text("Half"));
    parts.take(chatFinish(wire));
    const error = { code: 502, message: "Provider returned error" };
    expect(parts.take({ type: "error", error })).toEqual({ events: [] });
    // A provider that reports the finish as an error after it: the wire's reason wins.
    parts.take(finish("error"));
    expect(parts.end()).toEqual({ finish: [{ type: "finish", usage: { inputTokens: 10, outputTokens: 3 }, reason }] });
    expect(parts.ignored).toEqual([error]);
    expect(parts.cutOff).toBe(reason);
  });

  it("a Responses answer incomplete at its output limit, then an error, ends as length", () => {
    const parts = stepParts();
    parts.take(raw({ type: "response.incomplete", response: { incomplete_details: { reason: "max_output_tokens" } } }));
    parts.take({ type: "error", error: new Error("late") });
    parts.take(finish("length"));
    expect(parts.end()).toMatchObject({ finish: [{ type: "finish", reason: "length" }] });
  });

  it("fails the step on an error before any cut-off, or after a stop", () => {
    const early = stepParts();
    expect(early.take({ type: "error", error: "boom" }).failure).toEqual({ kind: "provider", error: "boom" });
    const stopped = stepParts();
    stopped.take(chatFinish("stop"));
    expect(stopped.take({ type: "error", error: "boom" }).failure).toEqual({ kind: "provider", error: "boom" });
    expect(stopped.ignored).toEqual([]);
  });
});
