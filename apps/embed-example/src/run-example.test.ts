import { describe, expect, it } from "vitest";
import { errorReply } from "@mm/core/testing";
import { runExample } from "./run-example.js";

describe("the embedding example", () => {
  it("drives a turn that edits a file through the core alone", async () => {
    const run = await runExample();
    expect(run.stopReason).toBe("end_turn");
    expect(run.file).toBe("Hello, Bob\n");
    expect(run.transcript).toContain("[edit_file: greeting.txt → completed: edited /project/greeting.txt]");
    expect(run.failure).toBeUndefined();
  });

  it("says why a turn failed: a failed turn is an Ok result whose reason is in error", async () => {
    const run = await runExample([errorReply({ kind: "network", message: "cannot reach the model server at http://127.0.0.1:9/v1: connection refused" })]);
    expect(run.stopReason).toBe("failed");
    expect(run.failure).toContain("cannot reach the model server at http://127.0.0.1:9/v1: connection refused");
  });

  it("offers its own tool to the model, asks the user, and runs it", async () => {
    const run = await runExample();
    const offered = run.requests[0]!.tools.map((t) => t.name);
    expect(offered).toEqual(["bash", "read_file", "write_file", "edit_file", "read_skill", "word_count"]);
    expect(run.requests[0]!.system).toContain("- word_count: count the words of a text file.");
    expect(run.asked).toEqual(["edit_file: greeting.txt", "word_count: greeting.txt"]);
    expect(run.transcript).toContain("[word_count: greeting.txt → completed: 2 word(s)]");
    expect(run.requests[2]!.messages.at(-1)).toMatchObject({ role: "tool", toolName: "word_count", output: "2 word(s)" });
  });
});
