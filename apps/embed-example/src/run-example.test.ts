import { describe, expect, it } from "vitest";
import { runExample } from "./run-example.js";

describe("the embedding example", () => {
  it("drives a turn that edits a file through the core alone", async () => {
    const run = await runExample();
    expect(run.stopReason).toBe("end_turn");
    expect(run.file).toBe("Hello, Bob\n");
    expect(run.transcript).toContain("[edit_file: greeting.txt → completed]");
  });
});
