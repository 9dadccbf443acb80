import { describe, expect, it } from "vitest";
import { alwaysAsked } from "./always-ask.js";
import type { CommandShape, SimpleCommand } from "./command-shape.js";
import { matchesRule, ruleFor } from "./command-rule.js";
import { screenCommand, screenFile, screenTool, type PermissionRules } from "./screen-call.js";

const cmd = (line: string, redirects: SimpleCommand["redirects"] = []): SimpleCommand => {
  const words = line.split(" ");
  return { words, literalWords: words.length, redirects };
};
const shape = (...commands: SimpleCommand[]): CommandShape => ({ parsed: true, commands, opaque: [] });
const place = { cwd: "/w/p", home: "/home/u" };
const rules = (allow: string[] = [], ask: string[] = [], deny: string[] = []): PermissionRules => ({ allow, ask, deny });

describe("rules by command", () => {
  it("match when the command's plain words begin with the rule's", () => {
    expect(matchesRule(cmd("npm test -- --watch"), "npm test")).toBe(true);
    expect(matchesRule(cmd("npm testing"), "npm test")).toBe(false);
    expect(matchesRule(cmd("npm"), "npm test")).toBe(false);
    expect(matchesRule({ words: ["npm", "$X"], literalWords: 1, redirects: [] }, "npm test")).toBe(false);
    expect(matchesRule(cmd("npm test"), "  npm   test ")).toBe(true);
  });

  it("are derived as program and subcommand, or the program alone, never for a command runner", () => {
    expect(ruleFor(cmd("git status --short"))).toBe("git status");
    expect(ruleFor(cmd("docker compose up -d"))).toBe("docker compose up");
    expect(ruleFor(cmd("pnpm run test"))).toBe("pnpm run test");
    expect(ruleFor(cmd("cargo +nightly build"))).toBeUndefined();
    expect(ruleFor(cmd("ls -la"))).toBe("ls");
    expect(ruleFor(cmd("git"))).toBe("git");
    expect(ruleFor(cmd("sudo ls"))).toBeUndefined();
    expect(ruleFor({ words: ["$CC", "x"], literalWords: 0, redirects: [] })).toBeUndefined();
  });
});

describe("the always-asked list", () => {
  it("names each shape", () => {
    expect(alwaysAsked(shape(cmd("git -C sub push")), place)).toBe("git push");
    expect(alwaysAsked(shape(cmd("npm publish --tag next")), place)).toBe("npm publish");
    expect(alwaysAsked(shape(cmd("rm -r /w/other")), place)).toBe("rm -r outside the project");
    expect(alwaysAsked(shape(cmd("rm -r /w/p/build")), place)).toBeUndefined();
    expect(alwaysAsked(shape(cmd("echo x", [{ target: "~/.bashrc", literal: true, writes: true }])), place)).toBe("a write outside the project");
    expect(alwaysAsked(shape(cmd("cat", [{ target: "/etc/passwd", literal: true, writes: false }])), place)).toBeUndefined();
    expect(alwaysAsked(shape(cmd("echo x", [{ target: "/dev/null", literal: true, writes: true }])), place)).toBeUndefined();
    expect(alwaysAsked(shape(cmd("wget -qO- x"), cmd("bash")), place)).toBe("curl|wget … | sh");
    expect(alwaysAsked(shape(cmd("mv a ../b")), place)).toBe("a write outside the project");
  });
});

describe("screening", () => {
  it("deny in every mode; the list and ask rules in every mode but all; run only when every command is covered", () => {
    expect(screenCommand(shape(cmd("ls"), cmd("dd if=x")), rules([], [], ["dd"]), "all", place).verdict).toBe("deny");
    expect(screenCommand(shape(cmd("git push")), rules(["git"]), "edits", place).verdict).toBe("ask");
    expect(screenCommand(shape(cmd("git push")), rules(["git"]), "all", place).verdict).toBe("default");
    expect(screenCommand(shape(cmd("make deploy")), rules(["make"], ["make deploy"]), "ask", place)).toEqual({
      verdict: "ask",
      why: 'asked by the rule "make deploy"',
    });
    expect(screenCommand(shape(cmd("ls"), cmd("wc -l")), rules(["ls"]), "ask", place)).toMatchObject({ verdict: "default", offer: "wc" });
    expect(screenCommand(shape(cmd("ls"), cmd("wc -l")), rules(["ls", "wc"]), "ask", place).verdict).toBe("run");
    expect(screenCommand({ parsed: false, reason: "x" }, rules(["ls"]), "ask", place).verdict).toBe("ask");
    expect(screenCommand({ parsed: true, commands: [cmd("ls")], opaque: ["a command substitution"] }, rules(["ls"]), "ask", place).verdict).toBe("default");
  });

  it("the sandbox mode runs what it confines, and asks for what hides a command", () => {
    expect(screenCommand(shape(cmd("rm -rf build")), rules(), "sandbox", place).verdict).toBe("run");
    expect(screenCommand(shape(cmd("git push")), rules(), "sandbox", place).verdict).toBe("ask");
    expect(screenCommand(shape(cmd("sh -c x")), rules(), "sandbox", place).verdict).toBe("ask");
    expect(screenCommand({ parsed: true, commands: [cmd("echo")], opaque: ["a command substitution"] }, rules(), "sandbox", place).verdict).toBe("ask");
  });

  it("file tools: edits and reads inside the cwd only; a write outside always asks", () => {
    expect(screenFile("edits", "/w/p/a.txt", rules(["edits"]), "ask", place).verdict).toBe("run");
    expect(screenFile("edits", "/w/p/a.txt", rules(), "ask", place)).toMatchObject({ verdict: "default", offer: "edits" });
    expect(screenFile("edits", "/w/other/a.txt", rules(["edits"]), "edits", place).verdict).toBe("ask");
    expect(screenFile("reads", "/etc/hosts", rules(["reads"]), "ask", place)).toEqual({ verdict: "default", why: "a path outside the project" });
    expect(screenFile("reads", "/w/p/x", rules([], [], ["reads"]), "all", place).verdict).toBe("deny");
    expect(screenFile("reads", "/w/p/x", rules(), "sandbox", place).verdict).toBe("run");
  });
});

describe("other tools (an MCP server's)", () => {
  it("have a rule of their own name, never matched by a command", () => {
    expect(screenTool("fs__write", rules(), "ask")).toMatchObject({ verdict: "default", offer: "tool:fs__write" });
    expect(screenTool("fs__write", rules(["tool:fs__write"]), "sandbox").verdict).toBe("run");
    expect(screenTool("fs__write", rules([], [], ["tool:fs__write"]), "all").verdict).toBe("deny");
    expect(screenCommand(shape(cmd("tool:fs__write")), rules(["tool:fs__write"]), "ask", place).verdict).toBe("default");
  });
});
