import { describe, expect, it } from "vitest";
import { createTurnQueue, createTurnQueues } from "./turn-queue.js";

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

describe("turn queues", () => {
  const never = new AbortController().signal;

  it("runs jobs of different keys at once and those of one key in order", async () => {
    const queues = createTurnQueues(true);
    const log: string[] = [];
    const gate = deferred();
    const a1 = queues.run(
      "a",
      never,
      async () => {
        log.push("a1 start");
        await gate.promise;
        log.push("a1 end");
      },
      () => undefined,
    );
    const a2 = queues.run(
      "a",
      never,
      async () => void log.push("a2"),
      () => undefined,
    );
    const b = queues.run(
      "b",
      never,
      async () => void log.push("b"),
      () => undefined,
    );
    await b;
    expect(log).toEqual(["a1 start", "b"]);
    const idleA = queues.idle("a");
    let idle = false;
    void idleA.then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    gate.resolve();
    await Promise.all([a1, a2, idleA, queues.idle()]);
    expect(log).toEqual(["a1 start", "b", "a1 end", "a2"]);
  });

  it("keeps one queue for every key without perKey", async () => {
    const queues = createTurnQueues(false);
    const log: string[] = [];
    const gate = deferred();
    const a = queues.run(
      "a",
      never,
      async () => {
        log.push("a start");
        await gate.promise;
        log.push("a end");
      },
      () => undefined,
    );
    const b = queues.run(
      "b",
      never,
      async () => void log.push("b"),
      () => undefined,
    );
    await Promise.resolve();
    expect(log).toEqual(["a start"]);
    gate.resolve();
    await Promise.all([a, b]);
    expect(log).toEqual(["a start", "a end", "b"]);
  });

  it("answers a job cancelled while it waits behind its key's running one, and idles at once when nothing ran", async () => {
    const queues = createTurnQueues(true);
    await queues.idle("nobody");
    await queues.idle();
    const gate = deferred();
    const running = queues.run(
      "a",
      never,
      () => gate.promise.then(() => "ran"),
      () => "cancelled",
    );
    const controller = new AbortController();
    const waiting = queues.run(
      "a",
      controller.signal,
      async () => "ran",
      () => "cancelled",
    );
    controller.abort();
    expect(await waiting).toBe("cancelled");
    gate.resolve();
    expect(await running).toBe("ran");
  });
});
