import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitIn, runHiddenEnvTurn, sessionFiles, shownDiffs } from "./tracker-turn.js";
import { caseDirs } from "./case-dirs.js";

const root = mkdtempSync(join(tmpdir(), "mm-tracker-hidden-moved-"));

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

const runTurn = (commands: readonly string[], sandbox: "workspace" | "off") => runHiddenEnvTurn({ server, cwd, home }, commands, sandbox);

describe("a hidden file under another name (sandbox off)", () => {
  it.each([
    ["mv .env .env.old", ".env.old", true],
    ["mv .env .env.old", ".env.old", false],
    ["ln .env linked.txt", "linked.txt", true],
    ["ln .env linked.txt", "linked.txt", false],
  ] as const)("`%s`: %s is named without its content (in git: %s)", async (command, name, inGit) => {
    writeFileSync(join(cwd, ".env"), SECRET);
    writeFileSync(join(cwd, "a.txt"), "a\n");
    if (inGit) {
      git("init", "-q");
      git("add", "a.txt");
      git("commit", "-qm", "init");
    }
    const agent = await runTurn([`${command} && echo b > a.txt`], "off");
    expect(readFileSync(join(cwd, name), "utf8")).toBe(SECRET);
    const diffs = shownDiffs(agent);
    expect(diffs).not.toContain(MARK);
    expect(sessionFiles(cwd)).not.toContain(MARK);
    expect(diffs).toContain(join(cwd, name));
    expect(diffs).toContain("a hidden file under another name");
    expect(diffs).toContain('"newText":"b\\n"');
  });
});
