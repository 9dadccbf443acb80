/** The in-memory SessionStore against the SessionStore contract, and what it adds for tests. */
import { describe, expect, it } from "vitest";
import { systemMessage, userMessage } from "../history/message.js";
import { inMemorySessionStore, type InMemorySessionStore } from "./in-memory-session-store.js";
import { sessionStoreContract, type StoreWorld } from "./session-store-contract.js";

const world = (): StoreWorld => {
  const first = inMemorySessionStore();
  const processes = new Map<string, InMemorySessionStore>();
  const process = (name: string): InMemorySessionStore => {
    const known = processes.get(name);
    if (known !== undefined) return known;
    const made = processes.size === 0 ? first : first.otherProcess();
    processes.set(name, made);
    return made;
  };
  return { cwd: "/w", process, kill: (name) => process(name).die() };
};

describe("inMemorySessionStore: the SessionStore contract", () => {
  it.each(sessionStoreContract.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    await c.run(world());
  });
});

describe("inMemorySessionStore: for tests", () => {
  const ID = "20260916-101530-4f2a9c1e";
  const session = (history: Parameters<InMemorySessionStore["save"]>[0]["history"]) => ({ id: ID, cwd: "/w", createdAt: 1, updatedAt: 2, history });

  it("records whether each save appended, rewrote or had nothing to write", async () => {
    const store = inMemorySessionStore();
    await store.save(session([systemMessage("s")]));
    await store.save(session([systemMessage("s"), userMessage("a")]));
    await store.save(session([systemMessage("s"), userMessage("a")]));
    await store.save(session([systemMessage("t")]));
    expect(store.writes).toEqual(["rewrite", "append", "none", "rewrite"]);
  });

  it("fails writes while the disk is broken, keeping what was saved before", async () => {
    const store = inMemorySessionStore();
    await store.save(session([systemMessage("s")]));
    store.failWrites("ENOSPC: no space left on device");
    expect((await store.save(session([systemMessage("s"), userMessage("a")])))._unsafeUnwrapErr()).toEqual({
      kind: "io",
      id: ID,
      message: "ENOSPC: no space left on device",
    });
    expect((await store.load("/w", ID))._unsafeUnwrap().history).toEqual([systemMessage("s")]);
    store.failWrites(undefined);
    expect((await store.save(session([systemMessage("s"), userMessage("a")]))).isOk()).toBe(true);
    expect((await store.load("/w", ID))._unsafeUnwrap().history).toHaveLength(2);
  });
});
