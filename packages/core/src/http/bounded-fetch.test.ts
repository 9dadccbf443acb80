import { describe, expect, it } from "vitest";
import { AnswerTooLarge, answerTooLargeIn, boundedFetch, eventCounter } from "./bounded-fetch.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A fetch answering `chunks` (then the end) with this content type; `cancelled` says whether the body was cancelled. */
const answering = (chunks: readonly string[], contentType: string) => {
  const state = { cancelled: false, sent: 0 };
  const inner = (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks[state.sent++];
          if (next === undefined) controller.close();
          else controller.enqueue(bytes(next));
        },
        cancel() {
          state.cancelled = true;
        },
      }),
      { status: 200, headers: { "content-type": contentType } },
    )) as typeof fetch;
  return { inner, state };
};

describe("eventCounter", () => {
  it("counts one event's bytes from the last blank line, whatever the line ends (LF, CR, CRLF, split across chunks)", () => {
    const within = eventCounter(10);
    expect(within(bytes("data: 1234\n\n"))).toBe(true);
    expect(within(bytes("data: 1234\r"))).toBe(true);
    expect(within(bytes("\n\r\ndata: 12"))).toBe(true);
    expect(within(bytes("34\r\n\r\n"))).toBe(true);
    expect(within(bytes(": 12\ndata"))).toBe(true);
    expect(within(bytes(": 1"))).toBe(false);
  });

  it("stops a line that never ends and data lines that never make an event", () => {
    const line = eventCounter(8);
    expect(line(bytes("data: aa"))).toBe(true);
    expect(line(bytes("a"))).toBe(false);
    const lines = eventCounter(8);
    expect(lines(bytes("data\ndata\n"))).toBe(true);
    expect(lines(bytes("d"))).toBe(false);
  });
});

describe("boundedFetch", () => {
  it("lets an event stream of short events through, however long", async () => {
    const { inner } = answering(
      Array.from({ length: 50 }, () => "data: 0123456789\n\n"),
      "text/event-stream",
    );
    const response = await boundedFetch(inner, { eventBytes: 20 })("http://h/x");
    expect((await response.text()).length).toBe(50 * 18);
  });

  it("fails an event stream's read past one event's bound, cancels the body, and says so once", async () => {
    const { inner, state } = answering(["data: ", ...Array.from({ length: 1000 }, () => "aaaaaaaaaa")], "text/event-stream; charset=utf-8");
    const told: AnswerTooLarge[] = [];
    const response = await boundedFetch(inner, { eventBytes: 100, onExceeded: (e) => told.push(e) })("http://h/x");
    const failure = await response.text().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AnswerTooLarge);
    expect((failure as Error).message).toBe("sent over 100 bytes of an event stream without ending an event (a line that never ends?)");
    expect(told).toHaveLength(1);
    expect(state.cancelled).toBe(true);
    expect(state.sent).toBeLessThan(20);
  });

  it("bounds a whole answer that is not an event stream", async () => {
    const { inner } = answering(
      Array.from({ length: 100 }, () => '{"data":[1,2,3]}\n\n'),
      "application/json",
    );
    const failure = await (await boundedFetch(inner, { answerBytes: 1024 })("http://h/x")).json().catch((e: unknown) => e);
    expect(answerTooLargeIn(failure)?.message).toBe("sent an answer of over 1 KiB");
    const { inner: small } = answering(['{"data":[1]}'], "application/json");
    expect(await (await boundedFetch(small, { answerBytes: 1024 })("http://h/x")).json()).toEqual({ data: [1] });
  });

  it("bounds the whole of an event stream read whole: an error status's, and any when told so", async () => {
    const shortEvents = Array.from({ length: 100 }, () => "data: 0123456789\n\n");
    const failed = (async () => new Response(shortEvents.join(""), { status: 500, headers: { "content-type": "text/event-stream" } })) as typeof fetch;
    await expect((await boundedFetch(failed, { answerBytes: 1024 })("http://h/x")).text()).rejects.toThrow("sent an answer of over 1 KiB");
    const { inner } = answering(shortEvents, "text/event-stream");
    await expect((await boundedFetch(inner, { answerBytes: 1024, whole: true })("http://h/x")).text()).rejects.toThrow("sent an answer of over 1 KiB");
  });

  it("keeps the status, headers and URL, and leaves bodiless answers as they are", async () => {
    const withUrl = (async () => {
      const response = new Response("moved", { status: 404, statusText: "Nope", headers: { "x-a": "1" } });
      Object.defineProperty(response, "url", { value: "http://h/final" });
      return response;
    }) as typeof fetch;
    const response = await boundedFetch(withUrl)("http://h/x");
    expect([response.status, response.statusText, response.headers.get("x-a"), response.url, await response.text()]).toEqual([
      404,
      "Nope",
      "1",
      "http://h/final",
      "moved",
    ]);
    const empty = new Response(null, { status: 204 });
    expect(await boundedFetch((async () => empty) as typeof fetch)("http://h/x")).toBe(empty);
  });

  it("finds the error through causes and a retry's last error", () => {
    const bound = new AnswerTooLarge("event", 8);
    expect(answerTooLargeIn(new Error("wrapped", { cause: bound }))).toBe(bound);
    expect(answerTooLargeIn(Object.assign(new Error("retries"), { lastError: new Error("x", { cause: bound }) }))).toBe(bound);
    expect(answerTooLargeIn(new Error("other"))).toBeUndefined();
  });
});
