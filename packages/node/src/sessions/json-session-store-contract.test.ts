/** The JSON SessionStore against the SessionStore contract, each "process" a store with its own lock owner. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, it } from "vitest";
import type { SessionStore } from "@mm/core";
import { sessionStoreContract, type StoreWorld } from "@mm/core/testing";
import { jsonSessionStore } from "./json-session-store.js";
import type { LockOwner } from "./process-identity.js";

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Processes named by the test, posing as pids 4001, 4002… of one machine; killed ones are dead to everyone. */
const world = async (): Promise<StoreWorld> => {
  const cwd = await mkdtemp(join(tmpdir(), "mm-contract-"));
  made.push(cwd);
  const killed = new Set<number>();
  const stores = new Map<string, SessionStore>();
  const owners = new Map<string, LockOwner>();
  const ownerOf = (name: string): LockOwner => {
    const known = owners.get(name);
    if (known !== undefined) return known;
    const owner = { pid: 4001 + owners.size, started: "1", boot: "test-boot", host: "test-host" };
    owners.set(name, owner);
    return owner;
  };
  const process = (name: string): SessionStore => {
    const known = stores.get(name);
    if (known !== undefined) return known;
    const store = jsonSessionStore({ dir: ".mm/sessions", owner: ownerOf(name), alive: (owner) => !killed.has(owner.pid) });
    stores.set(name, store);
    return store;
  };
  return { cwd, process, kill: (name) => void killed.add(ownerOf(name).pid) };
};

describe("jsonSessionStore: the SessionStore contract", () => {
  it.each(sessionStoreContract.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    await c.run(await world());
  });
});
