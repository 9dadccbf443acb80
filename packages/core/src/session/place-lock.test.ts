import { describe, expect, it } from "vitest";
import { createPlaceLock, placesOverlap } from "./place-lock.js";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("place lock", () => {
  it("says places overlap when equal or nested, not when they only share a prefix", () => {
    expect(placesOverlap(["/p"], ["/p"])).toBe(true);
    expect(placesOverlap(["/p"], ["/p/sub"])).toBe(true);
    expect(placesOverlap(["/p/sub/"], ["/p"])).toBe(true);
    expect(placesOverlap(["/p"], ["/pq"])).toBe(false);
    expect(placesOverlap(["/a", "/b"], ["/c", "/b/x"])).toBe(true);
  });

  it("runs holders of one place one after the other, in order, and disjoint places at once", async () => {
    const lock = createPlaceLock();
    const log: string[] = [];
    const gate = deferred();
    const a = lock.hold(["/p"], async () => {
      log.push("a start");
      await gate.promise;
      log.push("a end");
    });
    const b = lock.hold(["/p/sub"], async () => void log.push("b"));
    const c = lock.hold(["/q"], async () => void log.push("c"));
    await c;
    expect(log).toEqual(["a start", "c"]);
    gate.resolve();
    await Promise.all([a, b]);
    expect(log).toEqual(["a start", "c", "a end", "b"]);
  });

  it("lets the next holder in when a job throws", async () => {
    const lock = createPlaceLock();
    await expect(lock.hold(["/p"], async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.hold(["/p"], async () => "next")).toBe("next");
  });
});
