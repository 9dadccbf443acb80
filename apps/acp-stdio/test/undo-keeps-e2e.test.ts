/**
 * `/undo` removes only what the turn provably made (issue 37), through the built binary on the full
 * surface. In git, a turn whose command rewrites `.gitignore`: the files it stops ignoring (`.env`,
 * `local.db`) were there all along; on the old code they looked made by the turn and `/undo` deleted
 * them. Outside git, `mv data.csv archive.csv` of a file over 256 KiB: `data.csv` cannot be brought
 * back, and on the old code `/undo` removed `archive.csv`, the only copy. Now both stay, the chunk
 * names them, and every other file is byte for byte as before the turn.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs } from "./faults/helpers.js";
import { NOT_UNDONE, startUndoCase, turnThenUndo } from "./undo-session.js";

let server: FakeOpenAI;
let cwd: string;
let config: string;
let state: string;

beforeEach(async () => {
  ({ server, cwd, state, config } = await startUndoCase("undo-keeps"));
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

const git = (...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });

/** `tree` without `paths`. */
const without = (tree: Record<string, string>, ...paths: string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(tree).filter(([path]) => !paths.includes(path)));

describe("/undo removes only what the turn provably made", () => {
  /** A repository ignoring `.env` and `local.db`, both there (and old enough to tell from files a call touches). */
  const ignoringRepo = async (): Promise<void> => {
    writeFileSync(join(cwd, ".gitignore"), ".env\nlocal.db\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    writeFileSync(join(cwd, ".env"), "TOKEN=mine\n");
    writeFileSync(join(cwd, "local.db"), Buffer.from([0, 1, 2, 3, 255]));
    const old = (): boolean => [".env", "local.db"].every((name) => statSync(join(cwd, name)).ctimeMs < Date.now() - 300);
    while (!old()) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it("in git, leaves the files a rewritten .gitignore stops ignoring (.env, local.db), which the turn never touched, and removes what it made", async () => {
    await ignoringRepo();
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo({ server, cwd, state, config }, [
      "printf 'build/\\n' > .gitignore",
      "echo b > a.txt && echo new > made.txt",
    ]);
    expect(afterTurn[".gitignore"]).not.toBe(before[".gitignore"]);
    expect(afterTurn["made.txt"]).toBeDefined();
    expect(afterUndo).toEqual(before);
    expect(readFileSync(join(cwd, ".env"), "utf8")).toBe("TOKEN=mine\n");
    expect(readFileSync(join(cwd, "local.db"))).toEqual(Buffer.from([0, 1, 2, 3, 255]));
    expect(chunk).toBe(`↩ undid the last turn: 2 file(s) restored, 1 removed, history back to 0 message(s).\n${NOT_UNDONE}`);
    expect(agent.problems).toEqual([]);
  });

  it("in git, names a file first seen that the same command touched, leaves it, and keeps what the turn made", async () => {
    await ignoringRepo();
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo({ server, cwd, state, config }, [
      "printf 'build/\\n' > .gitignore && printf more >> local.db",
      "echo new > made.txt",
    ]);
    // Byte for byte as before the turn, but what /undo cannot take back (local.db) and what the turn made (kept).
    expect(without(afterUndo, "made.txt", "local.db")).toEqual(without(before, "local.db"));
    expect(afterUndo["local.db"]).toBe(afterTurn["local.db"]);
    expect(afterUndo["made.txt"]).toBe(afterTurn["made.txt"]);
    expect(readFileSync(join(cwd, ".env"), "utf8")).toBe("TOKEN=mine\n");
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(
      `Not restorable (left as they are):\n- ${join(cwd, "local.db")}: its content before the turn was not kept (file seen for the first time`,
    );
    expect(chunk).not.toContain(join(cwd, ".env"));
    expect(chunk).toContain(`Kept (they may hold what the files not restorable held):\n- ${join(cwd, "made.txt")}: made by the turn, not removed`);
    expect(agent.problems).toEqual([]);
  });

  it("in git, keeps the new name of an ignored file the turn renamed (mv local.db backup.sqlite): its only copy", async () => {
    await ignoringRepo();
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo({ server, cwd, state, config }, ["echo b > a.txt && mv local.db backup.sqlite"]);
    expect(Object.keys(afterTurn)).toContain("backup.sqlite");
    // Everything as before the turn but the rename /undo cannot take back: the only copy stays.
    expect(afterUndo).toEqual({ ...without(before, "local.db"), "backup.sqlite": before["local.db"] });
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(
      `Not restorable (left as they are):\n- ${join(cwd, "local.db")}: its content before the turn was not kept (file deleted, not shown: git ignores it`,
    );
    expect(chunk).toContain(`Kept (they may hold what the files not restorable held):\n- ${join(cwd, "backup.sqlite")}: made by the turn, not removed`);
    expect(agent.problems).toEqual([]);
  });

  it("outside git, keeps archive.csv after `mv data.csv archive.csv` of a file too big to keep, and puts back what it can", async () => {
    const big = Buffer.alloc(300 * 1024, "data,1\n");
    writeFileSync(join(cwd, "data.csv"), big);
    writeFileSync(join(cwd, "notes.txt"), "notes\n");
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo({ server, cwd, state, config }, [
      "echo changed > notes.txt && mv data.csv archive.csv",
    ]);
    expect(Object.keys(afterTurn).sort()).toEqual(["archive.csv", "notes.txt"]);
    // Everything as before the turn but the rename /undo cannot take back: the only copy stays.
    expect(afterUndo).toEqual({ ...without(before, "data.csv"), "archive.csv": before["data.csv"] });
    expect(readFileSync(join(cwd, "archive.csv"))).toEqual(big);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("notes\n");
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(`Not restorable (left as they are):\n- ${join(cwd, "data.csv")}: `);
    expect(chunk).toContain(`Kept (they may hold what the files not restorable held):\n- ${join(cwd, "archive.csv")}: made by the turn, not removed`);
    expect(agent.problems).toEqual([]);
  });
});
