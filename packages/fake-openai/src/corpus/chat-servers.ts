/**
 * Chat-completions streams in the shapes servers document and send, written by us from their
 * documentation: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, llama.cpp's server, DeepSeek,
 * Mistral, Groq, OpenRouter and xAI. Each streams what its server streams: the fields it adds, where
 * its reasoning goes, how its tool calls arrive, where its usage comes, how it finishes.
 */
import type { CorpusEntry } from "./entry.js";
import { choice, chunk, comment, DONE } from "./wire.js";

const args = (command: string): string => JSON.stringify({ command });

const openai = { id: "chatcmpl-BZ1", created: 1764600000, model: "gpt-4.1-mini-2025-04-14", service_tier: "default", system_fingerprint: "fp_a1" };
const openaiUsage = {
  prompt_tokens: 812,
  completion_tokens: 14,
  total_tokens: 826,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};
const lp = { logprobs: null };

const azure = { id: "chatcmpl-AZ1", created: 1764600000, model: "gpt-4o-2024-11-20", system_fingerprint: "fp_az" };
const filters = {
  content_filter_results: {
    hate: { filtered: false, severity: "safe" },
    self_harm: { filtered: false, severity: "safe" },
    sexual: { filtered: false, severity: "safe" },
    violence: { filtered: false, severity: "safe" },
  },
};
const promptFilter = `data: ${JSON.stringify({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0, ...filters }] })}\n\n`;

const ollama = { id: "chatcmpl-421", created: 1764600000, model: "qwen3:8b", system_fingerprint: "fp_ollama" };
const vllm = { id: "chatcmpl-5f0c", created: 1764600000, model: "Qwen/Qwen3-8B" };
const lmstudio = { id: "chatcmpl-lms1", created: 1764600000, model: "qwen/qwen3-8b", system_fingerprint: "qwen/qwen3-8b" };
const llamacpp = { id: "chatcmpl-lcpp1", created: 1764600000, model: "gpt-3.5-turbo", system_fingerprint: "b6001-3f4a" };
const llamacppTimings = { prompt_n: 50, prompt_ms: 40.1, predicted_n: 6, predicted_ms: 60.2 };
const deepseek = { id: "3b1e", created: 1764600000, model: "deepseek-reasoner", system_fingerprint: "fp_ds" };
const mistral = { id: "cmpl-m1", created: 1764600000, model: "mistral-large-latest" };
const magistral = { id: "cmpl-m2", created: 1764600000, model: "magistral-medium-latest" };
const groq = { id: "chatcmpl-g1", created: 1764600000, model: "llama-3.3-70b-versatile", system_fingerprint: "fp_g" };
const groqOss = { id: "chatcmpl-g2", created: 1764600000, model: "openai/gpt-oss-120b", system_fingerprint: "fp_g" };
const openrouter = { id: "gen-1764600000-x", created: 1764600000, model: "deepseek/deepseek-r1", provider: "DeepInfra" };
const xai = { id: "xai-1", created: 1764600000, model: "grok-3-mini", system_fingerprint: "fp_x" };

