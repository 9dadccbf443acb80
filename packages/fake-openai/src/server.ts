/**
 * A scripted OpenAI-compatible HTTP server on 127.0.0.1 for end-to-end tests and benchmarks. Each
 * POST to /v1/chat/completions or /v1/responses consumes one scripted reply (an empty queue answers
 * "ok"); every request is recorded with its parsed JSON body and headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletionJson, chatFloodFrames, chatTextFrames, chatToolCallFrames, type WireContext } from "./chat-wire.js";
import { openAIErrorBody, text, type FakeUsage, type RecordedRequest, type Reply, type ScriptedReply } from "./replies.js";
import { responsesFrames, type ResponseContent } from "./responses-wire.js";

export type FakeOpenAI = {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:40123/v1`. */
  readonly url: string;
  /** Every request received, in arrival order (including ones answered with errors). */
  readonly requests: RecordedRequest[];
  /** Appends replies to the queue. */
  readonly enqueue: (...replies: ScriptedReply[]) => void;
  /** How many scripted replies are still queued. */
  readonly pending: () => number;
  /** Stops listening and destroys open connections (stalled ones included). */
  readonly close: () => Promise<void>;
};

export type FakeOpenAIOptions = {
  /** Answer when the queue is empty; `text("ok")` by default. */
  readonly defaultReply?: ScriptedReply;
  /** Usage reported unless a reply sets its own; unset counts are estimated (body length / 4). */
  readonly usage?: FakeUsage;
  /** Port to listen on; 0 (any free one) by default. */
  readonly port?: number;
  /** The ids `GET /v1/models` lists; `["fake-model"]` by default. */
  readonly models?: readonly string[];
  /** Of `models`, those whose entry says they take a reasoning effort (`supported_parameters`, as OpenRouter lists them). */
  readonly reasoningModels?: readonly string[];
};

type Api = "chat" | "responses";

const WRITE_BATCH = 64 * 1024;
const estimateTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

