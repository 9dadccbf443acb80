/**
 * One chat-completions step without the AI SDK: the request written by chat-request.ts (the history
 * from kept bytes), sent on our HTTP sender, its body read by one reader (sse-data.ts, then
 * chat-stream-reader.ts) into mm's model events. What the provider's path did is kept: failures are
 * the AI SDK's error shapes (api-call-error.ts) so they are explained and retried alike; the request
 * is retried (429, 5xx, connection failures, an error frame) until the first output arrives, events
 * before it (reasoning) held until then; a 200 that is no event stream is said so; every failure, an
 * abort included, ends the stream as one `error` event.
 */
import type { ModelError, ModelEvent, ModelRequest } from "@mm/core";
import { ApiCallError, bodyFailure, fetchFailure, headerRecord, httpFailure, invalidAnswer, streamFailure } from "./api-call-error.js";
import { chatHistoryBytes, systemTextOf, type HistoryBytes } from "./chat-history-bytes.js";
import { chatCompletionsUrl, chatHeaders, chatRequest } from "./chat-request.js";
import { chatStreamReader } from "./chat-stream-reader.js";
import { abortedError, explainError, type ErrorContext } from "./explain-error.js";
import type { BodyReader, SentResponse } from "./light-response.js";
import type { HttpRequest, HttpSender } from "./node-http-fetch.js";
import { withRetries, type RetryNotice } from "./retry.js";
import { sseData } from "./sse-data.js";

/** Where a chat step goes and how: the server, its headers, the sender, the kept history bytes. */
export type ChatRoute = {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly send: HttpSender;
  readonly history: ReturnType<typeof chatHistoryBytes>;
};

/** A route to `baseURL`'s chat completions on `send`. */
export const chatRoute = (settings: { readonly apiKey: string; readonly baseURL: string; readonly headers?: Readonly<Record<string, string>> | undefined; readonly send: HttpSender }): ChatRoute => ({
  url: chatCompletionsUrl(settings.baseURL),
  headers: chatHeaders(settings.apiKey, settings.headers),
  send: settings.send,
  history: chatHistoryBytes(),
});

/** How a step retries and explains. */
export type ChatStepOptions = {
  readonly model: string;
  readonly maxRetries: number;
  readonly errorContext: ErrorContext;
  readonly notAStream: (contentType: string) => ModelError;
  readonly sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  readonly onRetry?: ((notice: RetryNotice) => void) | undefined;
};

type Reader = BodyReader;

/** A response whose stream has begun: what arrived so far, and how it goes on (or how it already ended). */
type Opened =
  | { readonly kind: "not-a-stream"; readonly contentType: string }
  | { readonly kind: "ended"; readonly reader: Reader; readonly events: readonly ModelEvent[]; readonly failure?: unknown }
  | {
      readonly kind: "streaming";
      readonly reader: Reader;
      readonly response: SentResponse;
      readonly events: readonly ModelEvent[];
      readonly sse: ReturnType<typeof sseData>;
      readonly state: ReturnType<typeof chatStreamReader>;
    };

const ignore = (): undefined => undefined;

/** Reads a chunk of the body; a failure as the AI SDK reported it. */
const readChunk = async (reader: Reader, href: string, response: SentResponse): ReturnType<Reader["read"]> => {
  try {
    return await reader.read();
  } catch (error) {
    throw bodyFailure(error, href, response);
  }
};

/**
 * One attempt: the request sent and its answer read until the first output (or the end): throws what
 * is worth a retry (an HTTP error, a connection failure, an error frame or a broken body before any output).
 */
const open = async (send: HttpSender, http: HttpRequest): Promise<Opened> => {
  const href = http.url.href;
  let response: SentResponse;
  try {
    response = await send(http);
  } catch (error) {
    throw fetchFailure(error, href);
  }
  if (!response.ok) throw await httpFailure(response, href);
  const contentType = response.headers.get("content-type");
  if (contentType !== null && !contentType.includes("text/event-stream")) {
    response.body?.cancel().catch(ignore);
    return { kind: "not-a-stream", contentType };
  }
  if (response.body === null) {
    const cause = invalidAnswer("AI_EmptyResponseBodyError", "Empty response body");
    throw new ApiCallError({ message: "Failed to process successful response", cause, statusCode: response.status, url: href, responseHeaders: headerRecord(response.headers) });
  }
  const reader = response.body.getReader();
  const sse = sseData();
  const state = chatStreamReader();
  const events: ModelEvent[] = [];
  try {
    while (!state.started) {
      const chunk = await readChunk(reader, href, response);
      if (chunk.done) {
        state.end(events);
        return { kind: "ended", reader, events };
      }
      // The rest of a chunk whose output began is read too: from there on, a frame is the stream's.
      for (const data of sse.push(chunk.value)) {
        const stop = state.take(data, events);
        if (stop?.kind === "early-error") throw streamFailure(stop.frame, href, headerRecord(response.headers));
        if (stop !== undefined) return { kind: "ended", reader, events, failure: stop.error };
      }
    }
    return { kind: "streaming", reader, response, events, sse, state };
  } catch (error) {
    reader.cancel().catch(ignore);
    throw error;
  }
};

/** One step on `route` (see the module comment); `refusal`, when given, is the step's only event (after a cancel's). Never throws. */
export async function* chatStep(route: ChatRoute, request: ModelRequest, options: ChatStepOptions, refusal?: ModelError): AsyncGenerator<ModelEvent> {
  const { signal } = request;
  const failed = (error: unknown): ModelEvent => ({ type: "error", error: signal.aborted ? abortedError() : explainError(error, options.errorContext) });
  if (signal.aborted) return yield { type: "error", error: abortedError() };
  if (refusal !== undefined) return yield { type: "error", error: refusal };
  let history: HistoryBytes | undefined;
  let reader: Reader | undefined;
  try {
    history = route.history.encode(request.messages);
    const parts = { model: request.model ?? options.model, systemText: systemTextOf(request.system, request.messages), history: history.bytes, tools: request.tools };
    const http = chatRequest(route.url, route.headers, parts, signal);
    const opened = await withRetries(() => open(route.send, http), {
      maxRetries: options.maxRetries,
      signal,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
    if (opened.kind === "not-a-stream") return yield { type: "error", error: options.notAStream(opened.contentType) };
    reader = opened.reader;
    for (const event of opened.events) yield event;
    if (opened.kind === "ended") {
      if (opened.failure !== undefined) yield failed(opened.failure);
      return;
    }
    const { sse, state, response } = opened;
    const href = route.url.href;
    const out: ModelEvent[] = [];
    for (;;) {
      const chunk = await readChunk(reader, href, response);
      if (chunk.done) {
        state.end(out);
        for (const event of out) yield event;
        return;
      }
      for (const data of sse.push(chunk.value)) {
        const stop = state.take(data, out);
        if (stop !== undefined) {
          for (const event of out) yield event;
          return yield failed(stop.kind === "failed" ? stop.error : stop.frame);
        }
      }
      for (const event of out) yield event;
      out.length = 0;
    }
  } catch (error) {
    yield failed(error);
  } finally {
    // Ended early (a consumer's break, an error): let the response go.
    reader?.cancel().catch(ignore);
    history?.release();
  }
}
