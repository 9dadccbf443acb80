/**
 * The Responses API wire format (streaming only): `response.*` SSE events for text and function calls,
 * enough for `@ai-sdk/openai`'s `responses()` model.
 */
import { argumentsText, type WireContext } from "./chat-wire.js";
import type { FakeToolCall } from "./replies.js";

/** What one response says: a reasoning summary (possibly none), text deltas (possibly none), then function calls. */
export type ResponseContent = {
  /** Summary deltas of one reasoning item sent before the text, with encrypted content (as with `store: false`). */
  readonly reasoning?: readonly string[];
  readonly deltas: Iterable<string>;
  readonly hasText: boolean;
  readonly calls: readonly FakeToolCall[];
};

/** Frames of one response; `close` false stops after the text (for dropped connections). */
export function* responsesFrames(content: ResponseContent, ctx: WireContext, callId: (index: number) => string, close = true): Generator<string> {
  let seq = 0;
  const event = (type: string, data: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const response = { id: ctx.id, object: "response", created_at: ctx.created, model: ctx.model };
  yield event("response.created", { response: { ...response, status: "in_progress" } });
  let outputIndex = 0;
  if (content.reasoning !== undefined && content.reasoning.length > 0) {
    const reasoning = { type: "reasoning", id: `rs_${ctx.id}`, encrypted_content: `encrypted:${ctx.id}` };
    yield event("response.output_item.added", { output_index: outputIndex, item: { ...reasoning, summary: [] } });
    yield event("response.reasoning_summary_part.added", {
      item_id: reasoning.id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    for (const delta of content.reasoning) {
      yield event("response.reasoning_summary_text.delta", { item_id: reasoning.id, output_index: outputIndex, summary_index: 0, delta });
    }
    const summary = { type: "summary_text", text: content.reasoning.join("") };
    yield event("response.reasoning_summary_part.done", { item_id: reasoning.id, output_index: outputIndex, summary_index: 0, part: summary });
    yield event("response.output_item.done", { output_index: outputIndex, item: { ...reasoning, summary: [summary] } });
    outputIndex++;
  }
  if (content.hasText) {
    const message = { type: "message", id: `msg_${ctx.id}`, role: "assistant", content: [] };
    yield event("response.output_item.added", { output_index: outputIndex, item: { ...message, status: "in_progress" } });
    for (const delta of content.deltas) {
      yield event("response.output_text.delta", { item_id: message.id, output_index: outputIndex, content_index: 0, delta });
    }
    if (!close) return;
    yield event("response.output_item.done", { output_index: outputIndex, item: { ...message, status: "completed" } });
    outputIndex++;
  }
  if (!close) return;
  for (const [index, call] of content.calls.entries()) {
    const item = { type: "function_call", id: `fc_${ctx.id}_${index}`, call_id: call.id ?? callId(index), name: call.name };
    const args = argumentsText(call);
    yield event("response.output_item.added", { output_index: outputIndex, item: { ...item, arguments: "", status: "in_progress" } });
    yield event("response.function_call_arguments.delta", { item_id: item.id, output_index: outputIndex, delta: args });
    yield event("response.output_item.done", { output_index: outputIndex, item: { ...item, arguments: args, status: "completed" } });
    outputIndex++;
  }
  const usage = ctx.usage && {
    input_tokens: ctx.usage.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: ctx.usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: ctx.usage.promptTokens + ctx.usage.completionTokens,
  };
  yield event("response.completed", { response: { ...response, status: "completed", usage: usage ?? null } });
}
