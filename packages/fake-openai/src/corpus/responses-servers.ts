/**
 * Responses API streams in the shapes OpenAI documents and other servers (LM Studio, and DeepSeek-
 * style reasoning servers, GitHub Copilot) send, written by us from their documentation: named
 * `response.*` events with sequence numbers.
 */
import type { CorpusEntry } from "./entry.js";
import { event } from "./wire.js";

const response = (status: string, extra: Record<string, unknown> = {}) => ({
  id: "resp_c1",
  object: "response",
  created_at: 1764600000,
  status,
  model: "gpt-4.1-mini-2025-04-14",
  output: [],
  ...extra,
});
const usage = {
  input_tokens: 500,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 20,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 520,
};

/** The events of one response, numbered in order. */
const numbered = (events: readonly [string, Record<string, unknown>][]): string[] =>
  events.map(([type, value], n) => event(type, { sequence_number: n, ...value }));

const message = (id: string, index: number, deltas: readonly string[], annotations: readonly unknown[] = []): [string, Record<string, unknown>][] => [
  ["response.output_item.added", { output_index: index, item: { id, type: "message", status: "in_progress", content: [], role: "assistant" } }],
  ["response.content_part.added", { item_id: id, output_index: index, content_index: 0, part: { type: "output_text", annotations: [], text: "" } }],
  ...deltas.map((delta): [string, Record<string, unknown>] => [
    "response.output_text.delta",
    { item_id: id, output_index: index, content_index: 0, delta, logprobs: [] },
  ]),
  ...annotations.map((annotation, n): [string, Record<string, unknown>] => [
    "response.output_text.annotation.added",
    { item_id: id, output_index: index, content_index: 0, annotation_index: n, annotation },
  ]),
  ["response.output_text.done", { item_id: id, output_index: index, content_index: 0, text: deltas.join(""), logprobs: [] }],
  [
    "response.output_item.done",
    {
      output_index: index,
      item: { id, type: "message", status: "completed", content: [{ type: "output_text", text: deltas.join(""), annotations }], role: "assistant" },
    },
  ],
];

