import type { History, StoredSession } from "@mm/core";
import { describe, expect, it } from "vitest";
import { asciiJson } from "./ascii-json.js";
import { decodeSessionFile, encodeSessionDocument } from "./json-session-document.js";
import { decodeMessage } from "./session-message-decode.js";
import { provenSession } from "./settings-signature.js";
import { journalLines } from "./session-journal.js";

const result = { role: "tool", callId: "call_1", toolName: "fs__read_text_file", status: "completed", output: "hello" };

describe("decodeMessage and a tool result's shown call", () => {
  it("keeps how an MCP call was shown live", () => {
    const shown = { title: "fs: Read Text File", kind: "read", locations: ["/w/notes.txt"] };
    expect(decodeMessage({ ...result, shown }, "messages[2]")).toEqual({ ...result, shown });
  });

  it("drops a shown call that does not check, and loses nothing else", () => {
    for (const shown of [7, { title: 3, kind: "read" }, { title: "t" }]) expect(decodeMessage({ ...result, shown }, "messages[2]")).toEqual(result);
    expect(decodeMessage({ ...result, shown: { title: "t", kind: "read", locations: [1] } }, "messages[2]")).toEqual({
      ...result,
      shown: { title: "t", kind: "read" },
    });
    const relative = { title: "t", kind: "read", locations: ["../../.ssh/id_rsa"] };
    expect(decodeMessage({ ...result, shown: relative }, "messages[2]")).toEqual({ ...result, shown: { title: "t", kind: "read" } });
  });
});

describe("encodeSessionDocument and journalLines, each message encoded once", () => {
  const history: History = [
    { role: "system", text: "You are Bob → ☃" },
    { role: "user", text: 'é "quoted" a\\b\nline 😀' },
    { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "bash", input: { command: "ls é", nested: [1, { a: null }] } }] },
    { role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "x\u2028y", diffs: [{ path: "/w/a", oldText: null, newText: "é" }] },
  ];
  const session: StoredSession = { id: "20260101-000000-0badc0de", cwd: "/w", createdAt: 0, updatedAt: 1, history, title: "t", mode: "edits" };

  it("writes the document and the lines asciiJson writes, the second time from what the first encoded", () => {
    const whole = `${asciiJson({ format: "mm-session", version: 1, id: session.id, cwd: "/w", createdAt: new Date(0).toISOString(), updatedAt: new Date(1).toISOString(), title: "t", mode: "edits", generation: "g", messages: history })}\n`;
    expect(encodeSessionDocument(session, "g")._unsafeUnwrap()).toBe(whole);
    expect(encodeSessionDocument(session, "g")._unsafeUnwrap()).toBe(whole);
    const at = new Date(5).toISOString();
    const lines = journalLines(history.slice(0, 2) as unknown as History, history, 5)?._unsafeUnwrap();
    expect(lines).toBe(`${asciiJson({ at: 2, updatedAt: at, message: history[2] })}\n${asciiJson({ at: 3, updatedAt: at, message: history[3] })}\n`);
    expect(/^[\x00-\x7f]*$/.test(whole + lines)).toBe(true);
    expect(JSON.parse(whole).messages).toEqual(history);
  });

  it("still fails on a message that cannot be serialised", () => {
    const bad: History = [history[0], { role: "assistant", text: "", toolCalls: [{ id: "call_2", name: "bash", input: { n: 1n } }] }];
    expect(encodeSessionDocument({ ...session, history: bad }).isErr()).toBe(true);
    expect(journalLines([history[0]], bad, 5)?.isErr()).toBe(true);
  });
});

