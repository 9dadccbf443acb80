import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { boundaryContextFiles, repositoryRootOf } from "./boundary-context-files.js";

const dir = mkdtempSync(join(tmpdir(), "mm-context-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("boundaryContextFiles above the cwd", () => {
  it("finds the repository root by a .git directory or file, never a link", async () => {
    mkdirSync(join(dir, "repo", ".git"), { recursive: true });
    mkdirSync(join(dir, "repo", "a", "b"), { recursive: true });
    expect(await repositoryRootOf(join(dir, "repo", "a", "b"))).toBe(join(dir, "repo"));
    writeFileSync(join(dir, "repo", "a", ".git"), "gitdir: x\n");
    expect(await repositoryRootOf(join(dir, "repo", "a", "b"))).toBe(join(dir, "repo", "a"));
    symlinkSync(join(dir, "repo", ".git"), join(dir, "repo", "a", "b", ".git"));
    expect(await repositoryRootOf(join(dir, "repo", "a", "b"))).toBe(join(dir, "repo", "a"));
  });

  it("an ancestor's AGENTS.md never reaches a path tools.hidden hides relative to the session's cwd", async () => {
    const repo = join(dir, "hidden-repo");
    mkdirSync(join(repo, "pkg", "secrets"), { recursive: true });
    writeFileSync(join(repo, "pkg", "secrets", "key"), "sekrit\n");
    symlinkSync("pkg/secrets/key", join(repo, "AGENTS.md"));
    const files = boundaryContextFiles({ home: join(dir, "home"), hidden: ["secrets"] });
    const read = await files.read(repo, "AGENTS.md", join(repo, "pkg"));
    expect(read._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: expect.stringContaining("hidden path") });
  });
});
