import type { History, StoredSession } from "@mm/core";
import { describe, expect, it } from "vitest";
import { asciiJson } from "./ascii-json.js";
import { decodeMessage, encodeSessionDocument } from "./json-session-document.js";
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
