import { describe, expect, it } from "vitest";
import { timedFetch } from "./timed-fetch.js";

describe("timedFetch", () => {
  it("logs each request's size, URL, status and time to its answer", async () => {
    const lines: string[] = [];
    let now = 1000;
    const inner = (async () => {
      now += 250;
      return new Response("ok", { status: 200 });
    }) as typeof fetch;
    const fetcher = timedFetch(
      inner,
      (l) => lines.push(l),
      () => now,
    );
    await fetcher("http://127.0.0.1:1/v1/chat/completions", { method: "POST", body: '{"q":"été"}' });
    expect(lines).toEqual(["model request: 13 bytes to http://127.0.0.1:1/v1/chat/completions; answered 200 after 250 ms"]);
  });

  it("logs a request that failed, and lets the failure through", async () => {
    const lines: string[] = [];
    const refused = new TypeError("fetch failed");
    const fetcher = timedFetch(
      (async () => Promise.reject(refused)) as typeof fetch,
      (l) => lines.push(l),
      () => 0,
    );
    await expect(fetcher(new URL("http://h/v1/x"), {})).rejects.toBe(refused);
    expect(lines).toEqual(["model request: no body to http://h/v1/x; failed after 0 ms: fetch failed"]);
  });
});
