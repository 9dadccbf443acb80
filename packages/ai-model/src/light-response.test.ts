import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { sentResponse, webResponse, type SentResponse } from "./light-response.js";

/** An answer as node:http hands it over: a stream with the status and the raw headers. */
const answer = (rawHeaders: string[] = ["Content-Type", "text/event-stream"], status = 200) => {
  const res = Object.assign(new PassThrough(), { statusCode: status, statusMessage: status === 200 ? "OK" : "Bad Gateway", rawHeaders, headers: {}, complete: false });
  return res as unknown as IncomingMessage & PassThrough & { complete: boolean };
};

const OPTIONS = { highWaterBytes: 8, bodyTimeoutMs: 60_000 };

const readAll = async (response: SentResponse): Promise<string[]> => {
  const reader = response.body!.getReader();
  const chunks: string[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(Buffer.from(read.value).toString());
  return chunks;
};

describe("sentResponse", () => {
  it("says the status, and the headers by any case, repeated ones joined as Headers joins them", () => {
    const res = answer(["Content-Type", "text/event-stream", "X-Seen", "a", "x-seen", "b"], 502);
    const response = sentResponse(res, res, OPTIONS);
    expect([response.status, response.statusText, response.ok]).toEqual([502, "Bad Gateway", false]);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("X-SEEN")).toBe("a, b");
    expect(response.headers.get("absent")).toBeNull();
    const seen: [string, string][] = [];
    response.headers.forEach((value, name) => seen.push([name, value]));
    const web = new Headers();
    for (const [name, value] of [["Content-Type", "text/event-stream"], ["X-Seen", "a"], ["x-seen", "b"]] as const) web.append(name, value);
    expect(seen).toEqual([...web]);
  });

  it("reads the chunks in order, pausing the socket while more than the high-water mark waits", async () => {
    const res = answer();
    const response = sentResponse(res, res, OPTIONS);
    res.write("12345");
    res.write("67890");
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.isPaused()).toBe(true);
    res.end("abc");
    expect(await readAll(response)).toEqual(["12345", "67890", "abc"]);
  });

  it("reads a break-off as undici's `terminated`, and every read after it too", async () => {
    const res = answer();
    const response = sentResponse(res, res, OPTIONS);
    const reader = response.body!.getReader();
    res.write("data: a\n\n");
    expect((await reader.read()).done).toBe(false);
    res.destroy();
    const failure = (await reader.read().catch((error: unknown) => error)) as TypeError & { cause: { code: string } };
    expect([failure.message, failure.cause.code]).toEqual(["terminated", "UND_ERR_SOCKET"]);
    await expect(reader.read()).rejects.toBe(failure);
  });

  it("fails the reads with the signal's reason when it aborts, and stops reading", async () => {
    const res = answer();
    const controller = new AbortController();
    const response = sentResponse(res, res, { ...OPTIONS, signal: controller.signal });
    const reader = response.body!.getReader();
    const pending = reader.read();
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(res.destroyed).toBe(true);
  });

  it("ends the body once cancelled, and lets the socket go", async () => {
    const res = answer();
    const response = sentResponse(res, res, OPTIONS);
    res.write("x");
    await response.body!.cancel();
    expect(res.destroyed).toBe(true);
    expect(await response.body!.getReader().read()).toEqual({ done: true });
  });

  it("gives the text as Response.text() does (UTF-8, a leading BOM dropped)", async () => {
    const res = answer(["Content-Type", "application/json"], 502);
    const response = sentResponse(res, res, OPTIONS);
    res.end(Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"error":"é"}')]));
    expect(await response.text()).toBe('{"error":"é"}');
  });

  it("makes a web Response of it with the same status, headers and body", async () => {
    const res = answer(["Content-Type", "text/plain", "X-A", "1"]);
    const web = webResponse(sentResponse(res, res, OPTIONS));
    res.end("hello");
    expect([web.status, web.headers.get("x-a"), await web.text()]).toEqual([200, "1", "hello"]);
  });
});
