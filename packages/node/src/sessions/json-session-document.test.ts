import { describe, expect, it } from "vitest";
import { decodeMessage } from "./json-session-document.js";

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
