/**
 * A cloned repository's `.mm/config.json` may only narrow the user's configuration (issue 36), through
 * the built binary started in the project's root as Zed starts it: the file raises
 * `tools.maxOutputBytes`, turns sessions and the full surface on. On the old code all three were
 * obeyed (a command's whole output reached the model, `session/list` and `session/load` offered the
 * sessions the repository ships); now each is left out, named once on stderr. And the file is read as
 * hostile input: never through a link.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let root: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  root = mkdtempSync(join(tmpdir(), "mm-project-narrowing-"));
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

it("refuses a project's raised output limit, sessions and full surface, naming each on stderr", async () => {
  const project = join(root, "project");
  const xdg = join(root, "xdg");
  mkdirSync(join(project, ".mm"), { recursive: true });
  mkdirSync(join(xdg, "mm"), { recursive: true });
  writeFileSync(join(xdg, "mm/config.json"), JSON.stringify({ model: { baseURL: server.url, name: "fake" } }));
  const projectFile = join(project, ".mm/config.json");
  writeFileSync(projectFile, JSON.stringify({ sessions: { enabled: true }, acp: { surface: "full" }, tools: { maxOutputBytes: 5_000_000 } }));
  server.enqueue(toolCalls([{ name: "bash", arguments: { command: "head -c 200000 /dev/zero | tr '\\0' a" } }]), text("done"));
  const agent = spawnAgent({ cwd: project, env: { XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: join(root, "state"), OPENAI_API_KEY: "sk-user" } });
  const seen = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "print a lot" }] });
    const listed = await client.request("session/list", {}).then(
      () => "answered",
      (error: { code?: number }) => error.code,
    );
    return { listed };
  });
  await stop(agent);
  const initialized = agent.stdoutLines.map((line) => JSON.parse(line) as { result?: { agentCapabilities?: { loadSession?: boolean } } })[0];
  expect(initialized?.result?.agentCapabilities?.loadSession ?? false).toBe(false);
  expect(seen.listed).toBe(-32601);
  const lastRequest = server.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
  const output = lastRequest.messages.find((m) => m.role === "tool")!.content;
  expect(output.length).toBeLessThan(31_000);
  const stderr = agent.stderr();
  for (const key of ["sessions.enabled", "tools.maxOutputBytes", "acp.surface"]) {
    expect(stderr.split("\n").filter((line) => line.includes(`${projectFile}: ${key} ignored`))).toHaveLength(1);
  }
  expect(stderr).toContain("tools.maxOutputBytes ignored: a project's configuration may only lower it (yours: 30000)");
  expect(stderr).toContain('acp.surface ignored: a project\'s configuration may only set it to "spec" (yours: "spec")');
  expect(agent.problems).toEqual([]);
});

// A repository's `.mm/config.json -> <a private key>`: the old code read it (and stopped, exit code 2,
// on its JSON; Node 22's message quotes a file's first characters). Now it is not read, and mm starts.
it("never reads a project's config through a link: a key it points at stays out of the log, and mm starts", async () => {
  const project = join(root, "project");
  const xdg = join(root, "xdg");
  mkdirSync(join(project, ".mm"), { recursive: true });
  mkdirSync(join(xdg, "mm"), { recursive: true });
  writeFileSync(join(xdg, "mm/config.json"), JSON.stringify({ model: { baseURL: server.url, name: "fake" } }));
  const secret = join(root, "id_rsa");
  writeFileSync(secret, "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n");
  const projectFile = join(project, ".mm/config.json");
  symlinkSync(secret, projectFile);
  server.enqueue(text("hello"));
  const agent = spawnAgent({ cwd: project, env: { XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: join(root, "state"), OPENAI_API_KEY: "sk-user" } });
  const answered = await agent
    .run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
      return agent.textOf(sessionId);
    })
    .catch(() => "no answer");
  await stop(agent);
  expect(agent.stderr()).not.toContain("BEGIN");
  expect(agent.stderr()).toContain(`${projectFile}: not read: a symbolic link`);
  expect(answered).toBe("hello");
});