export const startFakeOpenAI = async (script: readonly ScriptedReply[] = [], options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> => {
  const queue: ScriptedReply[] = [...script];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let responseCount = 0;

  const nextReply = (request: RecordedRequest): Reply => {
    const scripted = queue.shift() ?? options.defaultReply ?? text("ok");
    return typeof scripted === "function" ? scripted(request) : scripted;
  };

  /** Waits `ms`; false when the client went away first. */
  const pause = (res: ServerResponse, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      const onClose = (): void => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.off("close", onClose);
        resolve(true);
      }, ms);
      timers.add(timer);
      res.once("close", onClose);
    });

  /** Writes each frame `delayMs` after the last, noting when (in `writtenAt`, for a paced benchmark). */
  const writeSlowly = async (res: ServerResponse, frames: Iterable<string>, delayMs: number, writtenAt?: number[]): Promise<boolean> => {
    for (const frame of frames) {
      if (!(await pause(res, delayMs)) || !(await write(res, frame))) return false;
      writtenAt?.push(performance.now());
    }
    return true;
  };

  const serve = async (api: Api, request: RecordedRequest, rawLength: number, res: ServerResponse): Promise<void> => {
    const reply = nextReply(request);
    const body = (request.body ?? {}) as { stream?: unknown; model?: unknown; stream_options?: { include_usage?: unknown } };
    const streaming = body.stream === true;
    const n = ++responseCount;
    const callId = (index: number): string => `call_fake_${n}_${index}`;
    const usageFor = (completionChars: number, usage: FakeUsage | undefined) => {
      const cachedTokens = usage?.cachedTokens ?? options.usage?.cachedTokens;
      const cost = usage?.cost ?? options.usage?.cost;
      return {
        promptTokens: usage?.promptTokens ?? options.usage?.promptTokens ?? estimateTokens(rawLength),
        completionTokens: usage?.completionTokens ?? options.usage?.completionTokens ?? estimateTokens(completionChars),
        ...(cachedTokens !== undefined ? { cachedTokens } : {}),
        ...(cost !== undefined ? { cost } : {}),
      };
    };
    const wantsUsage = api === "responses" || !streaming || body.stream_options?.include_usage === true;
    const context = (completionChars: number, usage?: FakeUsage): WireContext => ({
      id: api === "chat" ? `chatcmpl-fake-${n}` : `resp_fake_${n}`,
      model: typeof body.model === "string" ? body.model : "fake-model",
      created: Math.floor(Date.now() / 1000),
      usage: wantsUsage ? usageFor(completionChars, usage) : undefined,
    });

    const content = async (reply: Reply, headersSent: boolean): Promise<void> => {
      switch (reply.kind) {
        case "status": {
          if (headersSent) return void res.destroy();
          const payload = reply.body ?? openAIErrorBody(reply.code);
          res.writeHead(reply.code, { "content-type": typeof payload === "string" ? "text/plain" : "application/json", ...reply.headers });
          return void res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
        }
        case "stall": {
          if (!headersSent) startStream(res, streaming);
          if (!(await pause(res, reply.ms))) return;
          return reply.then ? content(reply.then, true) : void res.destroy();
        }
        case "drop-after": {
          if (!headersSent) startStream(res, streaming);
          const ctx = context(0);
          const frames =
            api === "chat" ? chatTextFrames(reply, ctx, false) : responsesFrames({ deltas: reply.chunks, hasText: true, calls: [] }, ctx, callId, false);
          if (streaming && !(await writeFrames(res, frames))) return;
          if (await pause(res, 10)) res.destroy();
          return;
        }
        case "frames": {
          if (!headersSent) res.writeHead(200, { "content-type": reply.contentType ?? "text/event-stream", "cache-control": "no-cache" });
          const written = await ((reply.delayMs ?? 0) > 0 ? writeSlowly(res, reply.frames, reply.delayMs ?? 0) : writeFrames(res, reply.frames));
          if (!written) return;
          if (reply.end === "drop") {
            if (await pause(res, 10)) res.destroy();
            return;
          }
          return void res.end();
        }
        default: {
          const chars =
            reply.kind === "text"
              ? reply.chunks.reduce((sum, c) => sum + c.length, 0)
              : reply.kind === "flood"
                ? reply.count * reply.chunkText.length
                : (reply.text?.length ?? 0) + JSON.stringify(reply.calls).length;
          const ctx = context(chars, reply.usage);
          if (!streaming) {
            if (headersSent) return void res.destroy();
            if (api === "responses")
              return void sendJson(res, 400, { error: { message: "fake-openai: /v1/responses streams only", type: "invalid_request_error", code: null } });
            return void sendJson(res, 200, chatCompletionJson(reply, ctx, callId));
          }
          if (!headersSent) startStream(res, true);
          const frames = api === "chat" ? chatFrames(reply, ctx, callId) : responsesFrames(responseContent(reply), ctx, callId);
          const delayMs = reply.kind === "text" ? (reply.delayMs ?? 0) : 0;
          if (await (delayMs > 0 ? writeSlowly(res, frames, delayMs, request.timing?.framesWrittenAt) : writeFrames(res, frames))) res.end();
        }
      }
    };
    await content(reply, false);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const arrivedAt = performance.now();
    let firstByteAt: number | undefined;
    req.on("data", (chunk: Buffer) => {
      firstByteAt ??= performance.now();
      chunks.push(chunk);
    });
    req.on("end", () => {
      const lastByteAt = performance.now();
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const timing: { arrivedAt: number; firstByteAt: number; lastByteAt: number; answeredAt?: number; framesWrittenAt: number[] } = {
        arrivedAt,
        firstByteAt: firstByteAt ?? lastByteAt,
        lastByteAt,
        framesWrittenAt: [],
      };
      res.once("finish", () => (timing.answeredAt = performance.now()));
      const request: RecordedRequest = { method: req.method ?? "GET", path, headers: flatHeaders(req), body: parseJson(raw), timing };
      requests.push(request);
      const api: Api | undefined = path === "/v1/chat/completions" ? "chat" : path === "/v1/responses" ? "responses" : undefined;
      if (api && req.method === "POST") {
        if (request.body === undefined) {
          return sendJson(res, 400, { error: { message: "fake-openai: body is not JSON", type: "invalid_request_error", code: null } });
        }
        serve(api, request, raw.length, res).catch(() => res.destroy());
      } else if (path === "/v1/models" && req.method === "GET") {
        const ids = options.models ?? ["fake-model"];
        const reasons = (id: string) => (options.reasoningModels ?? []).includes(id);
        sendJson(res, 200, {
          object: "list",
          data: ids.map((id) => ({
            id,
            object: "model",
            created: 0,
            owned_by: "fake-openai",
            ...(reasons(id) ? { supported_parameters: ["max_tokens", "reasoning", "include_reasoning", "tools"] } : {}),
          })),
        });
      } else {
        sendJson(res, 404, { error: { message: `fake-openai: no route ${req.method} ${path}`, type: "invalid_request_error", code: null } });
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

const chatFrames = (reply: Extract<Reply, { kind: "text" | "tool-calls" | "flood" }>, ctx: WireContext, callId: (index: number) => string): Iterable<string> =>
  reply.kind === "text" ? chatTextFrames(reply, ctx) : reply.kind === "flood" ? chatFloodFrames(reply, ctx) : chatToolCallFrames(reply, ctx, callId);

const responseContent = (reply: Extract<Reply, { kind: "text" | "tool-calls" | "flood" }>): ResponseContent =>
  reply.kind === "text"
    ? { deltas: reply.chunks, hasText: reply.chunks.length > 0, calls: [], ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}) }
    : reply.kind === "flood"
      ? { deltas: repeat(reply.chunkText, reply.count), hasText: reply.count > 0, calls: [] }
      : { deltas: reply.text ? [reply.text] : [], hasText: Boolean(reply.text), calls: reply.calls };

function* repeat(value: string, count: number): Generator<string> {
  for (let i = 0; i < count; i++) yield value;
}

const startStream = (res: ServerResponse, sse: boolean): void => {
  res.writeHead(
    200,
    sse ? { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" } : { "content-type": "application/json" },
  );
  res.flushHeaders();
};

/** Writes frames in batches, waiting for the client when the socket is full; false once the client is gone. */
const writeFrames = async (res: ServerResponse, frames: Iterable<string>): Promise<boolean> => {
  let batch = "";
  for (const frame of frames) {
    batch += frame;
    if (batch.length >= WRITE_BATCH) {
      if (!(await write(res, batch))) return false;
      batch = "";
    }
  }
  return batch === "" ? !res.destroyed : write(res, batch);
};

const write = (res: ServerResponse, data: string): Promise<boolean> | boolean => {
  if (res.destroyed) return false;
  if (res.write(data)) return true;
  return new Promise((resolve) => {
    const done = (open: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(open);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
};

const sendJson = (res: ServerResponse, code: number, body: unknown): void => {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
};

const flatHeaders = (req: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
};
