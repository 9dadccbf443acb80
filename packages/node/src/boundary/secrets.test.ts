import { describe, expect, it } from "vitest";
import { systemMessage, type StoredSession } from "@mm/core";
import { envSecrets, headerSecrets, REDACTED, redactingStream, secretSet, sessionRedactor, urlSecrets } from "./secrets.js";

describe("secretSet", () => {
  it("replaces every secret of 8 characters or more, the longest first; shorter ones are not secrets", () => {
    const secrets = secretSet(["sk-abcdefgh", "sk-abcdefgh-longer", "short", undefined]);
    expect(secrets.size()).toBe(2);
    expect(secrets.redact("a sk-abcdefgh-longer b sk-abcdefgh c short")).toBe(`a ${REDACTED} b ${REDACTED} c short`);
    const text = "nothing here";
    expect(secrets.redact(text)).toBe(text);
  });

  it("learns secrets later (an editor's MCP servers), and finds them in bytes", () => {
    const secrets = secretSet();
    expect(secrets.heldIn(Buffer.from("token=ghp_0123456789"))).toBe(false);
    secrets.add(["ghp_0123456789"]);
    expect(secrets.heldIn(Buffer.from("token=ghp_0123456789"))).toBe(true);
    expect(secrets.redact("token=ghp_0123456789")).toBe(`token=${REDACTED}`);
  });
});

describe("what an MCP server's settings hold", () => {
  it("takes header values whole and word by word, URL passwords, and environment values that are not mm's own nor paths", () => {
    expect(headerSecrets("Bearer tok-0123456789")).toEqual(["Bearer tok-0123456789", "Bearer", "tok-0123456789"]);
    expect(urlSecrets("https://me:p%40ss-word@host/x")).toEqual(["p%40ss-word", "p@ss-word", "me", "me"]);
    expect(urlSecrets("https://sk-token-as-user@host/x")).toEqual(["sk-token-as-user", "sk-token-as-user"]);
    expect(urlSecrets("not a url")).toEqual([]);
    expect(envSecrets({ TOKEN: "abcdefgh123", PATH: "/usr/bin", HOME: "/home/me", LANG: "C.UTF-8" }, { LANG: "C.UTF-8" })).toEqual(["abcdefgh123"]);
  });
});

describe("sessionRedactor", () => {
  const session = (text: string): StoredSession => ({
    id: "20260101-000000-00000000",
    cwd: "/w",
    createdAt: 0,
    updatedAt: 0,
    history: [systemMessage("system"), { role: "user", text }],
  });

  it("replaces secrets in the messages, keeping the same objects where there are none", () => {
    const secrets = secretSet(["sk-secret-value"]);
    const redact = sessionRedactor(secrets);
    const clean = session("hello");
    expect(redact(clean)).toBe(clean);
    const dirty = session("my key is sk-secret-value");
    const out = redact(dirty);
    expect(out.history[1]).toEqual({ role: "user", text: `my key is ${REDACTED}` });
    expect(out.history[0]).toBe(dirty.history[0]);
    // A secret learnt later is replaced in messages seen before.
    const later = session("token ghp_later_token");
    expect(redact(later)).toBe(later);
    secrets.add(["ghp_later_token"]);
    expect(redact(later).history[1]).toEqual({ role: "user", text: `token ${REDACTED}` });
  });
});

describe("a secret as a JSON file holds it", () => {
  it("is replaced escaped too: a quote, a backslash", () => {
    const odd = 'sk-odd"quote\\slash-1';
    const secrets = secretSet([odd]);
    expect(secrets.redact(JSON.stringify({ key: odd }))).toBe(`{"key":"${REDACTED}"}`);
    expect(secrets.redact(`raw ${odd}`)).toBe(`raw ${REDACTED}`);
  });
});

describe("redactingStream", () => {
  const secrets = secretSet(["sk-stream-secret-123456"]);
  const run = (chunks: readonly string[]): string[] => {
    const out: string[] = [];
    const stream = redactingStream(secrets.redact, (text) => out.push(text));
    for (const chunk of chunks) stream.write(chunk);
    stream.flush();
    return out;
  };
  it("replaces a secret cut across chunks, at any cut", () => {
    const whole = "before sk-stream-secret-123456 after";
    for (let cut = 1; cut < whole.length; cut++) expect(run([whole.slice(0, cut), whole.slice(cut)]).join("")).toBe(`before ${REDACTED} after`);
  });
  it("holds back only an end that could start a secret, and hands it on at the end", () => {
    expect(run(["plain line\n"])).toEqual(["plain line\n"]);
    expect(run(["ends with sk-str"])).toEqual(["ends with ", "sk-str"]);
    expect(run(["a sk-", "x"])).toEqual(["a ", "sk-x"]);
  });
  it("is linear in a big output: 4 MiB with five secrets in 64 KiB chunks", () => {
    const five = secretSet(["sk-one-0123456789", "sk-two-0123456789", "token-three-abcdef", "four-4444-4444-4444", "fifth-secret-value-5"]);
    const chunk = `${"x".repeat(1000)}sk-one-0123456789 four-4444-4444-4444\n`.repeat(64 * 2);
    const big = chunk.repeat(Math.ceil((4 * 1024 * 1024) / chunk.length));
    let seen = 0;
    const stream = redactingStream(five.redact, (text) => {
      seen += text.length;
      expect(text).not.toContain("sk-one-0123456789");
    });
    for (let at = 0; at < big.length; at += 65536) stream.write(big.slice(at, at + 65536));
    stream.flush();
    expect(seen).toBeGreaterThan(0);
  });
});
