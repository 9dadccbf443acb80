import { describe, expect, it } from "vitest";
import { createTurnQueue } from "./turn-queue.js";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("turn queue", () => {
  it("runs jobs one at a time, first in first out", async () => {
    const queue = createTurnQueue();
    const log: string[] = [];
    const gate = deferred();
    const a = queue.run(
      new AbortController().signal,
      async () => {
        log.push("a start");
        await gate.promise;
        log.push("a end");
        return "a";
      },
      () => "a cancelled",
    );
    const b = queue.run(
      new AbortController().signal,
      async () => {
        log.push("b");
        return "b";
      },
      () => "b cancelled",
    );
    await Promise.resolve();
    expect(log).toEqual(["a start"]);
    gate.resolve();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(log).toEqual(["a start", "a end", "b"]);
  });

  it("answers a queued job cancelled at once, never runs it, and keeps later ones waiting for the running one", async () => {
    const queue = createTurnQueue();
    const gate = deferred();
    const log: string[] = [];
    const a = queue.run(
      new AbortController().signal,
      async () => {
        await gate.promise;
        log.push("a");
        return "a";
      },
      () => "x",
    );
    const cancel = new AbortController();
    const b = queue.run(
      cancel.signal,
      async () => {
        log.push("b");
        return "b";
      },
      () => "b cancelled",
    );
    const c = queue.run(
      new AbortController().signal,
      async () => {
        log.push("c");
        return "c";
      },
      () => "x",
    );
    cancel.abort();
    expect(await b).toBe("b cancelled");
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual([]);
    gate.resolve();
    expect(await Promise.all([a, c])).toEqual(["a", "c"]);
    expect(log).toEqual(["a", "c"]);
  });

  it("goes on after a job that throws", async () => {
    const queue = createTurnQueue();
    const a = queue.run(
      new AbortController().signal,
      async () => {
        throw new Error("boom");
      },
      () => "x",
    );
    const b = queue.run(
      new AbortController().signal,
      async () => "b",
      () => "x",
    );
    await expect(a).rejects.toThrow("boom");
    expect(await b).toBe("b");
  });
});
