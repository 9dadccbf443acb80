/**
 * Chat-completions streams that bend the usual shape, written by us from the servers' documentation
 * and the public threads that recorded them: servers that never send a `finish_reason` and end with
 * `[DONE]` (Snowflake Cortex; OpenRouter routing Kimi K2 to Novita), tool calls without `index`
 * (Kimi on Moonshot, whose usage also comes inside the choice; other servers one call after the
 * other), an error chunk after a `length` finish (OpenRouter), and streams that end without a finish
 * reason after a whole chunk, or in the middle of one.
 */
import type { CorpusEntry } from "./entry.js";
import { choice, chunk, comment, DONE } from "./wire.js";

const args = (command: string): string => JSON.stringify({ command });

const cortex = { id: "cortex-3f9a", created: 1764600000, model: "claude-3-7-sonnet" };
/** Cortex's chunks: a delta and nothing else (no `finish_reason`, not even null). */
const cortexChunk = (delta: Record<string, unknown>): string => chunk(cortex, [{ index: 0, delta }]);
const novita = { id: "gen-1764600000-NvT", provider: "Novita", model: "moonshotai/kimi-k2-0905", system_fingerprint: "fpv0_ef28f882", created: 1764600000 };
const novitaChoice = (delta: Record<string, unknown>) => choice({ role: "assistant", ...delta }, null, { native_finish_reason: null, logprobs: null });
const moonshot = { id: "chatcmpl-6930e0b2c1", created: 1764600000, model: "kimi-k2-0905-preview" };
const openrouter = { id: "gen-1764600000-Lx", provider: "Chutes", model: "moonshotai/kimi-k2", created: 1764600000 };
const generic = { id: "chatcmpl-loose", created: 1764600000, model: "loose-model" };

