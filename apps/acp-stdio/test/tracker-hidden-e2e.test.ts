/**
 * The change tracker never hands a hidden path to the sandbox (issue 36), through the built binary
 * under bubblewrap with `tools.hidden: [".env"]` and sessions on. A sandboxed `git init` with `.env`
 * there, then a bash call: on the old code the tracker's `git add` on the host wrote `.env` into
 * `.git/objects`, which the sandbox reads. A command that rewrites `.gitignore` so it no longer
 * ignores `.env`: on the old code `.env` was staged too and its whole content went into the call's
 * diff, to the editor and into the session file. Now none of them holds it; the change of a hidden
 * file is named without content.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { bwrapSkipReason } from "./bwrap-probe.js";
import { gitIn, runHiddenEnvTurn, sessionFiles, shownDiffs } from "./tracker-turn.js";
import { caseDirs } from "./case-dirs.js";

const root = mkdtempSync(join(tmpdir(), "mm-tracker-hidden-"));
const skip = await bwrapSkipReason(root);

const SECRET = "STRIPE_KEY=sk_live_hidden_value_4242\n";
const MARK = "sk_live_hidden_value_4242";

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

/** Every object of the cwd's repository, content included (loose and packed, decompressed). */
const allObjects = (): string => {
  const names = git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)");
  return execFileSync("git", ["cat-file", "--batch"], { cwd, input: names, encoding: "latin1", maxBuffer: 64 * 1024 * 1024 });
};

const runTurn = (commands: readonly string[], sandbox: "workspace" | "off") => runHiddenEnvTurn({ server, cwd, home }, commands, sandbox);

describe.skipIf(skip !== undefined)("the change tracker and hidden paths", () => {
  it("keeps a hidden .env out of .git/objects after a sandboxed git init, out of the diffs and the session file", async () => {
    writeFileSync(join(cwd, ".env"), SECRET);
    writeFileSync(join(cwd, "a.txt"), "a\n");
    const agent = await runTurn(["git init -q", "echo b > a.txt", "echo c > a.txt"], "workspace");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("c\n");
    expect(readdirSync(join(cwd, ".git"))).toContain("objects");
    // The tracker did stage a.txt: its object is there, .env's is not.
    expect(allObjects()).toContain("b\n");
    expect(allObjects()).not.toContain(MARK);
    expect(shownDiffs(agent)).toContain("a.txt");
    expect(shownDiffs(agent)).not.toContain(MARK);
    expect(sessionFiles(cwd)).not.toContain(MARK);
  });

  it.each([true, false])("names a hidden .env a command changed, sandbox off, without its content (in git: %s)", async (inGit) => {
    writeFileSync(join(cwd, ".env"), SECRET);
    writeFileSync(join(cwd, "a.txt"), "a\n");
    if (inGit) {
      git("init", "-q");
      git("add", "a.txt");
      git("commit", "-qm", "init");
    }
    const agent = await runTurn(["echo EXTRA=1 >> .env && echo b > a.txt"], "off");
    expect(readFileSync(join(cwd, ".env"), "utf8")).toBe(`${SECRET}EXTRA=1\n`);
    expect(shownDiffs(agent)).toContain("a hidden path");
    expect(shownDiffs(agent)).toContain(join(cwd, ".env"));
    expect(shownDiffs(agent)).not.toContain(MARK);
    expect(sessionFiles(cwd)).not.toContain(MARK);
    if (inGit) expect(allObjects()).not.toContain(MARK);
  });

  it.each(["workspace", "off"] as const)("keeps a hidden .env out of everything when a command stops .gitignore ignoring it (sandbox %s)", async (sandbox) => {
    writeFileSync(join(cwd, ".gitignore"), ".env\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    writeFileSync(join(cwd, ".env"), SECRET);
    expect(allObjects()).not.toContain(MARK);
    const agent = await runTurn(["printf '*.log\\n' > .gitignore", "echo b > a.txt"], sandbox);
    expect(readFileSync(join(cwd, ".gitignore"), "utf8")).toBe("*.log\n");
    expect(shownDiffs(agent)).toContain(".gitignore");
    expect(allObjects()).not.toContain(MARK);
    expect(shownDiffs(agent)).not.toContain(MARK);
    expect(sessionFiles(cwd)).not.toContain(MARK);
    expect(readFileSync(join(cwd, ".env"), "utf8")).toBe(SECRET);
  });
});
