import type * as acp from "@agentclientprotocol/sdk";
import { textReply } from "@mm/core/testing";
import { describe, expect, it } from "vitest";
import { inMemoryAcp } from "../../test/in-memory-acp.js";
import { rehearsalPrompt, withRehearsals, type Rehearsals } from "./rehearsal.js";

type Raw = { id?: unknown; method?: string; params?: { sessionId?: unknown }; error?: { code: number; message: string; data?: unknown } };

describe("rehearsals", () => {
  it("run a session/prompt through the SDK to the handler, its answer off the wire; the editor's prompt then works", async () => {
    let rehearsals: Rehearsals | undefined;
    const t = inMemoryAcp({
      replies: [textReply("real answer")],
      wrapStream: (stream) => (rehearsals = withRehearsals(stream, () => "abc123")).stream,
    });
    let answer: Raw | undefined;
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      answer = (await rehearsals!.rehearse("session/prompt", rehearsalPrompt)) as Raw;
      expect(await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("real answer");
    });
    // The params passed the SDK's validation: the handler refused the unknown session.
    expect(answer?.id).toBe("mm-rehearsal-abc123-1");
    expect(JSON.stringify(answer?.error)).toMatch(/unknown session/);
    expect(t.wire.filter((w) => JSON.stringify(w.message).includes("mm-rehearsal"))).toEqual([]);
    expect(t.problems).toEqual([]);
    expect(t.model.requests).toHaveLength(1);
  });

  it("a rehearsal started while the reader waits for the editor is read at once; the editor's message is not lost", async () => {
    const fromEditor: acp.AnyMessage[] = [];
    let deliver: ((message: acp.AnyMessage) => void) | undefined;
    const inner: acp.Stream = {
      readable: {
        getReader: () => ({
          read: () =>
            new Promise((resolve) => {
              deliver = (value) => resolve({ done: false, value });
            }),
          cancel: async () => undefined,
        }),
      } as unknown as ReadableStream<acp.AnyMessage>,
      writable: { getWriter: () => ({ write: async (m: acp.AnyMessage) => void fromEditor.push(m) }) } as unknown as WritableStream<acp.AnyMessage>,
    };
    const seen: unknown[] = [];
    const rehearsals = withRehearsals(inner, () => "t", (message) => seen.push((message as Raw).id));
    const reader = rehearsals.stream.readable.getReader();
    const first = reader.read();
    await new Promise((resolve) => setImmediate(resolve));
    const answered = rehearsals.rehearse("session/prompt", (sessionId) => ({ sessionId }));
    const rehearsal = (await first).value as Raw;
    expect(rehearsal).toMatchObject({ id: "mm-rehearsal-t-1", method: "session/prompt", params: { sessionId: "mm-rehearsal-t" } });
    const second = reader.read();
    deliver!({ jsonrpc: "2.0", id: 7, method: "session/prompt", params: {} } as acp.AnyMessage);
    expect(((await second).value as Raw).id).toBe(7);
    // Only the editor's own messages are seen, the rehearsal's are not.
    expect(seen).toEqual([7]);
    const writer = rehearsals.stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: "mm-rehearsal-t-1", error: { code: -32602, message: "unknown session" } } as acp.AnyMessage);
    await writer.write({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "mm-rehearsal-t", update: {} } } as acp.AnyMessage);
    await writer.write({ jsonrpc: "2.0", id: 7, result: {} } as acp.AnyMessage);
    expect(((await answered) as Raw).error?.message).toBe("unknown session");
    expect(fromEditor).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
  });
});
