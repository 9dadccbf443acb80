import type { ModelEvent } from "@mm/core";
import { describe, expect, it } from "vitest";
import { chatStreamReader, parseInput } from "./chat-stream-reader.js";

const choice = (delta: unknown, finish: string | null = null): string => JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
const call = (index: number, fn: Record<string, unknown>, id?: string): string => choice({ tool_calls: [{ index, ...(id !== undefined ? { id, type: "function" } : {}), function: fn }] });

/** The events of `payloads` and of the end, and what stopped the stream, if anything. */
const read = (payloads: readonly string[], ended = true) => {
  const reader = chatStreamReader();
  const events: ModelEvent[] = [];
  for (const data of payloads) {
    const stop = reader.take(data, events);
    if (stop !== undefined) return { events, stop, started: reader.started };
  }
  if (ended) reader.end(events);
  return { events, stop: undefined, started: reader.started };
};

describe("chatStreamReader", () => {
  it("gives reasoning, then text, then a refusal as text, per chunk; the finish with the last usage at the end", () => {
    const { events } = read([
      choice({ role: "assistant", content: "" }),
      choice({ reasoning_content: "Think " }),
      choice({ reasoning: "more.", content: "Hi", refusal: "no" }),
      choice({}, "stop"),
      JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 2 } }),
      "[DONE]",
    ]);
    expect(events).toEqual([
      { type: "reasoning", text: "Think " },
      { type: "reasoning", text: "more." },
      { type: "text", text: "Hi" },
      { type: "text", text: "no" },
      { type: "finish", usage: { inputTokens: 9, outputTokens: 2 } },
    ]);
  });

  it("finishes without usage when none came, and with 0 for a count the usage lacks", () => {
    expect(read([choice({ content: "a" })]).events.at(-1)).toEqual({ type: "finish", usage: {} });
    expect(read([JSON.stringify({ choices: [], usage: { completion_tokens: 1 } })]).events.at(-1)).toEqual({ type: "finish", usage: { inputTokens: 0, outputTokens: 1 } });
  });

  it("gathers tool calls per index and reports them at the end in index order, arguments parsed", () => {
    const { events } = read([
      call(1, { name: "read_file", arguments: "" }, "b"),
      call(0, { name: "bash", arguments: '{"command":' }, "a"),
      call(1, { arguments: '{"path":"x"}' }),
      call(0, { arguments: '"ls"}' }),
      choice({}, "tool_calls"),
    ]);
    expect(events).toEqual([
      { type: "tool-call", id: "a", name: "bash", input: { command: "ls" } },
      { type: "tool-call", id: "b", name: "read_file", input: { path: "x" } },
      { type: "finish", usage: {} },
    ]);
  });

  it("makes an id for a call without one or with one already used, and tells calls sharing index 0 apart by their ids", () => {
    const { events } = read([call(0, { name: "bash", arguments: "{}" }), call(1, { name: "bash", arguments: "{}" }, "dup"), call(2, { name: "bash", arguments: "{}" }, "dup")]);
    const ids = events.filter((e) => e.type === "tool-call").map((e) => (e as { id: string }).id);
    expect(ids[0]).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(ids[1]).toBe("dup");
    expect(ids[2]).toMatch(/^[0-9A-Za-z]{16}$/);
    const shared = read([call(0, { name: "bash", arguments: '{"command":"a"}' }, "x"), call(0, { name: "bash", arguments: '{"command":"b"}' }, "y")]).events;
    expect(shared.slice(0, 2)).toEqual([
      { type: "tool-call", id: "x", name: "bash", input: { command: "a" } },
      { type: "tool-call", id: "y", name: "bash", input: { command: "b" } },
    ]);
  });

  it("tells calls sharing index 0 without ids apart as the AI SDK does: another name, or fresh arguments after whole ones", () => {
    const inputs = (payloads: readonly string[]) =>
      read(payloads).events.flatMap((e) => (e.type === "tool-call" ? [{ name: e.name, input: e.input }] : []));
    expect(inputs([call(0, { name: "bash", arguments: '{"command":"ls"}' }), call(0, { name: "read_file", arguments: '{"path":"a"}' })])).toEqual([
      { name: "bash", input: { command: "ls" } },
      { name: "read_file", input: { path: "a" } },
    ]);
    // Blank ids (TGI-style `id: ""`), the same tool twice.
    expect(inputs([call(0, { name: "bash", arguments: '{"command":"ls"}' }, ""), call(0, { name: "bash", arguments: '{"command":"pwd"}' }, "")])).toEqual([
      { name: "bash", input: { command: "ls" } },
      { name: "bash", input: { command: "pwd" } },
    ]);
    // The name repeated on every piece of one call: still one call.
    expect(inputs([call(0, { name: "bash", arguments: '{"command":' }), call(0, { name: "bash", arguments: '"ls"}' })])).toEqual([{ name: "bash", input: { command: "ls" } }]);
  });

  it("skips a new call with a blank name, and stops at one with no name at all", () => {
    expect(read([call(0, { name: " ", arguments: "{}" })]).events).toEqual([{ type: "finish", usage: {} }]);
    const { stop } = read([call(0, { arguments: "{}" })]);
    expect(stop).toMatchObject({ kind: "failed", error: { name: "AI_InvalidResponseDataError", message: "Expected 'function.name' to be a string." } });
  });

  it("an error frame before any output is the call's failure; after output, the stream's", () => {
    const frame = JSON.stringify({ error: { message: "overloaded", type: "server_error" } });
    const early = read([choice({ role: "assistant", content: "" }), choice({ reasoning_content: "hm" }), frame]);
    expect(early).toMatchObject({ stop: { kind: "early-error", frame: { message: "overloaded", type: "server_error" } }, started: false });
    const late = read([choice({ content: "Hel" }), frame]);
    expect(late.events).toEqual([{ type: "text", text: "Hel" }]);
    expect(late).toMatchObject({ stop: { kind: "failed", error: { message: "overloaded" } }, started: true });
  });

  it("stops at a payload that is not JSON or not a chunk, after the reasoning of a chunk that fails its check", () => {
    expect(read(["{not json"]).stop).toMatchObject({ kind: "failed", error: { name: "AI_JSONParseError" } });
    const bad = read([JSON.stringify({ choices: [{ delta: { reasoning_content: "r", content: 5 } }] })]);
    expect(bad.events).toEqual([{ type: "reasoning", text: "r" }]);
    expect(bad.stop).toMatchObject({ kind: "failed", error: { name: "AI_TypeValidationError" } });
  });

  it("parses tool input as JSON, {} for nothing, the raw text otherwise", () => {
    expect(parseInput(' {"a":1} ')).toEqual({ a: 1 });
    expect(parseInput("  ")).toEqual({});
    expect(parseInput('{"a":')).toBe('{"a":');
  });
});
