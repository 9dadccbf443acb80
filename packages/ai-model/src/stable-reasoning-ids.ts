/**
 * A workaround for @ai-sdk/openai 3.0.139 (and 3.0.141, the last release that runs on Node 20): its
 * Responses stream keeps each reasoning item under the id of its `response.output_item.added` event
 * and throws (`Cannot read properties of undefined (reading 'summaryParts')`) when a later event names
 * another id, as GitHub Copilot's Responses endpoint does (its ids change from event to event).
 * Upstream's current source reads such streams; until a Node-20 release has that, the Responses
 * body is rewritten here, and only here: the reasoning events of an output index carry the id the
 * item was announced with. Other events pass through as they came.
 */
import type { EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream";

type Event = { type?: unknown; output_index?: unknown; item_id?: unknown; item?: { type?: unknown; id?: unknown } };

/** The SSE text of an event: its name, then each line of its data. */
const frame = (message: EventSourceMessage, data: string): string =>
  `${message.event !== undefined ? `event: ${message.event}\n` : ""}${data
    .split("\n")
    .map((line) => `data: ${line}`)
    .join("\n")}\n\n`;

/** `data` with its reasoning item ids made those of the announcement, given the ids announced so far. */
export const stabilised = (data: string, announced: Map<number, string>): string => {
  if (!data.includes("reasoning")) return data;
  let value: Event;
  try {
    value = JSON.parse(data) as Event;
  } catch {
    return data;
  }
  const index = typeof value.output_index === "number" ? value.output_index : undefined;
  if (index === undefined || typeof value.type !== "string") return data;
  if (value.type === "response.output_item.added" && value.item?.type === "reasoning" && typeof value.item.id === "string") {
    announced.set(index, value.item.id);
    return data;
  }
  const id = announced.get(index);
  if (id === undefined) return data;
  if (value.type === "response.output_item.done" && value.item?.type === "reasoning" && value.item.id !== id) {
    return JSON.stringify({ ...value, item: { ...value.item, id } });
  }
  if (value.type.startsWith("response.reasoning_") && typeof value.item_id === "string" && value.item_id !== id) {
    return JSON.stringify({ ...value, item_id: id });
  }
  return data;
};

/** `inner` whose event-stream answers have stable reasoning item ids (`Parser`: eventsource-parser's stream, from sdk.ts). */
export const withStableReasoningIds =
  (inner: typeof fetch, Parser: typeof EventSourceParserStream): typeof fetch =>
  async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok || response.body === null || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    const announced = new Map<number, string>();
    const body = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new Parser())
      .pipeThrough(
        new TransformStream<EventSourceMessage, string>({
          transform: (message, controller) => controller.enqueue(frame(message, stabilised(message.data, announced))),
        }),
      )
      .pipeThrough(new TextEncoderStream());
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
