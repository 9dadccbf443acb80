/**
 * `/undo` end to end through the built binary on the full surface: a turn that changes files through
 * every tool (write_file, edit_file, bash's sed -i, rm, mv and a binary write) is taken back byte for
 * byte, in a git repository (whose status, index, log and objects the undo leaves alone) and outside
 * one; an MCP server's changes, as the change tracker saw them; two turns in a row, then one more after
 * `session/load` in a new process, and a turn cut short by a SIGKILL; a file changed since is never
 * overwritten until `/undo force`.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stall, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { BIN, spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";
import { lastChunk, NOT_UNDONE, prompt, spawnUndoAgent, startUndoCase, treeHash } from "./undo-session.js";

const FILESYSTEM_SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));

const noSandbox = await bwrapSkipReason(tempDir("undo-probe"));

let server: FakeOpenAI;
let cwd: string;
let config: string;
/** The user's state dir, where the key that signs undo logs is kept. */
let state: string;

beforeEach(async () => {
  ({ server, cwd, state, config } = await startUndoCase("undo"));
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

const spawn = (configPath = config, stateHome = state): SpawnedAgent => spawnUndoAgent({ server, cwd, config: configPath, state: stateHome });

// --no-optional-locks: the test's own `git status` must not refresh the index it checks.
const git = (...args: string[]): string =>
  execFileSync("git", ["--no-optional-locks", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });

/** What the user's git holds: status (the sessions dir aside), index, log, refs, stash and the objects' names. */
const gitState = () => ({
  status: git("status", "--porcelain", "--untracked-files=all")
    .split("\n")
    .filter((line) => !line.startsWith("?? .mm/"))
    .join("\n"),
  index: createHash("sha256")
    .update(readFileSync(join(cwd, ".git/index")))
    .digest("hex"),
  log: git("log", "--all", "--format=%H %s"),
  refs: git("for-each-ref"),
  stash: git("stash", "list"),
  objects: readdirSync(join(cwd, ".git/objects"), { recursive: true }).map(String).sort(),
});

/** A repository of the cwd with everything in it committed. */
const commitAll = (): void => {
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
};

/** A file's permission bits. */
const modeOf = (name: string): number => statSync(join(cwd, name)).mode & 0o777;

const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

const seed = (): void => {
  writeFileSync(join(cwd, "edit.txt"), "one\ntwo\n");
  writeFileSync(join(cwd, "sed.txt"), "alpha\nbeta\n");
  writeFileSync(join(cwd, "gone.txt"), "bye\n");
  writeFileSync(join(cwd, "old-name.txt"), "moving\n");
  writeFileSync(join(cwd, "bin.dat"), BINARY);
  writeFileSync(join(cwd, "keep.txt"), "kept\n");
};

/** One turn through every tool. */
const everyTool = (): void => {
  server.enqueue(
    toolCalls([
      { name: "write_file", arguments: { path: "new.txt", content: "fresh\n" } },
      { name: "write_file", arguments: { path: "keep.txt", content: "overwritten\n" } },
      { name: "edit_file", arguments: { path: "edit.txt", old_text: "two", new_text: "TWO" } },
      {
        name: "bash",
        arguments: {
          command: "sed -i s/alpha/ALPHA/ sed.txt && rm gone.txt && mkdir moved && mv old-name.txt moved/new-name.txt && printf '\\000\\377x' > bin.dat",
        },
      },
    ]),
    text("All changed."),
  );
};

/** A new session on the cwd: each prompt in turn, then the agent stopped. */
const session = async (...prompts: string[]): Promise<{ agent: SpawnedAgent; sessionId: string }> => {
  const agent = spawn();
  const sessionId = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    for (const words of prompts) await prompt(client, sessionId, words);
    return sessionId;
  });
  await stop(agent);
  return { agent, sessionId };
};