describe("a session's mode and model, signed with the user's key", () => {
  const key = new Uint8Array(32).fill(7);
  const history: History = [
    { role: "system", text: "s" },
    { role: "user", text: "hi" },
  ];
  const session: StoredSession = { id: "20260101-000000-0badc0de", cwd: "/w", createdAt: 0, updatedAt: 1, history, model: "big", mode: "all" };
  const reread = (text: string, withKey: Uint8Array | undefined = key) => provenSession(decodeSessionFile(text, session.id)._unsafeUnwrap(), withKey);

  it("keeps a mode and model signed with the key", () => {
    const text = encodeSessionDocument(session, "g", key)._unsafeUnwrap();
    expect(JSON.parse(text).settingsMac).toMatch(/^[0-9a-f]{64}$/);
    expect(reread(text)).toEqual(session);
  });

  it("drops them, naming them, when unsigned, signed with another key, edited, or moved to another session or cwd", () => {
    const signed = encodeSessionDocument(session, "g", key)._unsafeUnwrap();
    const dropped = { id: session.id, cwd: "/w", createdAt: 0, updatedAt: 1, history, unproven: { model: "big", mode: "all" } };
    expect(reread(encodeSessionDocument(session, "g")._unsafeUnwrap())).toEqual(dropped);
    expect(reread(signed, new Uint8Array(32).fill(8))).toEqual(dropped);
    expect(provenSession(decodeSessionFile(signed, session.id)._unsafeUnwrap(), undefined)).toEqual(dropped);
    expect(reread(signed.replace('"mode":"all"', '"mode":"edits"'))).toEqual({ ...dropped, unproven: { model: "big", mode: "edits" } });
    const moved = provenSession(
      decodeSessionFile(signed.replace('"id":"20260101-000000-0badc0de"', '"id":"20260101-000000-0000beef"'), "20260101-000000-0000beef")._unsafeUnwrap(),
      key,
    );
    expect(moved.mode).toBeUndefined();
    expect(provenSession(decodeSessionFile(signed.replace('"cwd":"/w"', '"cwd":"/x"'), session.id)._unsafeUnwrap(), key).mode).toBeUndefined();
    // The file copied whole into another project's sessions dir and loaded there.
    expect(provenSession(decodeSessionFile(signed, session.id)._unsafeUnwrap(), key, "/x").mode).toBeUndefined();
    expect(provenSession(decodeSessionFile(signed, session.id)._unsafeUnwrap(), key, "/w").mode).toBe("all");
  });

  it("signs a reasoning effort too, and still checks a signature made without one", () => {
    const withEffort = { ...session, effort: "high" };
    const text = encodeSessionDocument(withEffort, "g", key)._unsafeUnwrap();
    expect(reread(text)).toEqual(withEffort);
    expect(reread(text.replace('"effort":"high"', '"effort":"low"'))).toEqual({
      id: session.id,
      cwd: "/w",
      createdAt: 0,
      updatedAt: 1,
      history,
      unproven: { model: "big", mode: "all", effort: "low" },
    });
    expect(reread(encodeSessionDocument(session, "g", key)._unsafeUnwrap())).toEqual(session);
  });

  it("needs no signature for ask and no model, and refuses a settingsMac that is not 64 hex digits", () => {
    const plain = { ...session, model: undefined, mode: "ask" as const };
    expect(reread(encodeSessionDocument(plain, "g")._unsafeUnwrap())).toEqual({ ...plain, model: undefined });
    const text = encodeSessionDocument(session, "g", key)
      ._unsafeUnwrap()
      .replace(/"settingsMac":"[0-9a-f]+"/, '"settingsMac":7');
    expect(decodeSessionFile(text, session.id)._unsafeUnwrapErr()).toEqual({ kind: "corrupt", message: "settingsMac: expected 64 hex digits, got 7" });
  });
});

describe("a session's cost", () => {
  const history: History = [{ role: "system", text: "s" }];
  const session: StoredSession = { id: "20260101-000000-0badc0de", cwd: "/w", createdAt: 0, updatedAt: 1, history, cost: 0.0375 };

  it("is kept as a number of US dollars, unsigned", () => {
    const text = encodeSessionDocument(session, "g")._unsafeUnwrap();
    expect(JSON.parse(text).cost).toBe(0.0375);
    expect(provenSession(decodeSessionFile(text, session.id)._unsafeUnwrap(), undefined)).toEqual(session);
  });

  it("refuses a cost that is no number of dollars", () => {
    const text = encodeSessionDocument(session, "g")._unsafeUnwrap();
    for (const bad of ['"0.1"', "-1", "null"]) {
      expect(decodeSessionFile(text.replace('"cost":0.0375', `"cost":${bad}`), session.id)._unsafeUnwrapErr().kind).toBe("corrupt");
    }
  });
});