export const RESPONSES_SERVERS: readonly CorpusEntry[] = [
  {
    server: "OpenAI Responses",
    shape: "text, then a function call with its arguments in deltas; response.completed with usage",
    api: "responses",
    frames: numbered([
      ["response.created", { response: response("in_progress") }],
      ["response.in_progress", { response: response("in_progress") }],
      ...message("msg_c1", 0, ["Running ", "it."]),
      [
        "response.output_item.added",
        { output_index: 1, item: { id: "fc_c1", type: "function_call", status: "in_progress", arguments: "", call_id: "call_r1", name: "bash" } },
      ],
      ["response.function_call_arguments.delta", { item_id: "fc_c1", output_index: 1, delta: '{"command":' }],
      ["response.function_call_arguments.delta", { item_id: "fc_c1", output_index: 1, delta: '"echo corpus-responses"}' }],
      ["response.function_call_arguments.done", { item_id: "fc_c1", output_index: 1, arguments: '{"command":"echo corpus-responses"}' }],
      [
        "response.output_item.done",
        {
          output_index: 1,
          item: { id: "fc_c1", type: "function_call", status: "completed", arguments: '{"command":"echo corpus-responses"}', call_id: "call_r1", name: "bash" },
        },
      ],
      ["response.completed", { response: response("completed", { incomplete_details: null, usage }) }],
    ]),
    expect: { text: "Running it.ok", command: "echo corpus-responses", stop: "end_turn" },
  },
  {
    server: "OpenAI Responses",
    shape: "an answer cut off at max_output_tokens (response.incomplete)",
    api: "responses",
    frames: numbered([
      ["response.created", { response: response("in_progress") }],
      ["response.output_item.added", { output_index: 0, item: { id: "msg_c2", type: "message", status: "in_progress", content: [], role: "assistant" } }],
      ["response.output_text.delta", { item_id: "msg_c2", output_index: 0, content_index: 0, delta: "A long list: one, two", logprobs: [] }],
      [
        "response.output_item.done",
        {
          output_index: 0,
          item: {
            id: "msg_c2",
            type: "message",
            status: "incomplete",
            content: [{ type: "output_text", text: "A long list: one, two", annotations: [] }],
            role: "assistant",
          },
        },
      ],
      ["response.incomplete", { response: response("incomplete", { incomplete_details: { reason: "max_output_tokens" }, usage }) }],
    ]),
    expect: { text: "A long list: one, two\n[answer cut off: the model reached its output limit]\n", stop: "end_turn", fullStop: "max_tokens" },
  },
  {
    server: "LM Studio Responses",
    shape: "raw reasoning as response.reasoning_text.delta (also DeepSeek-style and gpt-oss servers)",
    api: "responses",
    model: "openai/gpt-oss-20b",
    frames: numbered([
      ["response.created", { response: response("in_progress", { model: "openai/gpt-oss-20b" }) }],
      ["response.output_item.added", { output_index: 0, item: { id: "rs_lms", type: "reasoning", summary: [], content: [] } }],
      ["response.reasoning_text.delta", { item_id: "rs_lms", output_index: 0, content_index: 0, delta: "User greets;" }],
      ["response.reasoning_text.delta", { item_id: "rs_lms", output_index: 0, content_index: 0, delta: " reply." }],
      ["response.reasoning_text.done", { item_id: "rs_lms", output_index: 0, content_index: 0, text: "User greets; reply." }],
      [
        "response.output_item.done",
        { output_index: 0, item: { id: "rs_lms", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "User greets; reply." }] } },
      ],
      ...message("msg_lms", 1, ["Hello from ", "LM Studio."]),
      ["response.completed", { response: response("completed", { model: "openai/gpt-oss-20b", incomplete_details: null, usage }) }],
    ]),
    expect: { text: "Hello from LM Studio.", thought: "User greets; reply.", stop: "end_turn" },
  },
  {
    server: "OpenAI Responses",
    shape: "a web search the provider ran itself (web_search_call), then text with a url citation: nothing of mm runs",
    api: "responses",
    frames: numbered([
      ["response.created", { response: response("in_progress") }],
      ["response.output_item.added", { output_index: 0, item: { id: "ws_c1", type: "web_search_call", status: "in_progress" } }],
      ["response.web_search_call.in_progress", { output_index: 0, item_id: "ws_c1" }],
      ["response.web_search_call.searching", { output_index: 0, item_id: "ws_c1" }],
      ["response.web_search_call.completed", { output_index: 0, item_id: "ws_c1" }],
      [
        "response.output_item.done",
        {
          output_index: 0,
          item: { id: "ws_c1", type: "web_search_call", status: "completed", action: { type: "search", query: "acp agent client protocol" } },
        },
      ],
      ...message(
        "msg_c4",
        1,
        ["ACP is a protocol."],
        [{ type: "url_citation", start_index: 0, end_index: 3, url: "https://agentclientprotocol.com", title: "ACP" }],
      ),
      ["response.completed", { response: response("completed", { incomplete_details: null, usage }) }],
    ]),
    expect: { text: "ACP is a protocol.", stop: "end_turn" },
  },
  {
    server: "GitHub Copilot Responses",
    shape: "a reasoning item whose id changes from event to event (summary parts, deltas, the item's end)",
    api: "responses",
    model: "gpt-5-mini",
    frames: numbered([
      ["response.created", { response: response("in_progress", { model: "gpt-5-mini" }) }],
      ["response.output_item.added", { output_index: 0, item: { id: "rs_Aa1", type: "reasoning", summary: [], encrypted_content: "enc:1" } }],
      ["response.reasoning_summary_part.added", { item_id: "rs_Bb2", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } }],
      ["response.reasoning_summary_text.delta", { item_id: "rs_Cc3", output_index: 0, summary_index: 0, delta: "Check the repo." }],
      [
        "response.reasoning_summary_part.done",
        { item_id: "rs_Dd4", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "Check the repo." } },
      ],
      ["response.reasoning_summary_part.added", { item_id: "rs_Ee5", output_index: 0, summary_index: 1, part: { type: "summary_text", text: "" } }],
      ["response.reasoning_summary_text.delta", { item_id: "rs_Ff6", output_index: 0, summary_index: 1, delta: " Then answer." }],
      ["response.reasoning_summary_part.done", { item_id: "rs_Gg7", output_index: 0, summary_index: 1, part: { type: "summary_text", text: " Then answer." } }],
      [
        "response.output_item.done",
        {
          output_index: 0,
          item: {
            id: "rs_Hh8",
            type: "reasoning",
            summary: [
              { type: "summary_text", text: "Check the repo." },
              { type: "summary_text", text: " Then answer." },
            ],
            encrypted_content: "enc:2",
          },
        },
      ],
      ...message("msg_Ii9", 1, ["Hello from ", "Copilot."]),
      ["response.completed", { response: response("completed", { model: "gpt-5-mini", incomplete_details: null, usage }) }],
    ]),
    expect: { text: "Hello from Copilot.", thought: "Check the repo. Then answer.", stop: "end_turn" },
  },
  {
    server: "any Responses server",
    shape: "a stream the server ends cleanly after whole events but before response.completed: the text stays, the turn fails",
    api: "responses",
    frames: numbered([["response.created", { response: response("in_progress") }], ...message("msg_c9", 0, ["Most of ", "an answer."])]),
    expect: { text: "Most of an answer.", error: "ended the stream before finishing the answer" },
  },
];
