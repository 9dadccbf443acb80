/**
 * ACP over newline-delimited JSON on stdio, hardened against a hostile or broken editor. It replaces
 * the SDK's `ndJsonStream`, which in @agentclientprotocol/sdk 2.4.0 still closes the whole connection
 * on one line over its limit (its line buffer throws, and the stream errors), and whose connection
 * echoes an invalid message back as error data (a deeply nested one then cannot be serialised, and
 * that closes the connection too).
 *
 * Reading, one line at a time:
 * - blank lines are skipped; a line that is not JSON answers -32700 (`id: null`);
 * - a JSON array (a batch, which ACP does not use) or any non-object answers -32600 (`id: null`);
 * - an object that is not a JSON-RPC 2.0 request, notification or response answers -32600, with its
 *   `id` when that id is a valid JSON-RPC id, else `id: null`; the message is never echoed back;
 * - a line longer than `maxMessageBytes` (32 MiB by default) is dropped without being buffered and
 *   answers -32600 "message too large", with the id read from the start of the line when it has one
 *   there (as every JSON-RPC library writes it), so the editor's request fails instead of hanging;
 *   the connection stays open;
 * - everything else goes to the SDK connection (method not found, invalid params, handlers).
 *
 * Writing: one `JSON.stringify` line per message. A message that cannot be serialised becomes an
 * internal error for its id (a response) or is dropped with a log line (anything else), so stdout
 * stays pure JSON-RPC and the connection stays up.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { JsonRpcId } from "./json-rpc-id.js";

/** The SDK's default limit of one incoming message, kept: 32 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export type NdJsonStreamOptions = {
  readonly maxMessageBytes?: number;
  /** One warning on stderr about something dropped or refused. */
  readonly warn?: (line: string) => void;
  /** Called once each outgoing message has been handed to the output, in order. */
  readonly onWritten?: (message: acp.AnyMessage) => void;
  /** Called after each line that is not JSON has been answered -32700 (a person typing at the agent?). */
  readonly onNotJson?: () => void;
};

type ErrorObject = { readonly code: number; readonly message: string; readonly data?: unknown };

/** What becomes of one incoming line. */
export type Verdict =
  | { readonly kind: "message"; readonly message: acp.AnyMessage }
  | { readonly kind: "answer"; readonly id: JsonRpcId; readonly error: ErrorObject }
  | { readonly kind: "skip" };

const NEWLINE = 0x0a;
/** How much of an oversized line is kept to find its id. */
const ID_SNIFF_BYTES = 4096;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const isValidId = (value: unknown): value is string | number => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

const invalidRequest = (id: JsonRpcId, why: string): Verdict => ({
  kind: "answer",
  id,
  error: { code: -32600, message: `Invalid request: ${why}` },
});

/** The id to answer an invalid message with: its own when usable, else null. */
const usableId = (message: Record<string, unknown>): JsonRpcId => (isValidId(message.id) ? message.id : null);

/** Sorts one parsed JSON value: a message for the SDK, or the error it gets here. */
export const classify = (value: unknown): Verdict => {
  if (Array.isArray(value)) return invalidRequest(null, "JSON-RPC batches are not supported");
  if (!isRecord(value)) return invalidRequest(null, "a JSON-RPC message is a JSON object");
  const hasId = Object.hasOwn(value, "id");
  if (Object.hasOwn(value, "method")) {
    if (value.jsonrpc !== "2.0") return invalidRequest(usableId(value), 'jsonrpc must be "2.0"');
    if (typeof value.method !== "string") return invalidRequest(usableId(value), "method must be a string");
    if (hasId && value.id !== null && !isValidId(value.id)) return invalidRequest(null, "id must be a string, a number or null");
    return { kind: "message", message: value as acp.AnyMessage };
  }
  if (hasId || Object.hasOwn(value, "result") || Object.hasOwn(value, "error")) {
    // Response-shaped: never answered (JSON-RPC answers no response); the SDK matches or logs it.
    return { kind: "message", message: value as acp.AnyMessage };
  }
  return invalidRequest(null, "neither a request, a notification nor a response");
};

/** Sorts one complete line (without its newline). */
export const classifyLine = (line: string): Verdict => {
  const text = line.trim();
  if (text === "") return { kind: "skip" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "answer", id: null, error: { code: -32700, message: "Parse error" } };
  }
  return classify(value);
};

const SNIFF_ID = /^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,)*\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/;

/** The id of a message from the start of its line, when it is among the first keys; else null. */
export const sniffId = (head: string): JsonRpcId => {
  const match = SNIFF_ID.exec(head);
  if (match?.[1] === undefined) return null;
  try {
    const id: unknown = JSON.parse(match[1]);
    return isValidId(id) ? id : null;
  } catch {
    return null;
  }
};

