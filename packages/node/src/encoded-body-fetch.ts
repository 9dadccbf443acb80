/**
 * encodedBodyFetch: `fetch` with a string request body encoded to UTF-8 once, here, before it is
 * handed over. Node's fetch (undici) measures a string body with Buffer.byteLength, encodes it, and
 * copies it again into its body stream: on a 10 MB history re-sent at every model step, about 45 ms of
 * a step's start (84 → 37 ms to the last byte on 127.0.0.1). The bytes on the wire are the same, and
 * so are the headers the caller set (content-type included; content-length is the same number).
 */

const encoder = new TextEncoder();

/** The global fetch, with a string body given as its UTF-8 bytes. */
export const encodedBodyFetch: typeof fetch = (input, init) =>
  fetch(input, init !== undefined && typeof init.body === "string" ? { ...init, body: encoder.encode(init.body) } : init);