export const CHAT_SERVERS: readonly CorpusEntry[] = [
  {
    server: "OpenAI",
    shape: "text; finish_reason in its own chunk; usage in a last chunk with no choices; [DONE]",
    api: "chat",
    frames: [
      chunk(openai, [choice({ role: "assistant", content: "", refusal: null }, null, lp)], { usage: null }),
      chunk(openai, [choice({ content: "Hello" }, null, lp)], { usage: null }),
      chunk(openai, [choice({ content: " from OpenAI." }, null, lp)], { usage: null }),
      chunk(openai, [choice({}, "stop", lp)], { usage: null }),
      chunk(openai, [], { usage: openaiUsage }),
      DONE,
    ],
    expect: { text: "Hello from OpenAI.", stop: "end_turn" },
  },
  {
    server: "OpenAI",
    shape: "a tool call in pieces (id and name first, arguments after), with index",
    api: "chat",
    frames: [
      chunk(
        openai,
        [
          choice(
            {
              role: "assistant",
              content: null,
              tool_calls: [{ index: 0, id: "call_Zx1", type: "function", function: { name: "bash", arguments: "" } }],
              refusal: null,
            },
            null,
            lp,
          ),
        ],
        { usage: null },
      ),
      chunk(openai, [choice({ tool_calls: [{ index: 0, function: { arguments: '{"comm' } }] }, null, lp)], { usage: null }),
      chunk(openai, [choice({ tool_calls: [{ index: 0, function: { arguments: 'and":"echo corpus-openai"}' } }] }, null, lp)], { usage: null }),
      chunk(openai, [choice({}, "tool_calls", lp)], { usage: null }),
      chunk(openai, [], { usage: openaiUsage }),
      DONE,
    ],
    expect: { text: "ok", command: "echo corpus-openai", stop: "end_turn" },
  },
  {
    server: "OpenAI",
    shape: "an answer cut off at the output limit (finish_reason length)",
    api: "chat",
    frames: [chunk(openai, [choice({ role: "assistant", content: "The first half of a long" }, null, lp)]), chunk(openai, [choice({}, "length", lp)]), DONE],
    expect: { text: "The first half of a long\n[answer cut off: the model reached its output limit]\n", stop: "end_turn", fullStop: "max_tokens" },
  },
  {
    server: "OpenAI",
    shape: "a tool call cut off at the output limit: not run",
    api: "chat",
    frames: [
      chunk(openai, [
        choice(
          {
            role: "assistant",
            content: null,
            tool_calls: [{ index: 0, id: "call_cut", type: "function", function: { name: "bash", arguments: '{"command":"echo corpus-cut' } }],
          },
          null,
          lp,
        ),
      ]),
      chunk(openai, [choice({}, "length", lp)]),
      DONE,
    ],
    expect: { text: "\n[answer cut off: the model reached its output limit]\n", stop: "end_turn", fullStop: "max_tokens" },
  },
  {
    server: "Azure OpenAI",
    shape: "a first chunk with empty choices (prompt filter results); content filter results in every choice",
    api: "chat",
    frames: [
      promptFilter,
      chunk(azure, [choice({ role: "assistant", content: "" }, null, { content_filter_results: {} })]),
      chunk(azure, [choice({ content: "Hello from Azure." }, null, filters)]),
      chunk(azure, [choice({}, "stop", { content_filter_results: {} })], { usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 } }),
      DONE,
    ],
    expect: { text: "Hello from Azure.", stop: "end_turn" },
  },
  {
    server: "Azure OpenAI",
    shape: "an answer stopped by the content filter (finish_reason content_filter)",
    api: "chat",
    frames: [
      promptFilter,
      chunk(azure, [choice({ role: "assistant", content: "I can" }, null, filters)]),
      chunk(azure, [choice({}, "content_filter", filters)]),
      DONE,
    ],
    expect: { text: "I can\n[answer stopped by the model server's content filter]\n", stop: "end_turn", fullStop: "refusal" },
  },
  {
    server: "Ollama",
    shape: "reasoning in `reasoning`; a tool call whole in one chunk; finish_reason stop although it called a tool (older Ollama)",
    api: "chat",
    model: "qwen3:8b",
    frames: [
      chunk(ollama, [choice({ role: "assistant", content: "", reasoning: "The user wants" })]),
      chunk(ollama, [choice({ role: "assistant", content: "", reasoning: " a command run." })]),
      chunk(ollama, [
        choice({
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_o1", index: 0, type: "function", function: { name: "bash", arguments: args("echo corpus-ollama") } }],
        }),
      ]),
      chunk(ollama, [choice({ role: "assistant", content: "" }, "stop")]),
      chunk(ollama, [], { usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 } }),
      DONE,
    ],
    expect: { text: "ok", thought: "The user wants a command run.", command: "echo corpus-ollama", stop: "end_turn" },
  },
  {
    server: "vLLM",
    shape: "reasoning in `reasoning_content` (reasoning parser on); a tool call in pieces with index; usage chunk",
    api: "chat",
    model: "Qwen/Qwen3-8B",
    frames: [
      chunk(vllm, [choice({ role: "assistant", content: "" }, null, lp)]),
      chunk(vllm, [choice({ reasoning_content: "List the folder" }, null, lp)]),
      chunk(vllm, [choice({ reasoning_content: " first." }, null, lp)]),
      chunk(vllm, [choice({ tool_calls: [{ id: "chatcmpl-tool-9a", type: "function", index: 0, function: { name: "bash" } }] }, null, lp)]),
      chunk(vllm, [choice({ tool_calls: [{ index: 0, function: { arguments: '{"command": "echo ' } }] }, null, lp)]),
      chunk(vllm, [choice({ tool_calls: [{ index: 0, function: { arguments: 'corpus-vllm"}' } }] }, null, lp)]),
      chunk(vllm, [choice({ content: "" }, "tool_calls", { ...lp, stop_reason: null })]),
      chunk(vllm, [], { usage: { prompt_tokens: 400, total_tokens: 430, completion_tokens: 30 } }),
      DONE,
    ],
    expect: { text: "ok", thought: "List the folder first.", command: "echo corpus-vllm", stop: "end_turn" },
  },
  {
    server: "vLLM",
    shape: "a reasoning model served without a reasoning parser: <think>…</think> inside the content",
    api: "chat",
    model: "Qwen/QwQ-32B",
    frames: [
      chunk(vllm, [choice({ role: "assistant", content: "" })]),
      chunk(vllm, [choice({ content: "<think>" })]),
      chunk(vllm, [choice({ content: "\nThe user says hi" })]),
      chunk(vllm, [choice({ content: ".\n</thi" })]),
      chunk(vllm, [choice({ content: "nk>\n\nHello" })]),
      chunk(vllm, [choice({ content: " there." })]),
      chunk(vllm, [choice({ content: "" }, "stop", { stop_reason: null })]),
      chunk(vllm, [], { usage: { prompt_tokens: 40, total_tokens: 60, completion_tokens: 20 } }),
      DONE,
    ],
    expect: { text: "Hello there.", thought: "\nThe user says hi.\n", stop: "end_turn" },
  },
  {
    server: "LM Studio",
    shape: "reasoning in `reasoning_content`; a tool call with its arguments in pieces",
    api: "chat",
    model: "qwen/qwen3-8b",
    frames: [
      chunk(lmstudio, [choice({ role: "assistant", reasoning_content: "Run it." }, null, lp)]),
      chunk(lmstudio, [choice({ tool_calls: [{ index: 0, id: "365174485", type: "function", function: { name: "bash", arguments: "" } }] }, null, lp)]),
      chunk(lmstudio, [choice({ tool_calls: [{ index: 0, type: "function", function: { arguments: '{"command":"echo corpus-lmstudio"}' } }] }, null, lp)]),
      chunk(lmstudio, [choice({}, "tool_calls", lp)]),
      DONE,
    ],
    expect: { text: "ok", thought: "Run it.", command: "echo corpus-lmstudio", stop: "end_turn" },
  },
  {
    server: "LM Studio",
    shape: "<think> tags in the content (no reasoning section parsing); no usage",
    api: "chat",
    model: "deepseek-r1-distill-qwen-7b",
    frames: [
      chunk(lmstudio, [choice({ role: "assistant", content: "<think>" }, null, lp)]),
      chunk(lmstudio, [choice({ content: "Short answer." }, null, lp)]),
      chunk(lmstudio, [choice({ content: "</think>" }, null, lp)]),
      chunk(lmstudio, [choice({ content: "\n\nYes." }, null, lp)]),
      chunk(lmstudio, [choice({}, "stop", lp)]),
      DONE,
    ],
    expect: { text: "Yes.", thought: "Short answer.", stop: "end_turn" },
  },
  {
    server: "llama.cpp server",
    shape: "reasoning_content (--reasoning-format deepseek); usage and timings in the finishing chunk",
    api: "chat",
    frames: [
      chunk(llamacpp, [choice({ role: "assistant", content: null })]),
      chunk(llamacpp, [choice({ reasoning_content: "Greet back." })]),
      chunk(llamacpp, [choice({ content: "Hi from llama.cpp." })]),
      chunk(llamacpp, [choice({}, "stop")], { usage: { completion_tokens: 6, prompt_tokens: 50, total_tokens: 56 }, timings: llamacppTimings }),
      DONE,
    ],
    expect: { text: "Hi from llama.cpp.", thought: "Greet back.", stop: "end_turn" },
  },
  {
    server: "llama.cpp server",
    shape: "a tool call: id, type and name with empty arguments, then the arguments",
    api: "chat",
    frames: [
      chunk(llamacpp, [choice({ role: "assistant", content: null })]),
      chunk(llamacpp, [choice({ tool_calls: [{ index: 0, id: "Kd8x2", type: "function", function: { name: "bash", arguments: "" } }] })]),
      chunk(llamacpp, [choice({ tool_calls: [{ index: 0, function: { arguments: args("echo corpus-llamacpp") } }] })]),
      chunk(llamacpp, [choice({}, "tool_calls")], { usage: { completion_tokens: 16, prompt_tokens: 80, total_tokens: 96 }, timings: llamacppTimings }),
      DONE,
    ],
    expect: { text: "ok", command: "echo corpus-llamacpp", stop: "end_turn" },
  },
  {
    server: "DeepSeek",
    shape: "keep-alive comments; reasoning_content with content null, then content; a cut-off answer (length); cache-hit usage",
    api: "chat",
    model: "deepseek-reasoner",
    frames: [
      comment("keep-alive"),
      chunk(deepseek, [choice({ role: "assistant", content: null, reasoning_content: "" }, null, lp)]),
      chunk(deepseek, [choice({ content: null, reasoning_content: "Plan the essay." }, null, lp)]),
      chunk(deepseek, [choice({ content: "An essay that", reasoning_content: null }, null, lp)]),
      chunk(deepseek, [choice({ content: "", reasoning_content: null }, "length", lp)], {
        usage: {
          prompt_tokens: 30,
          completion_tokens: 64,
          total_tokens: 94,
          prompt_tokens_details: { cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 40 },
          prompt_cache_hit_tokens: 0,
          prompt_cache_miss_tokens: 30,
        },
      }),
      DONE,
    ],
    expect: {
      text: "An essay that\n[answer cut off: the model reached its output limit]\n",
      thought: "Plan the essay.",
      stop: "end_turn",
      fullStop: "max_tokens",
    },
  },
  {
    server: "Mistral",
    shape: "a tool call whole and without index, finish_reason and usage in the same chunk",
    api: "chat",
    model: "mistral-large-latest",
    frames: [
      chunk(mistral, [choice({ role: "assistant", content: "" })]),
      chunk(mistral, [choice({ tool_calls: [{ id: "D681PevKs", function: { name: "bash", arguments: args("echo corpus-mistral") } }] }, "tool_calls")], {
        usage: { prompt_tokens: 120, total_tokens: 146, completion_tokens: 26 },
      }),
      DONE,
    ],
    expect: { text: "ok", command: "echo corpus-mistral", stop: "end_turn" },
  },
  {
    server: "Mistral",
    shape: "a reasoning model (Magistral): content as an array of thinking and text parts",
    api: "chat",
    model: "magistral-medium-latest",
    frames: [
      chunk(magistral, [choice({ role: "assistant", content: "" })]),
      chunk(magistral, [choice({ content: [{ type: "thinking", thinking: [{ type: "text", text: "Okay, the user" }] }] })]),
      chunk(magistral, [choice({ content: [{ type: "thinking", thinking: [{ type: "text", text: " greets me." }] }] })]),
      chunk(magistral, [choice({ content: [{ type: "text", text: "Hello from " }] })]),
      chunk(magistral, [choice({ content: "Magistral." })]),
      chunk(magistral, [choice({ content: "" }, "stop")], { usage: { prompt_tokens: 10, total_tokens: 40, completion_tokens: 30 } }),
      DONE,
    ],
    expect: { text: "Hello from Magistral.", thought: "Okay, the user greets me.", stop: "end_turn" },
  },
  {
    server: "Groq",
    shape: "x_groq metadata, usage inside x_groq on the last chunk; a tool call whole with index",
    api: "chat",
    frames: [
      chunk(groq, [choice({ role: "assistant", content: null }, null, lp)], { x_groq: { id: "req_01" } }),
      chunk(groq, [
        choice({ tool_calls: [{ id: "call_g1", type: "function", function: { name: "bash", arguments: args("echo corpus-groq") }, index: 0 }] }, null, lp),
      ]),
      chunk(groq, [choice({}, "tool_calls", lp)], {
        x_groq: {
          id: "req_01",
          usage: { queue_time: 0.01, prompt_tokens: 200, prompt_time: 0.02, completion_tokens: 20, completion_time: 0.03, total_tokens: 220, total_time: 0.05 },
        },
      }),
      DONE,
    ],
    expect: { text: "ok", command: "echo corpus-groq", stop: "end_turn" },
  },
  {
    server: "Groq",
    shape: "gpt-oss reasoning in `reasoning`, then text",
    api: "chat",
    model: "openai/gpt-oss-120b",
    frames: [
      chunk(groqOss, [choice({ role: "assistant", content: "" }, null, lp)], { x_groq: { id: "req_02" } }),
      chunk(groqOss, [choice({ reasoning: "Simple greeting." }, null, lp)]),
      chunk(groqOss, [choice({ content: "Hi from Groq." }, null, lp)]),
      chunk(groqOss, [choice({}, "stop", lp)], { x_groq: { id: "req_02", usage: { prompt_tokens: 70, completion_tokens: 12, total_tokens: 82 } } }),
      DONE,
    ],
    expect: { text: "Hi from Groq.", thought: "Simple greeting.", stop: "end_turn" },
  },
  {
    server: "OpenRouter",
    shape: "`: OPENROUTER PROCESSING` comments; reasoning with reasoning_details; native_finish_reason; usage with cost",
    api: "chat",
    model: "deepseek/deepseek-r1",
    frames: [
      comment("OPENROUTER PROCESSING"),
      comment("OPENROUTER PROCESSING"),
      chunk(openrouter, [
        choice(
          {
            role: "assistant",
            content: "",
            reasoning: "Weigh it.",
            reasoning_details: [{ type: "reasoning.text", text: "Weigh it.", format: "unknown", index: 0 }],
          },
          null,
          { native_finish_reason: null, logprobs: null },
        ),
      ]),
      chunk(openrouter, [choice({ role: "assistant", content: "Routed answer." }, null, { native_finish_reason: null, logprobs: null })]),
      chunk(openrouter, [choice({ role: "assistant", content: "" }, "stop", { native_finish_reason: "stop", logprobs: null })]),
      chunk(openrouter, [choice({ role: "assistant", content: "" }, null, { native_finish_reason: null, logprobs: null })], {
        usage: {
          prompt_tokens: 15,
          completion_tokens: 9,
          total_tokens: 24,
          cost: 0.00002,
          prompt_tokens_details: { cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      }),
      DONE,
    ],
    expect: { text: "Routed answer.", thought: "Weigh it.", stop: "end_turn" },
  },
  {
    server: "xAI",
    shape: "reasoning_content; chunks without finish_reason until the last; reasoning tokens in usage",
    api: "chat",
    model: "grok-3-mini",
    frames: [
      chunk(xai, [{ index: 0, delta: { role: "assistant", reasoning_content: "Think briefly." } }]),
      chunk(xai, [{ index: 0, delta: { content: "Hi from Grok." } }]),
      chunk(xai, [{ index: 0, delta: {}, finish_reason: "stop" }], {
        usage: {
          prompt_tokens: 25,
          completion_tokens: 8,
          total_tokens: 33,
          prompt_tokens_details: { text_tokens: 25, cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 5 },
        },
      }),
      DONE,
    ],
    expect: { text: "Hi from Grok.", thought: "Think briefly.", stop: "end_turn" },
  },
  {
    server: "any chat server",
    shape: "a stream cut off after text: no finish_reason, no [DONE] (the text stays, the turn fails)",
    api: "chat",
    frames: [chunk(openai, [choice({ role: "assistant", content: "Half an" })]), chunk(openai, [choice({ content: " answer" })])],
    end: "drop",
    expect: { text: "Half an answer", error: "broke before the answer was finished" },
  },
  {
    server: "any chat server",
    shape: "a stream the server ends cleanly after a whole tool call, without finish_reason or [DONE]: finished, the call runs",
    api: "chat",
    frames: [
      chunk(openai, [choice({ role: "assistant", content: "Let me run it." })]),
      chunk(openai, [
        choice({ tool_calls: [{ index: 0, id: "call_nofinish", type: "function", function: { name: "bash", arguments: args("echo corpus-unfinished") } }] }),
      ]),
    ],
    expect: { text: "Let me run it.ok", command: "echo corpus-unfinished", stop: "end_turn" },
  },
  {
    server: "any chat server",
    shape: "a stream the server ends in the middle of a chunk: the text stays, the turn fails (the server ended it, the connection held)",
    api: "chat",
    frames: [
      chunk(openai, [choice({ role: "assistant", content: "Half an" })]),
      'data: {"id":"chatcmpl-BZ1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" ans',
    ],
    expect: { text: "Half an", error: "ended the stream before finishing the answer" },
  },
];
