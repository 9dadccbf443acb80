/**
 * An HTTP answer without the web platform's `Response` and `Headers` (whose first use loads Node's
 * bundled undici: about 28 ms and 10 MB here): the status, the headers as a record of lowercase names
 * (repeated ones joined with ", ", as `Headers` does), and the body read chunk by chunk. mm's chat path
 * reads answers this way (node-http-fetch.ts's `exchange`); `answerOfResponse` adapts a `Response`
 * (tests, and any `fetch`).
 */
import type { HttpRequest } from "./node-http-fetch.js";

/** One read of a body: a chunk, or its end. */
export type BodyRead = { readonly done: true; readonly value?: undefined } | { readonly done: false; readonly value: Uint8Array };

/** An answer's status line, headers and body (see the module comment). */
export type HttpAnswer = {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The next chunk of the body; rejects as Node's fetch errors a body that breaks off. */
  readonly read: () => Promise<BodyRead>;
  /** Lets the rest of the body go (the connection is closed). */
  readonly cancel: () => void;
};

/** Sends a request whose body is already bytes; resolves with the answer once its headers arrived (redirects followed). */
export type HttpExchange = (request: HttpRequest) => Promise<HttpAnswer>;

/** Whether the status is a success (2xx). */
export const isOk = (answer: HttpAnswer): boolean => answer.status >= 200 && answer.status < 300;

/** The whole body as UTF-8 text. */
export const answerText = async (answer: HttpAnswer): Promise<string> => {
  const chunks: Uint8Array[] = [];
  for (let read = await answer.read(); !read.done; read = await answer.read()) chunks.push(read.value);
  return Buffer.concat(chunks).toString("utf8");
};

/** A `Response` as an answer. */
export const answerOfResponse = (response: Response): HttpAnswer => {
  const reader = response.body?.getReader();
  return {
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
    read: async () => {
      if (reader === undefined) return { done: true };
      const read = await reader.read();
      return read.done ? { done: true } : { done: false, value: read.value };
    },
    cancel: () => void reader?.cancel().catch(() => undefined),
  };
};
