/**
 * Every change reviewable: a bash call's file changes come back as diff content, in a git work tree
 * and outside one, through the SDK client, with the real shell and change tracker.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "@mm/core/testing";
import { bashShell, changeTracker, nodeFileSystem } from "@mm/node";
import { inMemoryAcp } from "./in-memory-acp.js";

const scenario = async (git: boolean) => {
  const cwd = mkdtempSync(join(tmpdir(), git ? "mm-diff-git-" : "mm-diff-plain-"));
  writeFileSync(join(cwd, "f.txt"), "a cat\n");
  writeFileSync(join(cwd, "g.txt"), "gone soon\n");
  if (git) {
    execFileSync("git", ["init", "-q"], { cwd });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "add", "-A"], { cwd });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], { cwd });
  }
  const t = inMemoryAcp({
    replies: [toolReply([{ name: "bash", input: { command: "sed -i 's/a/b/' f.txt && rm g.txt && echo x > h.txt" } }]), textReply("done")],
    ports: { fs: nodeFileSystem(), shell: bashShell(), changes: changeTracker() },
    config: (c) => ({ ...c, sessions: { ...c.sessions, enabled: true } }),
  });
  const sessionId = await t.run(async (agent) => {
    const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    await agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    return sessionId;
  });
  const done = t.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed") as {
    content: unknown[];
    locations: { path: string }[];
  };
  return { cwd, done, t, sessionId };
};

describe("bash diffs", () => {
  for (const git of [true, false]) {
    it(`reports a change, a deletion and a creation ${git ? "in a git work tree" : "outside git"}`, async () => {
      const { cwd, done, t, sessionId } = await scenario(git);
      expect(done.content[0]).toEqual({ type: "content", content: { type: "text", text: "[exit code: 0]" } });
      expect(done.content.slice(1)).toEqual([
        { type: "diff", path: join(cwd, "f.txt"), oldText: "a cat\n", newText: "b cat\n" },
        { type: "diff", path: join(cwd, "g.txt"), oldText: "gone soon\n", newText: "", _meta: { deleted: true } },
        { type: "diff", path: join(cwd, "h.txt"), oldText: null, newText: "x\n" },
      ]);
      expect(done.locations.map((l) => l.path)).toEqual([join(cwd, "f.txt"), join(cwd, "g.txt"), join(cwd, "h.txt")]);
      const session = t.served.app.agent.session(sessionId)!;
      const result = session.history.find((m) => m.role === "tool");
      expect(result).toMatchObject({
        diffs: [{ path: join(cwd, "f.txt") }, { path: join(cwd, "g.txt"), newText: null }, { path: join(cwd, "h.txt"), oldText: null }],
      });
      const replayed = t.updates
        .map((u) => u.update)
        .filter((u) => u.sessionUpdate === "tool_call")
        .at(-1) as { status: string; content: unknown[] };
      expect(replayed.status).toBe("completed");
      expect(replayed.content.slice(1)).toEqual(done.content.slice(1));
      expect(t.problems).toEqual([]);
      if (git) expect(execFileSync("git", ["status", "--porcelain"], { cwd }).toString()).toBe(" M f.txt\n D g.txt\n?? h.txt\n");
    });
  }
});
