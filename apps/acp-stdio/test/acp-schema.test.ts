/** The schema check itself must be able to fail. */
import { describe, expect, it } from "vitest";
import { schemaProblems } from "./acp-schema.js";

describe("schemaProblems", () => {
  it("accepts a valid update and flags invalid ones", () => {
    const none = new Map();
    const ok = { method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } } };
    expect(schemaProblems(ok, none)).toEqual([]);
    const badKind = {
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "c", title: "t", kind: "shell" } },
    };
    expect(schemaProblems(badKind, none)).toHaveLength(1);
    const badResponse = { id: 1, result: { protocolVersion: "one" } };
    expect(schemaProblems(badResponse, new Map([[1, "initialize"]]))).toHaveLength(1);
    expect(schemaProblems({ method: "made/up" }, none)).toHaveLength(1);
  });
});
