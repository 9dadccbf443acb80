import { describe, expect, it } from "vitest";
import { inMemoryFileSystem, inMemorySkillCatalogue, scriptedShell } from "../testing/index.js";
import { applyEdit, editFileTool } from "./edit-file-tool.js";
import { readFileTool, sliceLines } from "./read-file-tool.js";
import { bashTool } from "./bash-tool.js";
import { sizeText } from "./size-text.js";
import { builtinTools } from "./builtin-tools.js";
import { readSkillTool } from "./read-skill-tool.js";
import type { Tool, ToolContext } from "./tool.js";
import { truncateMiddle } from "./truncate.js";
import { writeFileTool } from "./write-file-tool.js";

const ctx = (files: Record<string, string> = {}): ToolContext & { fs: ReturnType<typeof inMemoryFileSystem> } => ({
  cwd: "/w",
  fs: inMemoryFileSystem(files),
  shell: scriptedShell(),
  skills: inMemorySkillCatalogue(),
  limits: { bashTimeoutMs: 1000, maxOutputBytes: 200 },
  signal: new AbortController().signal,
  warn: () => undefined,
});

/** The call of `tool` with `input`, which must check. */
const call = (tool: Tool, input: unknown) => tool.prepare(input)._unsafeUnwrap();

describe("titles and kinds", () => {
  it("follow the spec", () => {
    expect(call(bashTool, { command: "ls -la" }).title).toBe("bash: ls -la");
    expect(call(editFileTool, { path: "a/b.ts", old_text: "a", new_text: "b" }).title).toBe("edit_file: a/b.ts");
    expect(call(readSkillTool, { name: "greetings" }).title).toBe("read_skill: greetings");
    expect(builtinTools.map((t) => [t.spec.name, t.kind, t.gated, t.counts])).toEqual([
      ["bash", "execute", true, "command"],
      ["read_file", "read", true, "file"],
      ["write_file", "edit", true, "file"],
      ["edit_file", "edit", true, "file"],
      ["read_skill", "read", false, "skill"],
    ]);
  });
});

describe("tool input", () => {
  it("is checked by the one schema the model is shown", () => {
    expect(bashTool.spec.inputSchema).toEqual({
      type: "object",
      properties: {
        command: { type: "string", description: "The command line, run with bash -c" },
        timeout_seconds: { type: "number", minimum: 0, description: "Kill the command after this many seconds" },
      },
      required: ["command"],
      additionalProperties: false,
    });
    expect(bashTool.prepare({ command: 1 })._unsafeUnwrapErr()).toBe('"command" must be a string');
    expect(bashTool.prepare([])._unsafeUnwrapErr()).toBe("input must be an object");
    expect(bashTool.prepare({ command: "ls", timeout_seconds: -1 })._unsafeUnwrapErr()).toBe('"timeout_seconds" must be a non-negative number');
    expect(bashTool.prepare({ command: "ls", timeout_seconds: null, extra: 1 }).isOk()).toBe(true);
    expect(editFileTool.prepare({ path: "f", old_text: "a", new_text: "b", replace_all: "yes" })._unsafeUnwrapErr()).toBe(
      '"replace_all" must be true or false',
    );
  });
});

describe("edit_file", () => {
  const input = (old_text: string, new_text: string, replace_all = false) => ({ path: "f", old_text, new_text, replace_all });
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
    const outcome = await call(editFileTool, input("two", "three")).run(c);
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
    expect((await call(readFileTool, { path: "nope" }).run(c)).output).toBe("[read_file failed: no such file or directory: /w/nope]");
    expect((await call(readFileTool, { path: "bin" }).run(c)).output).toBe("[read_file failed: binary file, not shown: /w/bin]");
  });
});

describe("write_file", () => {
  it("previews the change and records it as a diff", async () => {
    const c = ctx({ "/w/a": "old" });
    expect(await call(writeFileTool, { path: "a", content: "new" }).preview(c)).toEqual([{ path: "/w/a", oldText: "old", newText: "new" }]);
    expect(await call(writeFileTool, { path: "b", content: "new" }).preview(c)).toEqual([{ path: "/w/b", oldText: null, newText: "new" }]);
    const outcome = await call(writeFileTool, { path: "sub/c", content: "x" }).run(c);
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

describe("sizeText", () => {
  it("writes a limit in MiB or KiB when it is whole in them, else in bytes", () => {
    expect([sizeText(16 * 1048576), sizeText(256 * 1024), sizeText(1000)]).toEqual(["16 MiB", "256 KiB", "1000 bytes"]);
  });
});