const concat = (parts: readonly Uint8Array[], length: number): Uint8Array => {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/**
 * Splits bytes into lines of at most `maxBytes`; a longer line is reported as oversized (its first
 * bytes and its length) without ever holding more than `maxBytes` of it.
 */
export const lineSplitter = (maxBytes: number) => {
  let parts: Uint8Array[] = [];
  let length = 0;
  let oversized: { head: Uint8Array; bytes: number } | undefined;

  type Piece = { readonly kind: "line"; readonly bytes: Uint8Array } | { readonly kind: "oversized"; readonly head: Uint8Array; readonly bytes: number };

  const take = (piece: Uint8Array): void => {
    if (oversized !== undefined) {
      oversized.bytes += piece.length;
      return;
    }
    if (length + piece.length > maxBytes) {
      const headParts = [...parts, piece.subarray(0, Math.max(0, ID_SNIFF_BYTES - length))];
      const headLength = headParts.reduce((sum, p) => sum + p.length, 0);
      oversized = { head: concat(headParts, headLength).slice(0, ID_SNIFF_BYTES), bytes: length + piece.length };
      parts = [];
      length = 0;
      return;
    }
    if (piece.length > 0) {
      parts.push(piece);
      length += piece.length;
    }
  };

  const end = (): Piece | undefined => {
    if (oversized !== undefined) {
      const piece: Piece = { kind: "oversized", ...oversized };
      oversized = undefined;
      return piece;
    }
    if (length === 0 && parts.length === 0) return { kind: "line", bytes: new Uint8Array(0) };
    const bytes = concat(parts, length);
    parts = [];
    length = 0;
    return { kind: "line", bytes };
  };

  return {
    /** The complete lines (or oversized ones) this chunk ends. */
    push: (chunk: Uint8Array): Piece[] => {
      const pieces: Piece[] = [];
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(NEWLINE, start);
        take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
        if (newline === -1) break;
        const piece = end();
        if (piece !== undefined) pieces.push(piece);
        start = newline + 1;
      }
      return pieces;
    },
    /** The last line when the input ended without a newline. */
    flush: (): Piece | undefined => (oversized !== undefined || length > 0 ? end() : undefined),
  };
};

const errorLine = (id: JsonRpcId, error: ErrorObject): string => `${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`;

/** One line of JSON for `message`; an unserialisable response becomes an internal error for its id. */
const serialise = (message: acp.AnyMessage, warn: (line: string) => void): string | undefined => {
  try {
    const text = JSON.stringify(message);
    if (typeof text === "string") return `${text}\n`;
  } catch (error) {
    warn(`[acp] could not serialise an outgoing message: ${error instanceof Error ? error.message : String(error)}`);
  }
  const raw = message as { id?: unknown; method?: unknown };
  if (raw.method === undefined && (isValidId(raw.id) || raw.id === null)) {
    return errorLine(raw.id ?? null, { code: -32603, message: "Internal error", data: { error: "the response could not be serialised" } });
  }
  return undefined;
};

/**
 * Where the lines go: a web stream, or a sink whose `write` queues the bytes synchronously (in order)
 * and resolves when the caller may write more, which spares a stream writer per message.
 */
export type ByteSink = {
  readonly write: (bytes: Uint8Array) => Promise<void>;
  /** The same for text, when the sink takes it as it is (encoded once per batch). */
  readonly writeText?: (text: string) => Promise<void>;
};

const sinkOf = (output: WritableStream<Uint8Array> | ByteSink): ByteSink["write"] => {
  if (!("getWriter" in output)) return output.write;
  let written: Promise<void> = Promise.resolve();
  return (bytes) => {
    const write = written.then(async () => {
      const writer = output.getWriter();
      try {
        await writer.write(bytes);
      } finally {
        writer.releaseLock();
      }
    });
    written = write.catch(() => undefined);
    return write;
  };
};

/** The ACP stream over a byte sink and source (stdout and stdin), per the rules above. */
export const ndJsonStream = (
  output: WritableStream<Uint8Array> | ByteSink,
  input: ReadableStream<Uint8Array>,
  options: NdJsonStreamOptions = {},
): acp.Stream => {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new RangeError("maxMessageBytes must be a positive safe integer");
  const warn = options.warn ?? (() => undefined);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const source = input.getReader();

  const sink = sinkOf(output);
  const textSink = "getWriter" in output ? undefined : output.writeText;
  const writeText = textSink ?? ((text: string): Promise<void> => sink(encoder.encode(text)));

  const lines = lineSplitter(maxBytes);
  const ready: acp.AnyMessage[] = [];
  let ended = false;

  const handle = async (piece: ReturnType<typeof lines.push>[number]): Promise<void> => {
    if (piece.kind === "oversized") {
      const id = sniffId(decoder.decode(piece.head));
      warn(`[acp] dropped an incoming message of ${piece.bytes} bytes or more (limit ${maxBytes} bytes)${id === null ? "" : `, id ${JSON.stringify(id)}`}`);
      await writeText(
        errorLine(id, {
          code: -32600,
          message: "Invalid request: message too large",
          data: { error: `the message exceeds the limit of ${maxBytes} bytes and was dropped` },
        }),
      );
      return;
    }
    const verdict = classifyLine(decoder.decode(piece.bytes));
    if (verdict.kind === "message") ready.push(verdict.message);
    else if (verdict.kind === "answer") {
      await writeText(errorLine(verdict.id, verdict.error));
      if (verdict.error.code === -32700) options.onNotJson?.();
    }
  };

  /** The next message for the SDK: lines are read until one holds a message; undefined once the input ended. */
  const next = async (): Promise<acp.AnyMessage | undefined> => {
    while (ready.length === 0 && !ended) {
      const { value, done } = await source.read();
      if (done) {
        ended = true;
        const last = lines.flush();
        if (last !== undefined) await handle(last);
        break;
      }
      if (value !== undefined) for (const piece of lines.push(value)) await handle(piece);
    }
    return ready.shift();
  };

  const write = (message: acp.AnyMessage): Promise<void> => {
    const text = serialise(message, warn);
    if (text === undefined) return Promise.resolve();
    const written = writeText(text);
    options.onWritten?.(message);
    return written;
  };

  const readable = new ReadableStream<acp.AnyMessage>(
    {
      pull: async (controller) => {
        const message = await next();
        if (message === undefined) controller.close();
        else controller.enqueue(message);
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return { readable, writable: new WritableStream<acp.AnyMessage>({ write }) };
};