export const CHAT_LOOSE_SERVERS: readonly CorpusEntry[] = [
  {
    server: "Snowflake Cortex",
    shape: "text; no finish_reason in any chunk; usage in a last chunk; [DONE]",
    api: "chat",
    model: "claude-3-7-sonnet",
    frames: [
      cortexChunk({ content: "Hello" }),
      cortexChunk({ content: " from Cortex." }),
      chunk(cortex, [], { usage: { prompt_tokens: 18, completion_tokens: 5, total_tokens: 23 } }),
      DONE,
    ],
    expect: { text: "Hello from Cortex.", stop: "end_turn", used: 23 },
  },
  {
    server: "OpenRouter (Kimi K2 on Novita)",
    shape: "text, then a tool call with index in pieces; finish_reason null to the end; usage; [DONE]",
    api: "chat",
    model: "moonshotai/kimi-k2-0905",
    frames: [
      comment("OPENROUTER PROCESSING"),
      chunk(novita, [novitaChoice({ content: "" })]),
      chunk(novita, [novitaChoice({ content: "I'll run it." })]),
      chunk(novita, [novitaChoice({ content: null, tool_calls: [{ index: 0, id: "bash:0", type: "function", function: { name: "bash" } }] })]),
      chunk(novita, [novitaChoice({ content: null, tool_calls: [{ index: 0, type: "function", function: { arguments: '{"command": "echo ' } }] })]),
      chunk(novita, [novitaChoice({ content: null, tool_calls: [{ index: 0, type: "function", function: { arguments: 'corpus-novita"}' } }] })]),
      chunk(novita, [novitaChoice({ content: "" })], { usage: { prompt_tokens: 154, completion_tokens: 23, total_tokens: 177, cost: 0.0001 } }),
      DONE,
    ],
    expect: { text: "I'll run it.ok", command: "echo corpus-novita", stop: "end_turn" },
  },
  {
    server: "Moonshot (Kimi)",
    shape: "two tool calls opened in one delta without index, each with its own id, their arguments after them by position; usage inside the choice",
    api: "chat",
    model: "kimi-k2-0905-preview",
    provider: "moonshotai",
    frames: [
      chunk(moonshot, [choice({ role: "assistant", content: "" })]),
      chunk(moonshot, [
        choice({
          tool_calls: [
            { id: "functions.bash:0", type: "function", function: { name: "bash", arguments: "" } },
            { id: "functions.bash:1", type: "function", function: { name: "bash", arguments: "" } },
          ],
        }),
      ]),
      chunk(moonshot, [choice({ tool_calls: [{ function: { arguments: '{"command": ' } }, { function: { arguments: '{"command": ' } }] })]),
      chunk(moonshot, [choice({ tool_calls: [{ function: { arguments: '"echo kimi-first"}' } }, { function: { arguments: '"echo kimi-second"}' } }] })]),
      chunk(moonshot, [choice({}, "tool_calls", { usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 } })]),
      DONE,
    ],
    expect: { text: "ok", commands: ["echo kimi-first", "echo kimi-second"], stop: "end_turn", used: 17 },
  },
  {
    server: "any chat server",
    shape: "two tool calls without index one after the other, the id on each call's first delta only, arguments spread",
    api: "chat",
    frames: [
      chunk(generic, [
        choice({ role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "bash", arguments: "" } }] }),
      ]),
      chunk(generic, [choice({ tool_calls: [{ function: { arguments: '{"command":' } }] })]),
      chunk(generic, [choice({ tool_calls: [{ function: { arguments: '"echo spread-first"}' } }] })]),
      chunk(generic, [choice({ tool_calls: [{ id: "call_b", type: "function", function: { name: "bash", arguments: "" } }] })]),
      chunk(generic, [choice({ tool_calls: [{ function: { arguments: '{"command":' } }] })]),
      chunk(generic, [choice({ tool_calls: [{ function: { arguments: '"echo spread-second"}' } }] })]),
      chunk(generic, [choice({}, "tool_calls")]),
      DONE,
    ],
    expect: { text: "ok", commands: ["echo spread-first", "echo spread-second"], stop: "end_turn" },
  },
  {
    server: "any chat server",
    shape: "two tool calls without index, the id (and name) repeated on every delta",
    api: "chat",
    frames: [
      chunk(generic, [
        choice({ role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "bash", arguments: "" } }] }),
      ]),
      chunk(generic, [choice({ tool_calls: [{ id: "call_a", type: "function", function: { name: "bash", arguments: args("echo repeated-first") } }] })]),
      chunk(generic, [choice({ tool_calls: [{ id: "call_b", type: "function", function: { name: "bash", arguments: '{"command":' } }] })]),
      chunk(generic, [choice({ tool_calls: [{ id: "call_b", type: "function", function: { name: "bash", arguments: '"echo repeated-second"}' } }] })]),
      chunk(generic, [choice({}, "tool_calls")], { usage: { prompt_tokens: 60, completion_tokens: 30, total_tokens: 90 } }),
      DONE,
    ],
    expect: { text: "ok", commands: ["echo repeated-first", "echo repeated-second"], stop: "end_turn" },
  },
  {
    server: "any chat server",
    shape: "two tool calls without index, each whole in one delta",
    api: "chat",
    frames: [
      chunk(generic, [choice({ role: "assistant", content: "" })]),
      chunk(generic, [choice({ tool_calls: [{ id: "call_a", type: "function", function: { name: "bash", arguments: args("echo whole-first") } }] })]),
      chunk(generic, [choice({ tool_calls: [{ id: "call_b", type: "function", function: { name: "bash", arguments: args("echo whole-second") } }] })]),
      chunk(generic, [choice({}, "tool_calls")]),
      DONE,
    ],
    expect: { text: "ok", commands: ["echo whole-first", "echo whole-second"], stop: "end_turn" },
  },
  {
    server: "OpenRouter",
    shape: "an answer cut off (finish_reason length), then an error chunk (finish_reason error); [DONE]",
    api: "chat",
    model: "moonshotai/kimi-k2",
    frames: [
      comment("OPENROUTER PROCESSING"),
      chunk(openrouter, [choice({ role: "assistant", content: "A very long answer that" }, null, { native_finish_reason: null, logprobs: null })]),
      chunk(openrouter, [choice({ role: "assistant", content: "" }, "length", { native_finish_reason: "length", logprobs: null })]),
      chunk(openrouter, [choice({ content: "" }, "error", { native_finish_reason: "error" })], {
        error: { code: 502, message: "Provider returned error", metadata: { provider_name: "Chutes", error_type: "provider_error" } },
      }),
      DONE,
    ],
    expect: {
      text: "A very long answer that\n[answer cut off: the model reached its output limit]\n",
      stop: "end_turn",
      fullStop: "max_tokens",
    },
  },
];
