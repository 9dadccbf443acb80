/**
 * What the editor sees of `tools.sandbox: "workspace"`, through the SDK client over in-memory
 * streams: bash titles (tool call and permission request) end with "(sandboxed)", other tools' do
 * not, nothing changes when the sandbox is off; and each session's file system is confined with
 * that session's cwd.
 */
import { describe, expect, it } from "vitest";
import type { FileSystem } from "@mm/core";
import type { MmConfig } from "../src/config/index.js";
import { textReply, toolReply } from "@mm/core/testing";
import { inMemoryAcp } from "./in-memory-acp.js";

const sandboxOn =
  (on: boolean) =>
  (c: MmConfig): MmConfig => ({ ...c, tools: { ...c.tools, sandbox: on ? "workspace" : "off" } });

const scenario = async (on: boolean) => {
  const t = inMemoryAcp({
    replies: [
      toolReply([
        { name: "bash", input: { command: "ls" } },
        { name: "read_file", input: { path: "a.txt" } },
      ]),
      textReply("done"),
    ],
    files: { "/p/a.txt": "A" },
    config: sandboxOn(on),
  });
  await t.run(async (agent) => {
    const { sessionId } = await agent.request("session/new", { cwd: "/p", mcpServers: [] });
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  });
  const titles = t.updates.map((u) => u.update).flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.title] : []));
  return { titles, asked: t.permissions.map((p) => p.toolCall.title), problems: t.problems };
};

describe("sandbox titles", () => {
  it("marks bash calls sandboxed in the tool call and the permission request", async () => {
    const { titles, asked, problems } = await scenario(true);
    expect(titles).toEqual(["bash: ls (sandboxed)", "read_file: a.txt"]);
    expect(asked).toEqual(["bash: ls (sandboxed)", "read_file: a.txt"]);
    expect(problems).toEqual([]);
  });

  it("leaves titles as the spec has them when the sandbox is off", async () => {
    const { titles, asked } = await scenario(false);
    expect(titles).toEqual(["bash: ls", "read_file: a.txt"]);
    expect(asked).toEqual(["bash: ls", "read_file: a.txt"]);
  });
});

describe("confined file systems", () => {
  it("confines each session's file system, knowing that session's cwd", async () => {
    const seen: { path: string; cwd: string | undefined }[] = [];
    const confineFiles = (inner: FileSystem, cwd: () => string | undefined): FileSystem => ({
      ...inner,
      readText: (path) => {
        seen.push({ path, cwd: cwd() });
        return inner.readText(path);
      },
    });
    const t = inMemoryAcp({
      replies: [
        toolReply([{ name: "read_file", input: { path: "a.txt" } }]),
        textReply("one"),
        toolReply([{ name: "read_file", input: { path: "b.txt" } }]),
        textReply("two"),
      ],
      files: { "/p/a.txt": "A", "/q/b.txt": "B" },
      ports: { confineFiles },
    });
    await t.run(async (agent) => {
      for (const cwd of ["/p", "/q"]) {
        const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
        await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
      }
    });
    expect(seen).toEqual([
      { path: "/p/a.txt", cwd: "/p" },
      { path: "/q/b.txt", cwd: "/q" },
    ]);
  });
});
