/**
 * The per-message journal write, measured in the benchmark process: a JSON session store holding the
 * 10 MB session (loaded from disk) saves it with one more ~2 kB message, 200 times; the floor is a
 * `write` + `fdatasync` of the same bytes to a plain file. Each message is the model's, asking for a
 * tool call: the store flushes such an append before the save returns (the call runs next), so the
 * figure holds the `fdatasync` as its floor does (a tool result's flush overlaps the next request).
 * Then the fold that follows every turn (the journal written into the document, whole), 5 times.
 */
import { closeSync, fdatasyncSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { History, Message, StoredSession } from "@mm/core";
import { encodeSessionDocument, jsonSessionStore } from "@mm/node";
import { now } from "../lib/stats.js";

const SAVES = 200;
const FOLDS = 5;

const p90 = (samples: readonly number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.9)] ?? Number.NaN;

export const journalAppends = async (root: string, stored: StoredSession, generation: string) => {
  rmSync(root, { recursive: true, force: true });
  const cwd = join(root, "project");
  const dir = join(cwd, ".mm/sessions");
  mkdirSync(dir, { recursive: true });
  const session = { ...stored, cwd };
  writeFileSync(join(dir, `${session.id}.json`), encodeSessionDocument(session, generation)._unsafeUnwrap());
  const store = jsonSessionStore({ dir: ".mm/sessions" });
  const loaded = (await store.load(cwd, session.id))._unsafeUnwrap();
  let history: History = loaded.history;
  const save: number[] = [];
  const floor: number[] = [];
  const fold: number[] = [];
  const floorFd = openSync(join(root, "floor"), "a");
  try {
    for (let i = 0; i < SAVES; i++) {
      const message: Message = {
        role: "assistant",
        text: `${"thinking line\n".repeat(150)}`,
        toolCalls: [{ id: `call_${i}`, name: "bash", input: { command: "ls" } }],
      };
      history = [...history, message];
      const t0 = now();
      const saved = await store.save({ ...loaded, updatedAt: Date.now(), history });
      save.push(now() - t0);
      if (saved.isErr()) throw new Error(`append failed: ${JSON.stringify(saved.error)}`);
      const bytes = Buffer.from(`${JSON.stringify({ at: history.length - 1, updatedAt: new Date().toISOString(), message })}\n`);
      const t1 = now();
      writeSync(floorFd, bytes);
      fdatasyncSync(floorFd);
      floor.push(now() - t1);
    }
    // The fold after a turn (issue 28): the journal of the saves above written into the document.
    for (let i = 0; i < FOLDS; i++) {
      history = [...history, { role: "assistant", text: "one more", toolCalls: [] }];
      (await store.save({ ...loaded, updatedAt: Date.now(), history }))._unsafeUnwrap();
      const t0 = now();
      (await store.fold!(cwd, session.id))._unsafeUnwrap();
      fold.push(now() - t0);
    }
  } finally {
    closeSync(floorFd);
    await store.release(cwd, session.id);
    rmSync(root, { recursive: true, force: true });
  }
  return { save, floor, fold, p90: p90(save), floorP90: p90(floor) };
};
