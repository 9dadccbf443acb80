/**
 * `fetch` that says, for the operator's debug log, how big each model request was and how long the
 * server took to answer it. Only used when that log is on: measuring the body costs a pass over it.
 */
import type { HttpSender } from "./node-http-fetch.js";

/** UTF-8 bytes of a string, counted without encoding it. */
export const utf8Length = (text: string): number => {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
};

const sizeOf = (body: unknown): string => {
  if (typeof body === "string") return `${utf8Length(body)} bytes`;
  if (body instanceof Uint8Array) return `${body.length} bytes`;
  return body === undefined || body === null ? "no body" : "a streamed body";
};

const urlOf = (input: Parameters<typeof fetch>[0]): string =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url;

const ms = (value: number): string => `${Math.round(value)} ms`;

/** How a timed request ends: its status and time, or its failure. */
const timed = async (what: string, send: () => Promise<Response>, debug: (line: string) => void, now: () => number): Promise<Response> => {
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
export const timedFetch = (inner: typeof fetch, debug: (line: string) => void, now: () => number = () => performance.now()): typeof fetch =>
  (input, init) => timed(`model request: ${sizeOf(init?.body)} to ${urlOf(input)}`, () => inner(input, init), debug, now);

/**
 * The same for requests sent as bytes (node-http-fetch.ts): the size is that of the bytes that leave,
 * a spliced history included (history-splice.ts), not that of the body the provider wrote.
 */
export const timedSender = (inner: HttpSender, debug: (line: string) => void, now: () => number = () => performance.now()): HttpSender =>
  (request) => {
    const bytes = request.body.reduce((sum, chunk) => sum + chunk.length, 0);
    return timed(`model request: ${bytes === 0 ? "no body" : `${bytes} bytes`} to ${request.url.href}`, () => inner(request), debug, now);
  };
