/**
 * What a warm-up step runs on: a small conversation (every kind of message the prompt conversion
 * meets) and a canned event stream (reasoning, text deltas, a tool call, the usage) in the API's own
 * format, one frame per event-loop turn, written by `answerWithFrames` on an in-memory HTTP connection
 * (`cannedConnection`) or on the private local socket of warm-up-socket.ts. The step goes through the
 * real request path, HTTP client and stream parsing, so their code is compiled before the user's first
 * prompt; nothing goes on the network and nothing is shown anywhere.
 */
import type { Message, ToolSpec } from "@mm/core";
import { Duplex } from "node:stream";

/** The API whose wire format the canned answer speaks. */
export type WarmUpApi = "chat" | "responses";

const TOOL: ToolSpec = {
  name: "bash",
  description: "Run a command.",
  inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

/** The warm-up step's request, less its signal. */
export const warmUpRequest = {
  system: "Warm-up.",
  messages: [
    { role: "user", text: "warm up" },
    { role: "assistant", text: "Running it.", toolCalls: [{ id: "call_1", name: "bash", input: { command: "true" } }] },
    { role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "done" },
    { role: "user", text: "and again" },
  ] as const satisfies readonly Message[],
  tools: [TOOL],
} as const;

const TEXT = ["The ", "warm-", "up ", "step ", "streams ", "a ", "few ", "words."];

const chatFrames = (model: string): string[] => {
  const head = `data: {"id":"warm-up","object":"chat.completion.chunk","created":0,"model":${JSON.stringify(model)},"choices":[`;
  const choice = (delta: unknown, finish: string | null = null): string => `${head}${JSON.stringify({ index: 0, delta, finish_reason: finish })}]}\n\n`;
  return [
    choice({ role: "assistant", content: "" }),
    choice({ reasoning_content: "Thinking " }),
    choice({ reasoning_content: "briefly." }),
    ...TEXT.map((content) => choice({ content })),
    choice({ tool_calls: [{ index: 0, id: "call_2", type: "function", function: { name: "bash", arguments: "" } }] }),
    choice({ tool_calls: [{ index: 0, function: { arguments: '{"command":' } }] }),
    choice({ tool_calls: [{ index: 0, function: { arguments: '"true"}' } }] }),
    choice({}, "tool_calls"),
    `${head}],"usage":{"prompt_tokens":10,"completion_tokens":10,"total_tokens":20}}\n\n`,
    "data: [DONE]\n\n",
  ];
};

const responsesFrames = (model: string): string[] => {
  let seq = 0;
  const event = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const response = { id: "resp_warm", object: "response", created_at: 0, model };
  const message = { type: "message", id: "msg_warm", role: "assistant", content: [] };
  const call = { type: "function_call", id: "fc_warm", call_id: "call_2", name: "bash" };
  const args = '{"command":"true"}';
  return [
    event("response.created", { response: { ...response, status: "in_progress" } }),
    event("response.output_item.added", { output_index: 0, item: { ...message, status: "in_progress" } }),
    ...TEXT.map((delta) => event("response.output_text.delta", { item_id: message.id, output_index: 0, content_index: 0, delta })),
    event("response.output_item.done", { output_index: 0, item: { ...message, status: "completed" } }),
    event("response.output_item.added", { output_index: 1, item: { ...call, arguments: "", status: "in_progress" } }),
    event("response.function_call_arguments.delta", { item_id: call.id, output_index: 1, delta: args }),
    event("response.output_item.done", { output_index: 1, item: { ...call, arguments: args, status: "completed" } }),
    event("response.completed", {
      response: {
        ...response,
        status: "completed",
        usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 },
      },
    }),
  ];
};

/** A chat-completions answer streaming `texts` as text deltas, then the usage (a rehearsed turn's answer). */
export const chatTextFrames = (model: string, texts: readonly string[]): string[] => {
  const head = `data: {"id":"rehearsal","object":"chat.completion.chunk","created":0,"model":${JSON.stringify(model)},"choices":[`;
  const choice = (delta: unknown, finish: string | null = null): string => `${head}${JSON.stringify({ index: 0, delta, finish_reason: finish })}]}\n\n`;
  return [
    choice({ role: "assistant", content: "" }),
    ...texts.map((content) => choice({ content })),
    choice({}, "stop"),
    `${head}],"usage":{"prompt_tokens":10,"completion_tokens":10,"total_tokens":20}}\n\n`,
    "data: [DONE]\n\n",
  ];
};

/** The canned answer's frames for `api`. */
export const warmUpFrames = (api: WarmUpApi, model: string): string[] => (api === "chat" ? chatFrames(model) : responsesFrames(model));

const head = (keepAlive: boolean): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n${keepAlive ? "" : "connection: close\r\n"}\r\n`;
const chunked = (frame: string): string => `${Buffer.byteLength(frame).toString(16)}\r\n${frame}\r\n`;

/**
 * Writes a 200 event stream of `frames` (chunked; `connection: close` unless `keepAlive`) through
 * `write`: the head at once, then one frame per event-loop turn, then the last chunk and `done`.
 * Stops where `gone` says the connection went.
 */
export const answerWithFrames = (out: { readonly write: (text: string) => void; readonly gone: () => boolean; readonly done: () => void }, frames: readonly string[], keepAlive: boolean): void => {
  out.write(head(keepAlive));
  let next = 0;
  const push = (): void => {
    if (out.gone()) return;
    if (next < frames.length) {
      out.write(chunked(frames[next++]!));
      setImmediate(push);
      return;
    }
    out.write("0\r\n\r\n");
    out.done();
  };
  setImmediate(push);
};

/**
 * An in-memory connection: whatever is written to it is taken as one request, answered (on the next
 * event-loop turn) with a 200 event stream of `frames`, one per turn. Destroying it stops the answer.
 */
export const cannedConnection = (frames: readonly string[]): Duplex => {
  let answered = false;
  const answer = (): void => {
    if (socket.destroyed) return;
    answerWithFrames({ write: (text) => socket.push(text), gone: () => socket.destroyed, done: () => socket.push(null) }, frames, false);
  };
  const received = (callback: () => void): void => {
    callback();
    if (answered) return;
    answered = true;
    setImmediate(answer);
  };
  const socket = new Duplex({
    read() {},
    write(_chunk, _encoding, callback) {
      received(callback);
    },
    writev(_chunks, callback) {
      received(callback);
    },
    final(callback) {
      callback();
    },
  });
  return socket;
};
