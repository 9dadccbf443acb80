import { describe, expect, it } from "vitest";
import { parseScript } from "./script-file.js";

describe("a --script file", () => {
  it("turns text and tool-call steps into replies, in order", () => {
    const parsed = parseScript(JSON.stringify([{ text: "Let me look.", calls: [{ name: "bash", arguments: { command: "ls" } }] }, { text: "Done here." }]));
    expect(parsed).toEqual({
      replies: [
        { kind: "tool-calls", calls: [{ name: "bash", arguments: { command: "ls" } }], text: "Let me look." },
        { kind: "text", chunks: ["Done ", "here."] },
      ],
    });
  });

  it("paces a text step when it says so", () => {
    expect(parseScript('[{"text": "a b", "delayMs": 50}]')).toEqual({ replies: [{ kind: "text", chunks: ["a ", "b"], delayMs: 50 }] });
  });

  it("names what is wrong with a bad script in one line", () => {
    expect(parseScript("{")).toMatchObject({ problem: expect.stringMatching(/^not JSON/) });
    expect(parseScript("{}")).toEqual({ problem: "a script is a JSON array of steps" });
    expect(parseScript("[{}]")).toEqual({ problem: 'step 1 has neither "text" nor "calls"' });
    expect(parseScript('[{"calls": [{"name": 3}]}]')).toEqual({ problem: 'step 1: each call needs a "name" string and an "arguments" object' });
    expect(parseScript('[{"calls": []}]')).toEqual({ problem: 'step 1: "calls" must be a non-empty array' });
    expect(parseScript('[{"text": "a", "delayMs": -1}]')).toEqual({ problem: 'step 1: "delayMs" must be a number of milliseconds, 0 to 10000' });
  });
});
