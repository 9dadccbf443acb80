import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { messageIds } from "./message-ids.js";

const chunk = (sessionUpdate: "agent_message_chunk" | "agent_thought_chunk", text: string): acp.SessionUpdate => ({
  sessionUpdate,
  content: { type: "text", text },
});
const idOf = (update: acp.SessionUpdate) => (update as { messageId?: string }).messageId;

describe("messageIds", () => {
  it("gives consecutive chunks of a kind one id, and a new one after a tool call or a change of kind", () => {
    let n = 0;
    const messages = messageIds(() => `m${++n}`);
    const stamp = messages.stamp;
    const ids = [
      stamp(chunk("agent_thought_chunk", "hm")),
      stamp(chunk("agent_message_chunk", "Let me ")),
      stamp(chunk("agent_message_chunk", "look.")),
      stamp({ sessionUpdate: "tool_call", toolCallId: "call_1", title: "bash: ls" }),
      stamp(chunk("agent_message_chunk", "Done.")),
    ].map(idOf);
    expect(ids).toEqual(["m1", "m2", "m2", undefined, "m3"]);
    messages.end();
    expect(idOf(stamp(chunk("agent_message_chunk", "next")))).toBe("m4");
  });
});
