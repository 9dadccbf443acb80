import { describe, expect, it } from "vitest";
import { inMemoryFileSystem, inMemorySkillCatalogue, scriptedShell } from "../testing/index.js";
import { applyEdit, editFileTool } from "./edit-file-tool.js";
import { readFileTool, sliceLines } from "./read-file-tool.js";
import type { ToolContext } from "./tool.js";
import { toolKind, toolTitle } from "./tool-view.js";
import { truncateMiddle } from "./truncate.js";
import { writeFileTool } from "./write-file-tool.js";

const ctx = (files: Record<string, string> = {}): ToolContext & { fs: ReturnType<typeof inMemoryFileSystem> } => ({
  cwd: "/w",
  fs: inMemoryFileSystem(files),
  shell: scriptedShell(),
  skills: inMemorySkillCatalogue(),
  limits: { bashTimeoutMs: 1000, maxOutputBytes: 200 },
  signal: new AbortController().signal,
});

describe("titles and kinds", () => {
  it("follow the spec", () => {
    expect(toolTitle("bash", { command: "ls -la" })).toBe("bash: ls -la");
    expect(toolTitle("edit_file", { path: "a/b.ts" })).toBe("edit_file: a/b.ts");
    expect(toolTitle("read_skill", { name: "greetings" })).toBe("read_skill: greetings");
    expect([toolKind("bash"), toolKind("read_file"), toolKind("read_skill"), toolKind("write_file"), toolKind("edit_file"), toolKind("zap")]).toEqual([
      "execute", "read", "read", "edit", "edit", "execute",
    ]);
  });
});

describe("edit_file", () => {
  const input = (oldText: string, newText: string, replaceAll = false) => ({ path: "f", oldText, newText, replaceAll });
  it("replaces an exact, unique match", () => {
    expect(applyEdit("a b c", input("b", "x"))._unsafeUnwrap()).toBe("a x c");
    expect(applyEdit("a $& c", input("$&", "$1"))._unsafeUnwrap()).toBe("a $1 c");
  });
  it("refuses a missing or ambiguous match, unless replace_all", () => {
    expect(applyEdit("a b c", input("z", "x"))._unsafeUnwrapErr()).toBe("old_text not found in f");
    expect(applyEdit("b b", input("b", "x"))._unsafeUnwrapErr()).toMatch(/found 2 times/);
    expect(applyEdit("b b", input("b", "x", true))._unsafeUnwrap()).toBe("x x");
  });
  it("reports a failure to the model without writing", async () => {
    const c = ctx({ "/w/f": "one" });
    const outcome = await editFileTool.run(input("two", "three"), c);
    expect(outcome).toEqual({ status: "failed", output: "[edit_file failed: old_text not found in f]", diffs: [] });
    expect(c.fs.files.get("/w/f")).toBe("one");
  });
});

describe("read_file", () => {
  it("slices by 1-based lines and says where it is", () => {
    expect(sliceLines("a\nb\nc\n", 2, 1)).toBe("[lines 2-2 of 3]\nb\n");
    expect(sliceLines("a\nb\n")).toBe("a\nb\n");
    expect(sliceLines("a\n", 5)).toMatch(/past its end/);
  });
  it("fails clearly on a missing or binary file", async () => {
    const c = ctx({ "/w/bin": "\u0000\u0001" });
    expect((await readFileTool.run({ path: "nope" }, c)).output).toBe("[read_file failed: no such file or directory: /w/nope]");
    expect((await readFileTool.run({ path: "bin" }, c)).output).toBe("[read_file failed: binary file, not shown: /w/bin]");
  });
});

describe("write_file", () => {
  it("previews the change and records it as a diff", async () => {
    const c = ctx({ "/w/a": "old" });
    expect(await writeFileTool.preview({ path: "a", content: "new" }, c)).toEqual([{ path: "/w/a", oldText: "old", newText: "new" }]);
    expect(await writeFileTool.preview({ path: "b", content: "new" }, c)).toEqual([{ path: "/w/b", oldText: null, newText: "new" }]);
    const outcome = await writeFileTool.run({ path: "sub/c", content: "x" }, c);
    expect(outcome.diffs).toEqual([{ path: "/w/sub/c", oldText: null, newText: "x" }]);
  });
});

describe("truncateMiddle", () => {
  it("keeps head and tail with a marker", () => {
    const out = truncateMiddle("h".repeat(100) + "t".repeat(100), 50);
    expect(out).toMatch(/^h{25}\n\[… 150 bytes cut …\]\nt{25}$/);
  });
  it("counts bytes, not characters, and never splits a character", () => {
    const out = truncateMiddle("é".repeat(100), 51);
    expect(out).toBe(`${"é".repeat(12)}\n[… 152 bytes cut …]\n${"é".repeat(12)}`);
    expect(new TextEncoder().encode(out.replace(/\n\[.*\]\n/, "")).length).toBeLessThanOrEqual(51);
  });
});
