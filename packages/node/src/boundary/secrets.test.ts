import { describe, expect, it } from "vitest";
import { systemMessage, type StoredSession } from "@mm/core";
import { envSecrets, headerSecrets, REDACTED, secretSet, sessionRedactor, urlSecrets } from "./secrets.js";

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
    expect(urlSecrets("https://me:p%40ss-word@host/x")).toEqual(["p@ss-word", "p%40ss-word"]);
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
