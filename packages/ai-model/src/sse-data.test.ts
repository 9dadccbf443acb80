import { describe, expect, it } from "vitest";
import { sseData } from "./sse-data.js";

const bytes = (text: string): Uint8Array => Buffer.from(text, "utf8");
const all = (...chunks: (string | Uint8Array)[]): string[] => {
  const sse = sseData();
  return chunks.flatMap((chunk) => sse.push(typeof chunk === "string" ? bytes(chunk) : chunk));
};

describe("sseData", () => {
  it("gives each event's data, one leading space dropped, a blank line ending it", () => {
    expect(all('data: {"a":1}\n\ndata:{"b":2}\n\ndata:  two spaces\n\n')).toEqual(['{"a":1}', '{"b":2}', " two spaces"]);
  });

  it("joins an event's data lines with LF and skips other fields and comments", () => {
    expect(all(": keep-alive\nevent: message\nid: 7\nretry: 10\ndata: one\ndata: two\nfoo: bar\n\n")).toEqual(["one\ntwo"]);
  });

  it("dispatches nothing for an event without data, and an empty data field as empty data", () => {
    expect(all("event: ping\n\ndata\n\ndata:\n\n")).toEqual(["", ""]);
  });

  it("ends lines at CRLF, CR or LF, a CRLF split across chunks included", () => {
    expect(all("data: a\r\n\r\ndata: b\r\rdata: c\r", "\n\r", "\n")).toEqual(["a", "b", "c"]);
  });

  it("reads frames split anywhere, a multi-byte character included", () => {
    const text = 'data: {"t":"é→🎉"}\n\n';
    const raw = bytes(text);
    for (let cut = 1; cut < raw.length; cut++) expect(all(raw.subarray(0, cut), raw.subarray(cut))).toEqual(['{"t":"é→🎉"}']);
  });

  it("drops a BOM at the start and leaves an event unfinished at the end undispatched", () => {
    expect(all("\uFEFFdata: first\n\ndata: never dispatched\n")).toEqual(["first"]);
  });

  it("keeps the field name case-sensitive", () => {
    expect(all("Data: no\n\ndata: yes\n\n")).toEqual(["yes"]);
  });
});

describe("sseData on long lines", () => {
  const all = (chunks: readonly string[]): string[] => {
    const reader = sseData();
    return chunks.flatMap((chunk) => reader.push(Buffer.from(chunk)));
  };

  it("reads an event of one long line split into many chunks whole, and one after it", () => {
    const big = "é".repeat(200_000);
    const stream = `data: ${big}\n\ndata: next\n\n`;
    const chunks: string[] = [];
    for (let i = 0; i < stream.length; i += 4096) chunks.push(stream.slice(i, i + 4096));
    expect(all(chunks)).toEqual([big, "next"]);
  });

  it("a CR ending a chunk, then chunks with no line end: the CR still ends its line", () => {
    expect(all(["data: a\r", "\r", "data: b", "c", "\r\n\r\n"])).toEqual(["a", "bc"]);
    expect(all(["data: a\r", "data: b\r", "\r"])).toEqual([]);
    expect(all(["data: a\r\r", "data: b", "cd", "\n", "\n"])).toEqual(["a", "bcd"]);
  });
});
