import { describe, expect, it } from "vitest";
import { chatChunkOf, parseJson } from "./chat-chunk.js";

const chunkOf = (text: string) => {
  const parsed = parseJson(text);
  if ("error" in parsed) throw parsed.error;
  return chatChunkOf(parsed.value);
};

describe("chatChunkOf", () => {
  it("reads the first choice's text, refusal and tool calls, and the usage", () => {
    expect(chunkOf('{"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi","refusal":null}}]}')).toEqual({
      kind: "chunk",
      content: "Hi",
      refusal: undefined,
      toolCalls: undefined,
      usage: undefined,
      output: true,
    });
    const call = { index: 0, id: "c1", type: "function", function: { name: "bash", arguments: "" } };
    expect(chunkOf(JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [call] } }] }))).toMatchObject({ kind: "chunk", toolCalls: [call], output: true });
    expect(chunkOf('{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}')).toMatchObject({
      kind: "chunk",
      usage: { prompt_tokens: 3, completion_tokens: 4 },
      output: false,
    });
  });

  it("counts a role chunk, an empty text and a finish as no output", () => {
    expect(chunkOf('{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}')).toMatchObject({ output: false });
    expect(chunkOf('{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}')).toMatchObject({ output: false });
    expect(chunkOf('{"choices":[{"index":0,"delta":null}]}')).toMatchObject({ kind: "chunk", content: undefined });
  });

  it("takes a chunk that is not a chat chunk but holds error.message as an error frame, with the keys it has", () => {
    expect(chunkOf('{"error":{"message":"boom","type":"server_error","extra":1}}')).toEqual({ kind: "error", error: { message: "boom", type: "server_error" } });
    expect(chunkOf('{"error":{"message":"boom","code":null}}')).toEqual({ kind: "error", error: { message: "boom", code: null } });
  });

  it("refuses what mm cannot use, saying which field", () => {
    for (const [text, field] of [
      ["[1]", "expected an object"],
      ['{"usage":{"prompt_tokens":1}}', "choices: expected an array"],
      ['{"choices":[{"delta":{"content":5}}]}', "choices[0].delta.content"],
      ['{"choices":[{"delta":{"tool_calls":[{"function":{"name":"x"}}]}}]}', "tool_calls[0].index"],
      ['{"choices":[{"delta":{"tool_calls":[{"index":0}]}}]}', "tool_calls[0].function"],
      ['{"choices":[{"delta":{"tool_calls":[{"index":0,"type":"other","function":{}}]}}]}', "tool_calls[0].type"],
      ['{"choices":[],"usage":{"prompt_tokens":"3"}}', "usage.prompt_tokens"],
      ['{"error":{"message":3}}', "choices: expected an array"],
    ] as const) {
      const chunk = chunkOf(text);
      expect(chunk.kind, text).toBe("invalid");
      expect((chunk as { error: Error }).error.message, text).toContain(field);
      expect((chunk as { error: Error }).error.name).toBe("AI_TypeValidationError");
    }
  });

  it("refuses text that is not JSON, and JSON with a prototype key", () => {
    for (const text of ["{oops", '{"choices":[],"__proto__":{"x":1}}', '{"choices":[],"a":{"\\u005f_proto__":1}}', '{"choices":[],"constructor":{"prototype":{}}}']) {
      const parsed = parseJson(text);
      expect("error" in parsed, text).toBe(true);
      expect((parsed as { error: Error }).error.name).toBe("AI_JSONParseError");
    }
    expect(parseJson('{"choices":[],"constructor":"fine"}')).toEqual({ value: { choices: [], constructor: "fine" } });
  });
});
