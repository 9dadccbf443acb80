import { describe, expect, it } from "vitest";
import { assistantMessage, systemMessage, type History } from "../history/message.js";
import { createCallIds } from "./call-ids.js";

describe("call ids", () => {
  it("count up across sessions and jump past a loaded history", () => {
    const ids = createCallIds();
    expect([ids.next(), ids.next()]).toEqual(["call_1", "call_2"]);
    const loaded: History = [systemMessage("s"), assistantMessage("", [{ id: "call_41", name: "bash", input: {} }])];
    ids.bumpPast(loaded);
    expect(ids.next()).toBe("call_42");
    ids.bumpPast([systemMessage("s")]);
    expect(ids.next()).toBe("call_43");
  });
});
