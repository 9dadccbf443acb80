import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodedBodyFetch } from "./encoded-body-fetch.js";

type Received = { readonly headers: IncomingHttpHeaders; readonly body: Buffer };

let url = "";
const received: Received[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.end("ok");
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = async (fetcher: typeof fetch, body: string): Promise<Received> => {
  const response = await fetcher(url, { method: "POST", headers: { "content-type": "application/json", "x-mine": "1" }, body });
  expect(await response.text()).toBe("ok");
  return received[received.length - 1]!;
};

describe("encodedBodyFetch", () => {
  it("sends the bytes and headers the global fetch sends for the same string body", async () => {
    const body = JSON.stringify({ text: "é → \u{1F600} \"quoted\"\n".repeat(1000) });
    const mine = await send(encodedBodyFetch, body);
    const plain = await send(fetch, body);
    expect(mine.body.equals(plain.body)).toBe(true);
    expect(mine.body.toString("utf8")).toBe(body);
    const headers = (r: Received) => ({ type: r.headers["content-type"], length: r.headers["content-length"], mine: r.headers["x-mine"] });
    expect(headers(mine)).toEqual(headers(plain));
    expect(headers(mine).length).toBe(String(Buffer.byteLength(body)));
  });

  it("leaves other bodies and bodiless requests alone", async () => {
    const response = await encodedBodyFetch(url);
    expect(await response.text()).toBe("ok");
    expect(received[received.length - 1]!.body.length).toBe(0);
  });
});