const sessionFile = (id: string) => JSON.parse(readFileSync(join(cwd, ".mm/sessions", `${id}.json`), "utf8")) as { messages: unknown[] };
const sessionIds = () =>
  readdirSync(join(cwd, ".mm/sessions"))
    .filter((name) => /^\d{8}-\d{6}-[0-9a-f]{8}\.json$/.test(name))
    .map((name) => name.slice(0, -5));

describe("/undo", () => {
  for (const inGit of [false, true]) {
    it(`takes back a turn through every tool, byte for byte, ${inGit ? "in a git repository, leaving its git state alone" : "outside git"}`, async () => {
      seed();
      if (inGit) commitAll();
      const agent = spawn();
      const { sessionId, before, gitBefore, objectsAfterTurn } = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        await prompt(client, sessionId, "hello");
        const before = treeHash(cwd);
        const gitBefore = inGit ? gitState() : undefined;
        everyTool();
        await prompt(client, sessionId, "change everything");
        expect(treeHash(cwd)).not.toEqual(before);
        expect(readFileSync(join(cwd, "moved/new-name.txt"), "utf8")).toBe("moving\n");
        // The change tracker's own objects (see decisions.md) land during the turn, not during the undo.
        const objectsAfterTurn = inGit ? gitState().objects : undefined;
        expect(await prompt(client, sessionId, "/undo")).toBe("end_turn");
        return { sessionId, before, gitBefore, objectsAfterTurn };
      });
      await stop(agent);
      expect(treeHash(cwd)).toEqual(before);
      expect(readFileSync(join(cwd, "bin.dat"))).toEqual(BINARY);
      expect(lastChunk(agent, sessionId)).toBe("↩ undid the last turn: 6 file(s) restored, 2 removed, history back to 2 message(s).\n" + NOT_UNDONE);
      const updates = agent.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);
      expect(updates.at(-1)).toBe("usage_update");
      const commands = agent.updates.find((u) => u.update.sessionUpdate === "available_commands_update")?.update as acp.AvailableCommandsUpdate;
      expect(commands.availableCommands.find((c) => c.name === "undo")).toEqual({
        name: "undo",
        description: "Take back the last turn (or the last N): the files it changed and the conversation",
        input: { hint: "N turns (1 if none), then force to restore files changed since" },
      });
      // The history one turn shorter; the conversation before the undo kept under a new id.
      expect(sessionFile(sessionId).messages).toHaveLength(3);
      const kept = sessionIds().filter((id) => id !== sessionId);
      expect(kept).toHaveLength(1);
      expect(sessionFile(kept[0]!).messages.length).toBeGreaterThan(5);
      expect(agent.problems).toEqual([]);
      if (gitBefore !== undefined) expect(gitState()).toEqual({ ...gitBefore, objects: objectsAfterTurn });
      if (gitBefore !== undefined) expect(gitState().status).toBe("");
      // Nothing of the undone turn is kept once it is undone.
      expect(readdirSync(join(cwd, ".mm/sessions")).filter((name) => name.includes(".undo"))).toEqual([]);
    });
  }

  for (const [inGit, umask] of [
    [false, "022"],
    [true, "022"],
    [true, "077"],
  ] as const) {
    it(`puts files back with their modes: a removed script executable, a private file private, ${inGit ? `in a git repository (readable by the owner only: git keeps only the executable bit), umask ${umask}` : "outside git"}`, async () => {
      writeFileSync(join(cwd, "run.sh"), "#!/bin/sh\necho run\n", { mode: 0o755 });
      writeFileSync(join(cwd, "edited.sh"), "#!/bin/sh\necho one\n", { mode: 0o700 });
      writeFileSync(join(cwd, "private.txt"), "mine\n", { mode: 0o600 });
      writeFileSync(join(cwd, "written.sh"), "#!/bin/sh\n", { mode: 0o750 });
      if (inGit) commitAll();
      server.enqueue(
        toolCalls([
          { name: "bash", arguments: { command: "rm run.sh private.txt && sed -i s/one/two/ edited.sh" } },
          { name: "write_file", arguments: { path: "written.sh", content: "gone\n" } },
          { name: "bash", arguments: { command: "rm written.sh" } },
        ]),
        text("done"),
      );
      const agent = spawnAgent({
        command: ["sh", "-c", `umask ${umask} && exec "$0" "$@"`, process.execPath, BIN],
        env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-undo", MM_MODEL: "fake", MM_ACP_SURFACE: "full", XDG_CONFIG_HOME: cwd, XDG_STATE_HOME: state },
        cwd,
        args: ["--config", config],
      });
      const sessionId = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        await prompt(client, sessionId, "change");
        await prompt(client, sessionId, "/undo");
        return sessionId;
      });
      await stop(agent);
      expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 4 file\(s\) restored, 0 removed/);
      expect(readFileSync(join(cwd, "run.sh"), "utf8")).toBe("#!/bin/sh\necho run\n");
      // Outside git the scan saw each file's own mode; in git, owner only (whatever the umask lets through).
      expect(modeOf("run.sh")).toBe(inGit ? 0o700 : 0o755);
      expect(modeOf("private.txt")).toBe(0o600);
      expect(modeOf("edited.sh")).toBe(0o700);
      // Read by write_file before it wrote: its own mode, in git too.
      expect(modeOf("written.sh")).toBe(0o750);
      expect(agent.problems).toEqual([]);
    });
  }

  for (const inGit of [false, true]) {
    it(`takes back a turn that made its files executable, and never widens a file made private since, ${inGit ? "in a git repository" : "outside git"}`, async () => {
      writeFileSync(join(cwd, "old.sh"), "old\n", { mode: 0o644 });
      writeFileSync(join(cwd, "notes.txt"), "notes\n", { mode: 0o644 });
      if (inGit) commitAll();
      server.enqueue(
        toolCalls([
          { name: "write_file", arguments: { path: "new.sh", content: "#!/bin/sh\n" } },
          { name: "write_file", arguments: { path: "old.sh", content: "#!/bin/sh\necho new\n" } },
          { name: "write_file", arguments: { path: "notes.txt", content: "a secret\n" } },
          { name: "bash", arguments: { command: "chmod +x new.sh old.sh" } },
        ]),
        text("done"),
      );
      const agent = spawn();
      const sessionId = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        await prompt(client, sessionId, "write scripts");
        execFileSync("chmod", ["600", join(cwd, "notes.txt")]);
        await prompt(client, sessionId, "/undo");
        return sessionId;
      });
      await stop(agent);
      expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 2 file\(s\) restored, 1 removed/);
      expect(existsSync(join(cwd, "new.sh"))).toBe(false);
      expect(readFileSync(join(cwd, "old.sh"), "utf8")).toBe("old\n");
      expect(modeOf("old.sh")).toBe(0o644);
      expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("notes\n");
      expect(modeOf("notes.txt")).toBe(0o600);
      expect(agent.problems).toEqual([]);
    });
  }

  it("in a git repository whose .gitattributes converts a file, never puts back git's copy in place of the user's bytes", async () => {
    writeFileSync(join(cwd, ".gitattributes"), "* text=auto\n");
    writeFileSync(join(cwd, "crlf.txt"), "one\r\ntwo\r\n");
    writeFileSync(join(cwd, "plain.txt"), "plain\n");
    commitAll();
    const before = treeHash(cwd);
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: "sed -i s/one/ONE/ crlf.txt && echo changed > plain.txt" } }]), text("done"));
    const { agent, sessionId } = await session("change", "/undo");
    expect(readFileSync(join(cwd, "plain.txt"), "utf8")).toBe("plain\n");
    // Git keeps it with LF endings: that copy is not the user's bytes, so the file is named, left as the turn left it.
    expect(readFileSync(join(cwd, "crlf.txt"), "utf8")).toBe("ONE\r\ntwo\r\n");
    expect(lastChunk(agent, sessionId)).toBe(
      "↩ undid the last turn: 1 file(s) restored, 0 removed, history back to 0 message(s).\n" +
        `Not restorable (left as they are):\n- ${join(cwd, "crlf.txt")}: its content before the turn was not kept\n` +
        NOT_UNDONE,
    );
    expect({ ...treeHash(cwd), "crlf.txt": before["crlf.txt"] }).toEqual(before);
    expect(agent.problems).toEqual([]);
  });

  it("says that what a command changed in files git ignores is not undone (they are not watched)", async () => {
    writeFileSync(join(cwd, ".gitignore"), ".env\n");
    writeFileSync(join(cwd, ".env"), "SECRET=1\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    commitAll();
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: "rm .env && echo b > a.txt" } }]), text("done"));
    const { agent, sessionId } = await session("change", "/undo");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("a\n");
    // The removed ignored file is named: its content was never kept, so it cannot come back.
    expect(lastChunk(agent, sessionId)).toBe(
      "↩ undid the last turn: 1 file(s) restored, 0 removed, history back to 0 message(s).\nNot restorable (left as they are):\n" +
        `- ${join(cwd, ".env")}: its content before the turn was not kept (file deleted, not shown: git ignores it, so its content was not kept)\n` +
        NOT_UNDONE,
    );
    expect(agent.problems).toEqual([]);
  });

  it("goes back turn by turn, and on after session/load in a new process", async () => {
    writeFileSync(join(cwd, "a.txt"), "0\n");
    const first = spawn();
    const sessionId = await first.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      for (const n of [1, 2, 3]) {
        server.enqueue(toolCalls([{ name: "bash", arguments: { command: `echo ${n} > a.txt; echo ${n} > f${n}.txt` } }]), text(`wrote ${n}`));
        await prompt(client, sessionId, `write ${n}`);
      }
      await prompt(client, sessionId, "/undo");
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("2\n");
      await prompt(client, sessionId, "/undo");
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("1\n");
      return sessionId;
    });
    await stop(first);
    expect(lastChunk(first, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed, history back to 4 message\(s\)\./);
    const second = spawn();
    await second.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await prompt(client, sessionId, "/undo");
    });
    await stop(second);
    expect(lastChunk(second, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed, history back to 0 message\(s\)\./);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("0\n");
    expect(readdirSync(cwd).sort()).toEqual([".mm", "a.txt"]);
    expect(sessionFile(sessionId).messages).toHaveLength(1);
    expect(first.problems).toEqual([]);
    expect(second.problems).toEqual([]);
  });

  it("in a cwd reached through a symbolic link, restores a removed directory's files and never records its own", async () => {
    const real = cwd;
    const linked = join(tempDir("undo-linked"), "project");
    symlinkSync(real, linked);
    mkdirSync(join(real, "sub"));
    writeFileSync(join(real, "sub/a.txt"), "in sub\n");
    writeFileSync(join(real, "keep.txt"), "kept\n");
    const agent = spawnAgent({
      env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-undo", MM_MODEL: "fake", MM_ACP_SURFACE: "full", XDG_CONFIG_HOME: real, XDG_STATE_HOME: state },
      cwd: linked,
      args: ["--config", config],
    });
    const { sessionId, before } = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: linked, mcpServers: [] });
      await prompt(client, sessionId, "hello");
      const before = treeHash(real);
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: "rm -rf sub .mm && echo x > keep.txt" } }]), text("done"));
      await prompt(client, sessionId, "clean");
      await prompt(client, sessionId, "/undo");
      return { sessionId, before };
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 2 file\(s\) restored, 0 removed, history back to 2 message\(s\)\.\nNot undone/);
    expect(treeHash(real)).toEqual(before);
    expect(agent.problems).toEqual([]);
  });

  it("takes back a turn cut short by a SIGKILL, from another process", async () => {
    writeFileSync(join(cwd, "a.txt"), "mine\n");
    writeFileSync(join(cwd, "b.bin"), BINARY);
    const before = treeHash(cwd);
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo theirs > a.txt && rm b.bin && echo c > c.txt" } }]), stall(60_000));
    const first = spawn();
    let sessionId = "";
    await first
      .run(async (client) => {
        sessionId = (await client.request("session/new", { cwd, mcpServers: [] })).sessionId;
        void prompt(client, sessionId, "change and hang").catch(() => undefined);
        const ran = () => first.updates.some((u) => u.update.sessionUpdate === "tool_call_update" && u.update.status === "completed");
        while (!ran()) await new Promise((resolve) => setTimeout(resolve, 20));
        first.child.kill("SIGKILL");
        await first.exited;
      })
      .catch(() => undefined);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("theirs\n");
    const second = spawn();
    await second.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await prompt(client, sessionId, "/undo");
    });
    await stop(second);
    expect(lastChunk(second, sessionId)).toMatch(/^↩ undid the last turn: 2 file\(s\) restored, 1 removed, history back to 0 message\(s\)\./);
    expect(treeHash(cwd)).toEqual(before);
    expect(second.problems).toEqual([]);
  });

  it("takes back what a command cancelled as it ran had changed", async () => {
    writeFileSync(join(cwd, "a.txt"), "mine\n");
    const before = treeHash(cwd);
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo theirs > a.txt && echo b > b.txt && touch started && sleep 30" } }]));
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const running = prompt(client, sessionId, "change and wait");
      const deadline = Date.now() + 10_000;
      while (!readdirSync(cwd).includes("started")) {
        if (Date.now() > deadline) throw new Error("the command never started");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      rmSync(join(cwd, "started"));
      await client.notify("session/cancel", { sessionId });
      expect(await running).toBe("cancelled");
      await prompt(client, sessionId, "/undo");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed, history back to 0 message\(s\)\./);
    expect(treeHash(cwd)).toEqual(before);
    expect(agent.problems).toEqual([]);
  });

  it("two sessions on one cwd: one never undoes over the other's later change", async () => {
    writeFileSync(join(cwd, "a.txt"), "0\n");
    const agent = spawn();
    const [first, second] = await agent.run(async (client) => {
      const first = (await client.request("session/new", { cwd, mcpServers: [] })).sessionId;
      const second = (await client.request("session/new", { cwd, mcpServers: [] })).sessionId;
      server.enqueue(toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "A\n" } }]), text("done"));
      await prompt(client, first, "write A");
      server.enqueue(toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "B\n" } }]), text("done"));
      await prompt(client, second, "write B");
      await prompt(client, first, "/undo");
      expect(lastChunk(agent, first)).toMatch(/^↩ nothing undone: 1 file\(s\) are not as the last turn left them:/);
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("B\n");
      await prompt(client, second, "/undo");
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("A\n");
      await prompt(client, first, "/undo");
      return [first, second];
    });
    await stop(agent);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("0\n");
    expect(lastChunk(agent, first)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(lastChunk(agent, second)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(agent.problems).toEqual([]);
  });

  it("restores nothing while a file is not as the turn left it, until /undo force", async () => {
    writeFileSync(join(cwd, "a.txt"), "mine\n");
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      server.enqueue(
        toolCalls([
          { name: "write_file", arguments: { path: "a.txt", content: "model\n" } },
          { name: "bash", arguments: { command: "echo b > b.txt" } },
        ]),
        text("done"),
      );
      await prompt(client, sessionId, "write");
      writeFileSync(join(cwd, "a.txt"), "the user's own edit\n");
      const tree = treeHash(cwd);
      await prompt(client, sessionId, "/undo");
      expect(lastChunk(agent, sessionId)).toBe(
        `↩ nothing undone: 1 file(s) are not as the last turn left them:\n- ${join(cwd, "a.txt")}: changed since the turn\n` +
          "Send /undo force to restore them anyway (what they hold now is lost).",
      );
      expect(treeHash(cwd)).toEqual(tree);
      // The history as it was: no conversation kept aside, no turn gone.
      expect(sessionIds()).toEqual([sessionId]);
      await prompt(client, sessionId, "/undo force");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed, history back to 0 message\(s\)\./);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("mine\n");
    expect(() => statSync(join(cwd, "b.txt"))).toThrow();
    expect(sessionIds()).toHaveLength(2);
    expect(sessionFile(sessionId).messages).toHaveLength(1);
    expect(agent.problems).toEqual([]);
  });

  it("takes back what an MCP server's tools changed, as the change tracker saw it", async () => {
    writeFileSync(join(cwd, "a.txt"), "mine\n");
    writeFileSync(join(cwd, "b.txt"), "bee\n");
    const before = treeHash(cwd);
    server.enqueue(
      toolCalls([
        { name: "fs__write_file", arguments: { path: join(cwd, "a.txt"), content: "by the server\n" } },
        { name: "fs__move_file", arguments: { source: join(cwd, "b.txt"), destination: join(cwd, "c.txt") } },
      ]),
      text("done"),
    );
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const mcpServers: acp.McpServerStdio[] = [{ name: "fs", command: process.execPath, args: [FILESYSTEM_SERVER, cwd], env: [] }];
      const { sessionId } = await client.request("session/new", { cwd, mcpServers });
      await prompt(client, sessionId, "use the server");
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("by the server\n");
      expect(readFileSync(join(cwd, "c.txt"), "utf8")).toBe("bee\n");
      await prompt(client, sessionId, "/undo");
      return sessionId;
    });
    await stop(agent);
    expect(treeHash(cwd)).toEqual(before);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 2 file\(s\) restored, 1 removed, history back to 0 message\(s\)\./);
    expect(agent.problems).toEqual([]);
  });

  for (const sandbox of ["off", "workspace"] as const) {
    it.skipIf(sandbox === "workspace" && noSandbox !== undefined)(`never writes through a link planted since, sandbox ${sandbox}`, async () => {
      const outside = tempDir("undo-outside");
      writeFileSync(join(outside, "a.txt"), "keep\n");
      writeFileSync(join(outside, "secret.txt"), "keep\n");
      mkdirSync(join(cwd, "dir"));
      writeFileSync(join(cwd, "dir/a.txt"), "mine\n");
      writeFileSync(join(cwd, "b.txt"), "bee\n");
      const sandboxed = join(tempDir("undo-config"), "mm.json");
      writeFileSync(sandboxed, JSON.stringify({ sessions: { enabled: true }, tools: { sandbox } }));
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo new > dir/a.txt && echo new > b.txt" } }]), text("done"));
      const agent = spawn(sandboxed);
      const sessionId = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        await prompt(client, sessionId, "change");
        expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("new\n");
        // A hostile change since: the directory and the file are links out of the project now.
        rmSync(join(cwd, "dir"), { recursive: true });
        symlinkSync(outside, join(cwd, "dir"));
        rmSync(join(cwd, "b.txt"));
        symlinkSync(join(outside, "secret.txt"), join(cwd, "b.txt"));
        await prompt(client, sessionId, "/undo");
        expect(lastChunk(agent, sessionId)).toMatch(/^↩ nothing undone: 2 file\(s\) are not as the last turn left them:\n/);
        await prompt(client, sessionId, "/undo force");
        return sessionId;
      });
      await stop(agent);
      const chunk = lastChunk(agent, sessionId);
      expect(chunk).toMatch(
        /^↩ undid the last turn: 0 file\(s\) restored, 0 removed, history back to 0 message\(s\)\.\nCould not be restored \(left as they are\):\n/,
      );
      expect(chunk).toContain(`- ${join(cwd, "b.txt")}: `);
      expect(chunk).toContain(`- ${join(cwd, "dir/a.txt")}: `);
      expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("keep\n");
      expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("keep\n");
      expect(readdirSync(outside).sort()).toEqual(["a.txt", "secret.txt"]);
      expect(agent.problems).toEqual([]);
    });
  }

  it.skipIf(noSandbox !== undefined)("with the sandbox on, recreates removed files and directories, and removes created ones", async () => {
    mkdirSync(join(cwd, "sub/deeper"), { recursive: true });
    writeFileSync(join(cwd, "sub/deeper/a.txt"), "deep\n");
    writeFileSync(join(cwd, "gone.txt"), "bye\n");
    writeFileSync(join(cwd, "bin.dat"), BINARY);
    const sandboxed = join(tempDir("undo-config"), "mm.json");
    writeFileSync(sandboxed, JSON.stringify({ sessions: { enabled: true }, tools: { sandbox: "workspace" } }));
    const before = treeHash(cwd);
    server.enqueue(
      toolCalls([{ name: "bash", arguments: { command: "rm -rf sub gone.txt && printf x > bin.dat && mkdir -p made/here && echo n > made/here/n.txt" } }]),
      text("done"),
    );
    const agent = spawn(sandboxed);
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await prompt(client, sessionId, "change");
      expect(readdirSync(cwd)).not.toContain("sub");
      await prompt(client, sessionId, "/undo");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 3 file\(s\) restored, 1 removed, history back to 0 message\(s\)\.\nNot undone/);
    expect(treeHash(cwd)).toEqual(before);
    expect(agent.problems).toEqual([]);
  });

  it.skipIf(noSandbox !== undefined)("with the sandbox on, a command cannot read the key that signs undo data", async () => {
    // The state dir in the project, so that it is inside what the sandbox shows at all (a home under
    // /tmp would be behind its private /tmp): masked all the same.
    const stateHome = join(cwd, ".state");
    const sandboxed = join(tempDir("undo-config"), "mm.json");
    writeFileSync(sandboxed, JSON.stringify({ sessions: { enabled: true }, tools: { sandbox: "workspace" } }));
    const key = join(stateHome, "mm/undo.key");
    server.enqueue(
      toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "a" } }]),
      text("written"),
      toolCalls([{ name: "bash", arguments: { command: `cp ${key} stolen.key` } }]),
      text("tried"),
    );
    const agent = spawn(sandboxed, stateHome);
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await prompt(client, sessionId, "write");
      expect(statSync(key).size).toBe(32);
      await prompt(client, sessionId, "steal");
    });
    await stop(agent);
    expect(readdirSync(cwd)).not.toContain("stolen.key");
    expect(agent.problems).toEqual([]);
  });

  it("takes back a symbolic link the turn made as the link, never the file it points to", async () => {
    const outside = tempDir("undo-outside");
    writeFileSync(join(outside, "precious.txt"), "precious\n");
    writeFileSync(join(cwd, "a.txt"), "mine\n");
    server.enqueue(
      toolCalls([{ name: "bash", arguments: { command: `ln -s ${join(outside, "precious.txt")} out-link && ln -s a.txt in-link && echo x > b.txt` } }]),
      text("done"),
    );
    const { agent, sessionId } = await session("link", "/undo");
    expect(readFileSync(join(outside, "precious.txt"), "utf8")).toBe("precious\n");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("mine\n");
    expect(readdirSync(cwd).sort()).toEqual([".mm", "a.txt", "in-link", "out-link"]);
    expect(lastChunk(agent, sessionId)).toBe(
      "↩ undid the last turn: 0 file(s) restored, 1 removed, history back to 0 message(s).\nNot restorable (left as they are):\n" +
        `- ${join(cwd, "in-link")}: made by the turn, not removed: a symbolic link is there now\n` +
        `- ${join(cwd, "out-link")}: made by the turn, not removed: a symbolic link is there now\n` +
        NOT_UNDONE,
    );
    expect(agent.problems).toEqual([]);
  });

  it("refuses hostile undo data in one line and changes nothing; the next turn starts a new log", async () => {
    writeFileSync(join(cwd, "a.txt"), "mine\n");
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo new > a.txt" } }]), text("done"));
      await prompt(client, sessionId, "change");
      const log = join(cwd, ".mm/sessions", `${sessionId}.undo.json`);
      const forged = JSON.parse(readFileSync(log, "utf8")) as { turns: { files: { path: string }[] }[] };
      forged.turns[0]!.files[0]!.path = "../../etc/passwd";
      writeFileSync(log, JSON.stringify(forged));
      await prompt(client, sessionId, "/undo");
      expect(lastChunk(agent, sessionId)).toBe(`↩ nothing undone: undo data is corrupt: ${log}: its signature does not check: this user's mm did not write it`);
      expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("new\n");
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo newer > a.txt" } }]), text("done"));
      await prompt(client, sessionId, "change again");
      await prompt(client, sessionId, "/undo");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed, history back to 4 message\(s\)\./);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("new\n");
    expect(agent.stderr()).toContain("undo data not read, earlier turns cannot be undone: undo data is corrupt:");
    expect(agent.problems).toEqual([]);
  });

  it("never uses undo data a repository ships: a session made by another user's mm is not undone, even forced", async () => {
    // The attacker's own mm (another key) makes the session in the repository: its turn wrote a file
    // outside the project, so its log names that file, with what the victim's copy will never match.
    const outside = tempDir("undo-outside");
    const target = join(outside, "authorized_keys");
    const attacker = spawn(config, tempDir("undo-attacker-state"));
    const sessionId = await attacker.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      server.enqueue(toolCalls([{ name: "write_file", arguments: { path: target, content: "ssh-ed25519 AAAA attacker\n" } }]), text("done"));
      await prompt(client, sessionId, "set it up");
      return sessionId;
    });
    await stop(attacker);
    expect(readdirSync(join(cwd, ".mm/sessions"))).toContain(`${sessionId}.undo.json`);
    // The victim clones it: their own file is there, and they load the session and ask for /undo force.
    writeFileSync(target, "ssh-ed25519 BBBB victim\n");
    const victim = spawn();
    await victim.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await prompt(client, sessionId, "/undo force");
    });
    await stop(victim);
    expect(readFileSync(target, "utf8")).toBe("ssh-ed25519 BBBB victim\n");
    expect(lastChunk(victim, sessionId)).toMatch(/^↩ nothing undone: undo data is corrupt: .*: its signature does not check: this user's mm did not write it$/);
    expect(victim.problems).toEqual([]);
  });

  it("with sessions not kept on disk, undoes in memory and writes nothing into the project", async () => {
    seed();
    const memoryConfig = join(tempDir("undo-memory"), "mm.json");
    writeFileSync(memoryConfig, JSON.stringify({ sessions: { enabled: false } }));
    const agent = spawn(memoryConfig);
    const { sessionId, before } = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const before = treeHash(cwd);
      everyTool();
      await prompt(client, sessionId, "change everything");
      expect(treeHash(cwd)).not.toEqual(before);
      expect(await prompt(client, sessionId, "/undo")).toBe("end_turn");
      return { sessionId, before };
    });
    await stop(agent);
    expect(treeHash(cwd)).toEqual(before);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 6 file\(s\) restored, 2 removed, history back to 0 message\(s\)\./);
    expect(readdirSync(cwd)).not.toContain(".mm");
    expect(agent.problems).toEqual([]);
  });

  it("is not there on the spec surface: /undo goes to the model", async () => {
    const agent = spawnAgent({
      env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-undo", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd },
      cwd,
      args: ["--config", config],
    });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await prompt(client, sessionId, "/undo");
    });
    await stop(agent);
    const commands = agent.updates.find((u) => u.update.sessionUpdate === "available_commands_update")?.update as acp.AvailableCommandsUpdate;
    expect(commands.availableCommands.map((c) => c.name)).toEqual(["new", "compact"]);
    expect(server.requests.length).toBe(1);
  });
});
