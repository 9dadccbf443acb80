/**
 * For the operator's debug log, only used when that log is on: how big each model request was and how
 * long the server took to answer it (measuring the body costs a pass over it), and how long each step
 * took to its first output and to its end.
 */
import type { ModelEvent, ModelRequest } from "@mm/core";

const sizeOf = (body: unknown): string => {
  if (typeof body === "string") return `${Buffer.byteLength(body, "utf8")} bytes`;
  if (body instanceof Uint8Array) return `${body.length} bytes`;
  return body === undefined || body === null ? "no body" : "a streamed body";
};

const urlOf = (input: Parameters<typeof fetch>[0]): string => (typeof input === "string" ? input : input instanceof URL ? input.href : input.url);

const ms = (value: number): string => `${Math.round(value)} ms`;

/** How a timed request ends: its status and time, or its failure. */
const timed = async <R extends { readonly status: number }>(
  what: string,
  send: () => Promise<R>,
  debug: (line: string) => void,
  now: () => number,
): Promise<R> => {
  const started = now();
  try {
    const response = await send();
    debug(`${what}; answered ${response.status} after ${ms(now() - started)}`);
    return response;
  } catch (error) {
    debug(`${what}; failed after ${ms(now() - started)}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
};

/** `inner` with a debug line per request: its size and URL, then the status and the time to the answer's headers. */
export const timedFetch =
  (inner: typeof fetch, debug: (line: string) => void, now: () => number = () => performance.now()): typeof fetch =>
  (input, init) =>
    timed(`model request: ${sizeOf(init?.body)} to ${urlOf(input)}`, () => inner(input, init), debug, now);

/** `step` with a debug line at each step's end: time to the first text or call, to the end, tokens. */
export const timedStep = (step: (request: ModelRequest) => AsyncGenerator<ModelEvent>, log: (line: string) => void) =>
  async function* (request: ModelRequest): AsyncGenerator<ModelEvent> {
    const started = performance.now();
    let first: number | undefined;
    for await (const event of step(request)) {
      if (first === undefined && (event.type === "text" || event.type === "tool-call")) first = performance.now() - started;
      if (event.type === "finish" || event.type === "error") {
        const firstPart = first !== undefined ? `first output after ${Math.round(first)} ms, ` : "";
        const end =
          event.type === "finish" ? `${event.usage.inputTokens ?? "?"} tokens in, ${event.usage.outputTokens ?? "?"} out` : `failed: ${event.error.message}`;
        log(`model step: ${firstPart}done after ${Math.round(performance.now() - started)} ms; ${end}`);
      }
      yield event;
    }
  };
