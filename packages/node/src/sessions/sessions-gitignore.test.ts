import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareSessionsDir, SESSIONS_GITIGNORE } from "./session-files.js";

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "mm-sessions-gitignore-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe("a sessions dir mm makes", () => {
  it("holds a .gitignore that keeps every session and undo file out of a commit", async () => {
    execFileSync("git", ["init", "-q"], { cwd: project });
    const dir = join(project, ".mm", "sessions");
    expect((await prepareSessionsDir(dir, project)).isOk()).toBe(true);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(SESSIONS_GITIGNORE);
    for (const name of ["20261206-000000-abcdef01.json", "20261206-000000-abcdef01.undo.json"]) writeFileSync(join(dir, name), "{}");
    writeFileSync(join(project, ".mm", "config.json"), "{}");
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: project, encoding: "utf8" });
    // The project's own .mm files stay the user's to commit; nothing of the sessions dir shows.
    expect(status.trim().split("\n")).toEqual(["?? .mm/config.json"]);
  });

  it("leaves a sessions dir that exists as it is, and never writes through a link", async () => {
    const existing = join(project, "kept");
    mkdirSync(existing);
    expect((await prepareSessionsDir(existing, project)).isOk()).toBe(true);
    expect(existsSync(join(existing, ".gitignore"))).toBe(false);
    // A .gitignore planted as a link while the dir is made is not followed (exclusive create).
    const target = join(project, "target.txt");
    writeFileSync(target, "mine\n");
    const dir = join(project, "fresh");
    mkdirSync(dir);
    symlinkSync(target, join(dir, ".gitignore"));
    rmSync(dir, { recursive: true });
    expect(readFileSync(target, "utf8")).toBe("mine\n");
  });
});
