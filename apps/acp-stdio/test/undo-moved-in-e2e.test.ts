/**
 * `/undo` never removes a file whose content was there before the turn under another name (issue 37,
 * attacker's review). A file moved into view from where the change tracker does not look — a
 * directory git ignores (`mv build/out.bin release.bin`), `node_modules` outside git — looked made
 * by the turn, and `/undo` removed it: the only copy. Now its inode's age tells: older than the turn,
 * it is named not restorable and stays, with everything else the turn made; a rename of a file the
 * tracker follows is still taken back whole.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs } from "./faults/helpers.js";
import { startUndoCase, turnThenUndo } from "./undo-session.js";

let server: FakeOpenAI;
let cwd: string;
let config: string;
let state: string;

beforeEach(async () => {
  ({ server, cwd, state, config } = await startUndoCase("undo-moved-in"));
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

const oldEnough = async (...names: string[]): Promise<void> => {
  const old = (): boolean => names.every((name) => statSync(join(cwd, name)).ctimeMs < Date.now() - 300);
  while (!old()) await new Promise((resolve) => setTimeout(resolve, 50));
};

const OLDER =
  "there before the turn under another name: moved or linked here from where mm does not look (a directory git ignores, node_modules), so it may hold the only copy";

describe("/undo keeps a file moved in from where mm does not look", () => {
  it("in git, keeps release.bin after `mv build/out.bin release.bin` (build/ ignored), and puts back what it can", async () => {
    writeFileSync(join(cwd, ".gitignore"), "build/\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    mkdirSync(join(cwd, "build"));
    writeFileSync(join(cwd, "build", "out.bin"), "the only build of last week\n");
    await oldEnough("build/out.bin");
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo({ server, cwd, state, config }, [
      "echo b > a.txt && mv build/out.bin release.bin",
    ]);
    expect(Object.keys(afterTurn).sort()).toEqual([".gitignore", "a.txt", "release.bin"]);
    // Everything as before the turn but the move /undo cannot take back: the only copy stays.
    expect(afterUndo).toEqual({ ...without(before, "build/out.bin"), "release.bin": before["build/out.bin"] });
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(`Not restorable (left as they are):\n- ${join(cwd, "release.bin")}: ${OLDER}`);
    expect(agent.problems).toEqual([]);
  });

  it("outside git, keeps x.js after `mv node_modules/p/big.js x.js`, and puts back what it can", async () => {
    mkdirSync(join(cwd, "node_modules", "p"), { recursive: true });
    writeFileSync(join(cwd, "node_modules", "p", "big.js"), "only copy\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    await oldEnough("node_modules/p/big.js");
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo({ server, cwd, state, config }, [
      "mv node_modules/p/big.js x.js && echo b > a.txt",
    ]);
    expect(Object.keys(afterTurn).sort()).toEqual(["a.txt", "x.js"]);
    expect(afterUndo).toEqual({ ...without(before, "node_modules/p/big.js"), "x.js": before["node_modules/p/big.js"] });
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(`Not restorable (left as they are):\n- ${join(cwd, "x.js")}: ${OLDER}`);
    expect(agent.problems).toEqual([]);
  });

  it("still takes back a rename of a file the tracker follows (mv a.txt b.txt), in git and outside", async () => {
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    await oldEnough("a.txt");
    const inGit = await turnThenUndo({ server, cwd, state, config }, ["mv a.txt b.txt"]);
    expect(inGit.afterUndo).toEqual(inGit.before);
    expect(inGit.chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed/);
    rmSync(join(cwd, ".git"), { recursive: true });
    const outside = await turnThenUndo({ server, cwd, state, config }, ["mv a.txt c.txt"]);
    expect(outside.afterUndo).toEqual(outside.before);
    expect(outside.chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed/);
  });
});
