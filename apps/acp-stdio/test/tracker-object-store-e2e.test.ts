import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { bwrapSkipReason } from "./bwrap-probe.js";
import { gitIn, runHiddenEnvTurn } from "./tracker-turn.js";
import { caseDirs } from "./case-dirs.js";

const root = mkdtempSync(join(tmpdir(), "mm-tracker-objects-"));
const skip = await bwrapSkipReason(root);

let server: FakeOpenAI;
let cwd: string;
let home: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  [cwd, home] = caseDirs(root, "project", "home");
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const git = (...args: string[]): string => gitIn(cwd, ...args);

const runTurn = (commands: readonly string[], sandbox: "workspace" | "off") => runHiddenEnvTurn({ server, cwd, home }, commands, sandbox);

/** Every path under `dir`, relative. */
const listing = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

describe.skipIf(skip !== undefined)("the change tracker and links planted in .git", () => {
  it.each([
    ["the object store", (outside: string) => `mv .git/objects .git/objs && ln -s ${outside} .git/objects`],
    ["a fan-out directory", (outside: string) => `for d in $(printf '%02x ' $(seq 0 255)); do rm -rf .git/objects/$d; ln -s ${outside} .git/objects/$d; done`],
  ])("writes nothing out of the sandbox when a sandboxed command links %s out of .git", async (_what, plant) => {
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "a.txt");
    git("commit", "-qm", "init");
    const outside = join(home, "outside");
    mkdirSync(outside);
    const agent = await runTurn(["echo first > a.txt", plant(outside), "echo planted > a.txt && echo new > n.txt"], "workspace");
    expect(readFileSync(join(cwd, "n.txt"), "utf8")).toBe("new\n");
    expect(listing(outside)).toEqual([]);
    expect(agent.problems).toEqual([]);
  });
});
