/**
 * `fetch` that says, for the operator's debug log, how big each model request was and how long the
 * server took to answer it. Only used when that log is on: measuring the body costs a pass over it.
 */

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

/** `inner` with a debug line per request: its size and URL, then the status and the time to the answer's headers. */
export const timedFetch = (inner: typeof fetch, debug: (line: string) => void, now: () => number = () => performance.now()): typeof fetch =>
  async (input, init) => {
    const started = now();
    const what = `model request: ${sizeOf(init?.body)} to ${urlOf(input)}`;
    try {
      const response = await inner(input, init);
      debug(`${what}; answered ${response.status} after ${ms(now() - started)}`);
      return response;
    } catch (error) {
      debug(`${what}; failed after ${ms(now() - started)}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  };
