/**
 * The chat-completions wire format: SSE frames of `chat.completion.chunk` and the non-streaming
 * `chat.completion` body, for the replies that carry content.
 */
import type { FakeToolCall, FloodReply, TextReply, ToolCallsReply } from "./replies.js";

/** What every frame of one response shares, plus the usage to report (undefined: send none). */
export type WireContext = {
  readonly id: string;
  readonly model: string;
  readonly created: number;
  readonly usage: WireUsage | undefined;
};

/** The usage a response reports: token counts, and (when scripted) cached prompt tokens and OpenRouter's `cost`. */
export type WireUsage = { readonly promptTokens: number; readonly completionTokens: number; readonly cachedTokens?: number; readonly cost?: number };

const FLOOD_BATCH = 512;

const framer = (ctx: WireContext) => {
  const head = `data: {"id":${JSON.stringify(ctx.id)},"object":"chat.completion.chunk","created":${ctx.created},"model":${JSON.stringify(ctx.model)},"choices":[`;
  return {
    choice: (delta: unknown, finishReason: string | null = null): string => `${head}${JSON.stringify({ index: 0, delta, finish_reason: finishReason })}]}\n\n`,
    closing: (finishReason: string): string[] => {
      const frames = [`${head}{"index":0,"delta":{},"finish_reason":"${finishReason}"}]}\n\n`];
      if (ctx.usage) frames.push(`${head}],"usage":${JSON.stringify(usageJson(ctx.usage))}}\n\n`);
      frames.push("data: [DONE]\n\n");
      return frames;
    },
  };
};

const usageJson = (usage: WireUsage) => ({
  prompt_tokens: usage.promptTokens,
  completion_tokens: usage.completionTokens,
  total_tokens: usage.promptTokens + usage.completionTokens,
  ...(usage.cachedTokens !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cachedTokens } } : {}),
  ...(usage.cost !== undefined ? { cost: usage.cost } : {}),
});

const argumentsText = (call: FakeToolCall): string => (typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments));

export const chatTextFrames = (reply: Pick<TextReply, "chunks" | "reasoning">, ctx: WireContext, close = true): string[] => {
  const f = framer(ctx);
  const frames = [f.choice({ role: "assistant", content: "" })];
  for (const thought of reply.reasoning ?? []) frames.push(f.choice({ reasoning_content: thought }));
  for (const chunk of reply.chunks) frames.push(f.choice({ content: chunk }));
  return close ? frames.concat(f.closing("stop")) : frames;
};

export const chatToolCallFrames = (reply: ToolCallsReply, ctx: WireContext, callId: (index: number) => string): string[] => {
  const f = framer(ctx);
  const frames = [f.choice({ role: "assistant", content: reply.text ?? null })];
  reply.calls.forEach((call, index) => {
    const args = argumentsText(call);
    const half = Math.ceil(args.length / 2);
    const id = call.id ?? callId(index);
    frames.push(f.choice({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const piece of [args.slice(0, half), args.slice(half)]) {
      if (piece) frames.push(f.choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  return frames.concat(f.closing("tool_calls"));
};

/** Batches of identical frames, built once: the benchmark path. */
export function* chatFloodFrames(reply: FloodReply, ctx: WireContext): Generator<string> {
  const f = framer(ctx);
  yield f.choice({ role: "assistant", content: "" });
  const frame = f.choice({ content: reply.chunkText });
  const batch = frame.repeat(Math.min(FLOOD_BATCH, reply.count));
  let left = reply.count;
  for (; left >= FLOOD_BATCH; left -= FLOOD_BATCH) yield batch;
  if (left > 0) yield frame.repeat(left);
  yield* f.closing("stop");
}

/** A non-streaming `chat.completion` body. */
export const chatCompletionJson = (reply: TextReply | ToolCallsReply | FloodReply, ctx: WireContext, callId: (index: number) => string): unknown => {
  const content = reply.kind === "text" ? reply.chunks.join("") : reply.kind === "flood" ? reply.chunkText.repeat(reply.count) : (reply.text ?? null);
  const toolCallsJson =
    reply.kind === "tool-calls"
      ? reply.calls.map((call, index) => ({
          id: call.id ?? callId(index),
          type: "function",
          function: { name: call.name, arguments: argumentsText(call) },
        }))
      : undefined;
  return {
    id: ctx.id,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, ...(toolCallsJson ? { tool_calls: toolCallsJson } : {}) },
        finish_reason: toolCallsJson ? "tool_calls" : "stop",
      },
    ],
    ...(ctx.usage ? { usage: usageJson(ctx.usage) } : {}),
  };
};

export { argumentsText };
