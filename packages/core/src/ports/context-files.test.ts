import { errAsync } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createAgent } from "../agent/create-agent.js";
import { counterHex, inMemoryFileSystem, inMemorySkillCatalogue, manualClock, scriptedGate, scriptedModel, scriptedShell } from "../testing/index.js";
import { contextFilesOn, directoriesDownTo, type ContextFiles } from "./context-files.js";

describe("contextFilesOn", () => {
  it("reads a file inside the root and refuses one outside it", async () => {
    const files = contextFilesOn(inMemoryFileSystem({ "/w/AGENTS.md": "be nice", "/secret.txt": "key" }));
    expect((await files.read("/w", "AGENTS.md"))._unsafeUnwrap()).toBe("be nice");
    expect((await files.read("/w", "../secret.txt"))._unsafeUnwrapErr()).toMatchObject({ kind: "io", path: "/secret.txt" });
  });
});

describe("the system prompt's AGENTS.md through the ContextFiles port", () => {
  const agentWith = (contextFiles: ContextFiles | undefined, warnings: string[]) =>
    createAgent(
      {
        model: scriptedModel(),
        fs: inMemoryFileSystem({ "/w/AGENTS.md": "from the plain fs" }),
        ...(contextFiles !== undefined ? { contextFiles } : {}),
        shell: scriptedShell(),
        gate: scriptedGate("allow"),
        skills: inMemorySkillCatalogue([]),
        clock: manualClock(),
        random: counterHex(),
        warn: (line) => warnings.push(line),
      },
      { os: "linux x64" },
    );
  const systemText = (info: { history: readonly unknown[] }) => JSON.stringify(info.history[0]);

  it("reads it through the port when given, not the plain file system", async () => {
    const warnings: string[] = [];
    const agent = agentWith({ read: () => errAsync({ kind: "io", path: "/w/AGENTS.md", message: "refused: a hidden path" }) }, warnings);
    const first = await agent.startSession("/w");
    await agent.startSession("/w");
    expect(systemText(first)).not.toContain("from the plain fs");
    // Named once, however many sessions start.
    expect(warnings).toEqual(["AGENTS.md not read, the session goes on without it: refused: a hidden path: /w/AGENTS.md"]);
  });

  it("falls back to the file system kept to the cwd, and says nothing of a missing AGENTS.md", async () => {
    const warnings: string[] = [];
    expect(systemText(await agentWith(undefined, warnings).startSession("/w"))).toContain("from the plain fs");
    expect(warnings).toEqual([]);
    await agentWith(undefined, warnings).startSession("/elsewhere");
    expect(warnings).toEqual([]);
  });
});

describe("AGENTS.md from the repository root down to the cwd", () => {
  it("lists the directories from the root down to the cwd, the cwd alone when it is not inside", () => {
    expect(directoriesDownTo("/r", "/r/a/b")).toEqual(["/r", "/r/a", "/r/a/b"]);
    expect(directoriesDownTo("/r", "/r")).toEqual(["/r"]);
    expect(directoriesDownTo("/", "/a")).toEqual(["/", "/a"]);
    expect(directoriesDownTo("/r", "/rx/a")).toEqual(["/rx/a"]);
  });

  it("finds the nearest ancestor holding .git in memory, none without one", async () => {
    const files = contextFilesOn(inMemoryFileSystem({ "/r/.git/HEAD": "ref", "/r/a/b/x": "" }));
    expect(await files.repositoryRoot?.("/r/a/b")).toBe("/r");
    expect(await files.repositoryRoot?.("/elsewhere")).toBeUndefined();
  });

  it("puts every file in the prompt, root first, each under its path; the cwd's alone as before", async () => {
    const prompt = async (fs: Record<string, string>) =>
      JSON.stringify(
        (
          await createAgent(
            {
              model: scriptedModel(),
              fs: inMemoryFileSystem(fs),
              shell: scriptedShell(),
              gate: scriptedGate("allow"),
              skills: inMemorySkillCatalogue([]),
              clock: manualClock(),
              random: counterHex(),
            },
            { os: "linux x64" },
          ).startSession("/r/a")
        ).history[0],
      );
    const both = await prompt({ "/r/.git/HEAD": "ref", "/r/AGENTS.md": "root rule", "/r/a/AGENTS.md": "a rule", "/AGENTS.md": "above" });
    expect(both).toContain("### /r/AGENTS.md\\nroot rule\\n\\n### /r/a/AGENTS.md\\na rule");
    expect(both).not.toContain("above");
    expect(await prompt({ "/r/AGENTS.md": "root rule", "/r/a/AGENTS.md": "a rule" })).toContain("## Project instructions (AGENTS.md)\\na rule");
  });
});
