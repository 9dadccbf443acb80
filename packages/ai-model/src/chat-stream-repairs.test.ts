import { describe, expect, it } from "vitest";
import { chatStreamState, closingChunk, repairedChunk, withChatStreamRepairs } from "./chat-stream-repairs.js";

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish, ...extra }] });
const call = (fields: Record<string, unknown>, args?: string) => ({ ...fields, function: { ...(fields.name ? { name: fields.name } : {}), arguments: args } });

/** The index each tool-call delta of each chunk got, and the arguments joined per index. */
const indexes = (chunks: readonly string[]) => {
  const state = chatStreamState();
  const seen: number[][] = [];
  const args = new Map<number, string>();
  for (const data of chunks) {
    const value = JSON.parse(repairedChunk(data, state)) as { choices: { delta: { tool_calls?: { index: number; function?: { arguments?: string } }[] } }[] };
    const calls = value.choices[0]?.delta.tool_calls ?? [];
    seen.push(calls.map((c) => c.index));
    for (const c of calls) args.set(c.index, (args.get(c.index) ?? "") + (c.function?.arguments ?? ""));
  }
  return { seen, args: [...args.values()] };
};

describe("tool-call deltas without index", () => {
  it("both calls opened in one delta, their arguments after them by position (Kimi on Moonshot)", () => {
    const { seen, args } = indexes([
      chunk({ tool_calls: [call({ id: "bash:0", type: "function", name: "bash" }, ""), call({ id: "bash:1", type: "function", name: "bash" }, "")] }),
      chunk({ tool_calls: [call({}, '{"command":'), call({}, '{"command":')] }),
      chunk({ tool_calls: [call({}, '"echo a"}'), call({}, '"echo b"}')] }),
    ]);
    expect(seen).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    expect(args).toEqual(['{"command":"echo a"}', '{"command":"echo b"}']);
  });

  it("one call after the other, the id on the first delta only", () => {
    const { args } = indexes([
      chunk({ tool_calls: [call({ id: "a", name: "bash" }, "")] }),
      chunk({ tool_calls: [call({}, '{"command":"echo a"}')] }),
      chunk({ tool_calls: [call({ id: "b", name: "bash" }, "")] }),
      chunk({ tool_calls: [call({}, '{"command":')] }),
      chunk({ tool_calls: [call({}, '"echo b"}')] }),
    ]);
    expect(args).toEqual(['{"command":"echo a"}', '{"command":"echo b"}']);
  });

  it("the id repeated on every delta, the name too, or the arguments whole", () => {
    expect(
      indexes([
        chunk({ tool_calls: [call({ id: "a", name: "bash" }, "")] }),
        chunk({ tool_calls: [call({ id: "a" }, '{"command":"echo a"}')] }),
        chunk({ tool_calls: [call({ id: "b", name: "bash" }, '{"comm')] }),
        chunk({ tool_calls: [call({ id: "b", name: "bash" }, 'and":"echo b"}')] }),
      ]).args,
    ).toEqual(['{"command":"echo a"}', '{"command":"echo b"}']);
    expect(
      indexes([
        chunk({ tool_calls: [call({ id: "a", name: "bash" }, '{"command":"echo a"}')] }),
        chunk({ tool_calls: [call({ id: "b", name: "bash" }, '{"command":"echo b"}')] }),
      ]).args,
    ).toEqual(['{"command":"echo a"}', '{"command":"echo b"}']);
  });

  it("leaves deltas with an index, and chunks that need nothing, as they came", () => {
    const state = chatStreamState();
    const indexed = chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "bash", arguments: "" } }] });
    expect(repairedChunk(indexed, state)).toBe(indexed);
    expect(repairedChunk(chunk({ content: "hi" }), state)).toBe(chunk({ content: "hi" }));
    expect(repairedChunk("not json", state)).toBe("not json");
  });
});

describe("usage inside the choice (Moonshot)", () => {
  it("is copied to the chunk's usage, unless the chunk has one", () => {
    const usage = { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 };
    expect(JSON.parse(repairedChunk(chunk({}, "stop", { usage }), chatStreamState())).usage).toEqual(usage);
    const own = JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop", usage }], usage: { prompt_tokens: 1 } });
    expect(repairedChunk(own, chatStreamState())).toBe(own);
  });
});

