import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { batchedOutput } from "./batched-stdout.js";

const recorder = () => {
  const writes: Buffer[] = [];
  const out = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      writes.push(Buffer.from(chunk));
      done();
    },
  });
  return { out, writes };
};

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("batchedOutput", () => {
  it("writes text and bytes queued in one event-loop turn as one write, in order", async () => {
    const { out, writes } = recorder();
    const batched = batchedOutput(out);
    void batched.writeText("é one\n");
    void batched.write(Buffer.from("two\n"));
    void batched.writeText("three\n");
    expect(writes).toEqual([]);
    await turn();
    await turn();
    expect(writes.map((w) => w.toString("utf8"))).toEqual(["é one\ntwo\nthree\n"]);
  });

  it("joins text alone without encoding each piece, and writes at once past 64 KiB", async () => {
    const { out, writes } = recorder();
    const batched = batchedOutput(out);
    void batched.writeText("a\n");
    void batched.writeText("b\n");
    await turn();
    await turn();
    void batched.writeText("x".repeat(70 * 1024));
    expect(writes.map((w) => w.length)).toEqual([4, 70 * 1024]);
    expect(writes[0]!.toString()).toBe("a\nb\n");
  });
});
