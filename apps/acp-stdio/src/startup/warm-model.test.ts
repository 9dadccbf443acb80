import { describe, expect, it } from "vitest";
import { warmAfterFirstSession } from "./warm-model.js";

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("warmAfterFirstSession", () => {
  it("loads once, after the first response naming a session, not before", async () => {
    let loads = 0;
    const watch = warmAfterFirstSession(async () => void loads++);
    watch({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } });
    watch({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: {} } } as never);
    await turn();
    expect(loads).toBe(0);
    watch({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } });
    watch({ jsonrpc: "2.0", id: 2, result: { sessionId: "t" } });
    expect(loads).toBe(0);
    await turn();
    expect(loads).toBe(1);
  });

  it("swallows a failed load", async () => {
    const watch = warmAfterFirstSession(() => Promise.reject(new Error("no provider")));
    watch({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } });
    await turn();
    await turn();
  });
});