describe("the closing chunk", () => {
  it("is stop, or tool_calls when calls came; none once finished, after an error, or before any chunk", () => {
    const state = chatStreamState();
    expect(closingChunk(state, true)).toBeUndefined();
    repairedChunk(chunk({ role: "assistant", content: "" }), state);
    // An empty answer is whole when the server said [DONE], not when the body just ended.
    expect(JSON.parse(closingChunk(state, true)!).choices[0].finish_reason).toBe("stop");
    expect(closingChunk(state, false)).toBeUndefined();
    repairedChunk(chunk({ content: "hi" }), state);
    expect(JSON.parse(closingChunk(state, false)!).choices[0].finish_reason).toBe("stop");
    repairedChunk(chunk({ tool_calls: [{ id: "a", function: { name: "bash", arguments: "{}" } }] }), state);
    expect(JSON.parse(closingChunk(state, false)!).choices[0].finish_reason).toBe("tool_calls");
    repairedChunk(chunk({}, "length"), state);
    expect(closingChunk(state, true)).toBeUndefined();
    const failed = chatStreamState();
    repairedChunk(chunk({ content: "hi" }), failed);
    repairedChunk(JSON.stringify({ error: { message: "upstream" }, choices: [] }), failed);
    expect(closingChunk(failed, true)).toBeUndefined();
  });
});

/** The body a server sends, cut in `size`-character writes, through the repairs: what the provider reads. */
const through = async (wire: string, size = 7, end: "close" | "error" = "close"): Promise<string> => {
  const bytes = new TextEncoder().encode(wire);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
      if (end === "close") controller.close();
      else controller.error(new TypeError("terminated"));
    },
  });
  const send = withChatStreamRepairs(async () => new Response(body, { headers: { "content-type": "text/event-stream" } }));
  return await (await send("http://x/v1/chat/completions")).text();
};

describe("withChatStreamRepairs", () => {
  const text = `data: ${chunk({ role: "assistant", content: "Hi" })}\n\ndata: ${chunk({ content: " there" })}\n\n`;

  it("finishes a stream ended by [DONE] or after a whole event, in any writes", async () => {
    for (const size of [1, 7, 4096]) {
      expect(await through(`${text}data: [DONE]\n\n`, size)).toMatch(/"finish_reason":"stop".*\n\ndata: \[DONE\]\n\n$/s);
      expect(await through(text, size)).toMatch(/"finish_reason":"stop"\}\]\}\n\n$/);
      expect(await through(text.replaceAll("\n", "\r\n"), size)).toContain('"finish_reason":"stop"');
    }
  });

  it("reads events whatever their line ends and wherever the writes cut them, comments and names aside", async () => {
    const mixed = `: keep-alive\r\n\r\nevent: message\r\ndata: ${chunk({ content: "a" })}\r\n\r\ndata: ${chunk({ content: "b" })}\r\rdata: ${chunk({ content: "c" })}\n\n`;
    for (const size of [1, 2, 3, 7]) {
      const out = await through(mixed, size);
      expect(out.match(/"content":"[abc]"/g), `writes of ${size}`).toEqual(['"content":"a"', '"content":"b"', '"content":"c"']);
      expect(out).toMatch(/"finish_reason":"stop"\}\]\}\n\n$/);
    }
    // A data field split over two lines is one event whose data has a line break.
    expect(await through('data: {"choices":[],\ndata: "id":"x"}\n\n')).toContain('data: {"choices":[],\ndata: "id":"x"}\n\n');
  });

  it("leaves a stream cut inside an event, or by a broken connection, unfinished", async () => {
    expect(await through(`${text}data: {"choices":[{"index":0,"del`)).not.toContain('"finish_reason":"stop"');
    expect(await through(`${text}data: ${chunk({ content: "!" })}\n`)).not.toContain('"finish_reason":"stop"');
    expect(await through(`${text}data: ${chunk({ content: "!" })}\r\n`, 1)).not.toContain('"finish_reason":"stop"');
    await expect(through(text, 7, "error")).rejects.toThrow("terminated");
  });

  it("adds nothing to a stream that finished", async () => {
    const finished = `${text}data: ${chunk({}, "stop")}\n\ndata: [DONE]\n\n`;
    expect(await through(finished)).toBe(finished);
  });
});
