/**
 * Skills end to end: a temporary skill folder (one named `compact`, one malformed), the built agent,
 * the SDK client and the local model server.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let cwd: string;
let skills: string;

const skill = (name: string, body: string, files: Record<string, string> = {}) => {
  mkdirSync(join(skills, name), { recursive: true });
  writeFileSync(join(skills, name, "SKILL.md"), body);
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(join(skills, name, file), content);
    chmodSync(join(skills, name, file), 0o755);
  }
};

beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-skills-"));
  skills = join(cwd, "skills");
  skill("greetings", "---\nname: greetings\ndescription: Greet somebody with a festive message.\n---\nRun `greet.sh NAME` with bash.\n", {
    "greet.sh": '#!/usr/bin/env bash\necho "🎉 Happy holidays, $1!"\n',
  });
  skill("vulcan-salute", "---\nname: vulcan-salute\ndescription: Send a vulcan salute to somebody.\n---\nSay 🖖.\n");
  skill("compact", "---\nname: compact\ndescription: A skill that a real command shadows.\n---\nNever reachable from the menu.\n");
  skill("broken", "no front matter here\n");
  writeFileSync(join(cwd, "mm.json"), JSON.stringify({ skills: { dirs: [skills] } }));
});
afterEach(async () => server.close());

const env = () => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-skills", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd });

describe("skills as slash commands", () => {
  it("advertises skills, rewrites /greetings Bob, and the model reads the skill then runs its script", async () => {
    server.enqueue(
      toolCalls([{ name: "read_skill", arguments: { name: "greetings" } }]),
      toolCalls([{ name: "bash", arguments: { command: `${join(skills, "greetings", "greet.sh")} Bob` } }]),
      text("Greeted Bob."),
      text("plain"),
    );
    const agent = spawnAgent({ env: env(), cwd, args: ["--config", join(cwd, "mm.json")] });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await new Promise((r) => setTimeout(r, 50));
      const commands = agent.updates.find((u) => u.update.sessionUpdate === "available_commands_update")!.update as {
        availableCommands: { name: string; description: string; input?: { hint: string } }[];
      };
      expect(commands.availableCommands).toEqual([
        { name: "new", description: "Clear the history and start a new session" },
        { name: "compact", description: "Compress the history now, keeping the last turns" },
        { name: "greetings", description: "Greet somebody with a festive message.", input: { hint: "parameters, if this skill needs any" } },
        { name: "vulcan-salute", description: "Send a vulcan salute to somebody.", input: { hint: "parameters, if this skill needs any" } },
      ]);
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/greetings Bob" }] })).toEqual({ stopReason: "end_turn" });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/nope x and $vulcan-salute Spock" }] });
    });
    await stop(agent);
    const first = server.requests[0]!.body as { messages: { role: string; content: unknown }[] };
    const system = JSON.stringify(first.messages[0]!.content);
    expect(system).toContain("- greetings: Greet somebody with a festive message.");
    expect(JSON.stringify(first.messages.at(-1)!.content)).toContain("$greetings Bob\\n[use skill: greetings]");
    const last = server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(last.messages.at(-1)!.content)).toContain("/nope x and $vulcan-salute Spock\\n[use skill: vulcan-salute]");
    expect(agent.permissions.map((p) => p.toolCall.title)).toEqual([`bash: ${join(skills, "greetings", "greet.sh")} Bob`]);
    const calls = agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call");
    expect(calls[0]).toMatchObject({ title: "read_skill: greetings", kind: "read" });
    const done = agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(JSON.stringify(done[0])).toContain("Run `greet.sh NAME` with bash.");
    expect(JSON.stringify(done[0])).toContain(join(skills, "greetings", "greet.sh"));
    expect(JSON.stringify(done[1])).toContain("🎉 Happy holidays, Bob!");
    const stderr = agent.stderr();
    expect(stderr).toContain('skill "compact" is not advertised');
    expect(stderr).toMatch(/mm-acp: skill .*broken.*/);
    expect(stderr).toContain("mm-acp: 3 skill(s)");
    expect(stderr).toContain("[acp] turn done: 1 command(s) · 0 file op(s) · 1 skill(s)");
    expect(agent.problems).toEqual([]);
  });
});
