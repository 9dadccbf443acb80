import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { nodeByteSource } from "./stdin-source.js";

const bytes = (text: string): Buffer => Buffer.from(text);

describe("nodeByteSource", () => {
  it("gives the chunks in order, then done once the input ended", async () => {
    const input = new PassThrough();
    const source = nodeByteSource(input);
    input.write(bytes("a"));
    input.write(bytes("b"));
    input.end();
    const read: string[] = [];
    for (let chunk = await source.read(); !chunk.done; chunk = await source.read()) read.push(Buffer.from(chunk.value!).toString());
    expect(read.join("")).toBe("ab");
    expect(await source.read()).toEqual({ done: true });
  });

  it("waits for data that has not arrived yet", async () => {
    const input = new PassThrough();
    const source = nodeByteSource(input);
    const pending = source.read();
    setTimeout(() => input.write(bytes("late")), 5);
    expect(Buffer.from((await pending).value!).toString()).toBe("late");
  });

  it("pauses the input while too many chunks wait, and resumes as they are read", async () => {
    const input = new PassThrough();
    const source = nodeByteSource(input);
    for (let i = 0; i < 20; i++) input.write(bytes(`${i},`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    let text = "";
    while (text.split(",").length <= 20) text += Buffer.from((await source.read()).value!).toString();
    expect(input.isPaused()).toBe(false);
    expect(text).toBe(Array.from({ length: 20 }, (_, i) => `${i},`).join(""));
  });

  it("rejects a read when the input failed, and destroys it when cancelled", async () => {
    const failing = new PassThrough();
    const source = nodeByteSource(failing);
    failing.destroy(new Error("broken pipe"));
    await expect(source.read()).rejects.toThrow("broken pipe");
    const input = new PassThrough();
    const cancelled = nodeByteSource(input);
    await cancelled.cancel();
    expect(input.destroyed).toBe(true);
    expect(await cancelled.read()).toEqual({ done: true });
  });
});
