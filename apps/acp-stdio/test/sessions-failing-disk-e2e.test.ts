/**
 * A sessions dir that cannot be written, end to end: a full filesystem (a small tmpfs), a read-only
 * one (a read-only bind mount, which fails even for root), and a file where the dir should be. The
 * turn still answers `end_turn`, its last chunk says `[session not saved: <reason>]` (once), the log
 * says so, the file stays whole, and once the disk is back the next save writes everything. The
 * mounts need root; those cases are skipped otherwise, saying why.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { decodeSessionFile, readJournal } from "@mm/node";
import { mountReadOnly, mountsUnavailable, mountTmpfs, unmount } from "../../../packages/node/test-fixtures/mounts.js";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

const unavailable = mountsUnavailable();
if (unavailable !== undefined) process.stderr.write(`sessions-failing-disk-e2e: tmpfs and read-only cases skipped: ${unavailable}\n`);

let server: FakeOpenAI;
let cwd: string;
let mounted: string | undefined;

beforeEach(async () => {
  server = await startFakeOpenAI([], { defaultReply: text("fine") });
  cwd = tempDir("disk");
});
afterEach(async () => {
  if (mounted !== undefined) unmount(mounted);
  mounted = undefined;
  await server.close();
  removeTempDirs();
});

const configWith = (dir = ".mm/sessions") => {
  const path = join(cwd, "mm.json");
  writeFileSync(path, JSON.stringify({ sessions: { enabled: true, dir } }));
  return path;
};
const start = (config: string) =>
  spawnAgent({ env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-disk", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd }, cwd, args: ["--config", config] });
const say = (sessionId: string, words: string) => ({ sessionId, prompt: [{ type: "text" as const, text: words }] });

/** The agent_message_chunk texts of one prompt, from the updates recorded since `from`. */
const chunksSince = (agent: SpawnedAgent, from: number) =>
  agent.updates
    .slice(from)
    .flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" ? [(u.update as { content: { text: string } }).content.text] : []));

const prompt = async (agent: SpawnedAgent, client: acp.ClientContext, sessionId: string, words: string) => {
  const from = agent.updates.length;
  const { stopReason } = (await client.request("session/prompt", say(sessionId, words))) as acp.PromptResponse;
  const chunks = chunksSince(agent, from);
  return { stopReason, chunks, notices: chunks.filter((c) => c.includes("[session not saved")) };
};

/** The session's history as the files hold it now (document plus journal), read without any agent. */
const onDisk = (dir: string, sessionId: string) => {
  const document = decodeSessionFile(readFileSync(join(dir, `${sessionId}.json`), "utf8"), sessionId)._unsafeUnwrap();
  let journal: string | undefined;
  try {
    journal = readFileSync(join(dir, `${sessionId}.journal`), "utf8");
  } catch {
    journal = undefined;
  }
  if (journal === undefined) return document.session.history;
  const reading = readJournal(journal, document.session, document.generation)._unsafeUnwrap();
  return reading.kind === "applied" ? reading.session.history : document.session.history;
};
const texts = (history: readonly { role: string; text?: string }[]) => history.slice(1).map((m) => m.text ?? m.role);

/** Loads the session in a fresh agent and returns the user messages it replays. */
const replayedQuestions = async (config: string, sessionId: string) => {
  const reader = start(config);
  await reader.run((client) => client.request("session/load", { sessionId, cwd, mcpServers: [] }));
  await stop(reader);
  return reader.updates.filter((u) => u.update.sessionUpdate === "user_message_chunk").map((u) => (u.update as { content: { text: string } }).content.text);
};

describe.skipIf(unavailable !== undefined)("a sessions dir on a failing filesystem", () => {
  it("full: the turn ends end_turn with one [session not saved: …ENOSPC…] line, the file stays whole; freed, the next turn saves everything", async () => {
    const dir = join(cwd, ".mm/sessions");
    mkdirSync(dir, { recursive: true });
    mountTmpfs(dir, "1m");
    mounted = dir;
    const config = configWith();
    const agent = start(config);
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      expect((await prompt(agent, client, sessionId, "one")).notices).toEqual([]);
      const before = onDisk(dir, sessionId);
      writeFileSync(join(dir, "spare"), Buffer.alloc(8192));
      try {
        for (let i = 0; ; i++) writeFileSync(join(dir, `filler-${i}`), Buffer.alloc(64 * 1024));
      } catch {
        // full
      }
      rmSync(join(dir, "spare"));
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: `printf '%.0s-' $(seq 1 20000)` } }]), text("x".repeat(30_000)));
      const failed = await prompt(agent, client, sessionId, "two, with a long output");
      expect(failed.stopReason).toBe("end_turn");
      expect(failed.notices).toHaveLength(1);
      expect(failed.chunks.at(-1)).toMatch(/^\n\[session not saved: cannot write .*: no space left on device \(ENOSPC\)\]\n$/);
      const whole = onDisk(dir, sessionId);
      expect(texts(whole).slice(0, 3)).toEqual([...texts(before), "two, with a long output"]);
      expect(whole.some((m) => m.role === "tool")).toBe(false);
      const stillFull = await prompt(agent, client, sessionId, "three");
      expect(stillFull.notices).toHaveLength(1);
      for (const name of ["filler-0", "filler-1", "filler-2"]) rmSync(join(dir, name), { force: true });
      const freed = await prompt(agent, client, sessionId, "four");
      expect(freed.notices).toEqual([]);
      const saved = onDisk(dir, sessionId);
      expect(saved.filter((m) => m.role === "user").map((m) => m.text)).toEqual(["one", "two, with a long output", "three", "four"]);
      expect(saved.map((m) => m.role)).toEqual([
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      return sessionId;
    });
    await stop(agent);
    const log = agent.stderr();
    expect(log).toMatch(new RegExp(`session ${sessionId}: could not save: cannot write .*ENOSPC`));
    expect(log.match(/could not save/g)).toHaveLength(1);
    expect(log).toContain(`session ${sessionId}: saved again`);
    expect(await replayedQuestions(config, sessionId)).toEqual(["one", "two, with a long output", "three", "four"]);
    expect(agent.problems).toEqual([]);
  });

  it("a read-only sessions dir (a read-only bind mount): the session loads, each turn says it is not saved; writable again, all of it is saved", async () => {
    const config = configWith();
    const dir = join(cwd, ".mm/sessions");
    const first = start(config);
    const sessionId = await first.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await prompt(first, client, sessionId, "one");
      return sessionId;
    });
    await stop(first);
    mountReadOnly(dir);
    mounted = dir;
    const agent = start(config);
    await agent.run(async (client) => {
      expect(await client.request("session/load", { sessionId, cwd, mcpServers: [] })).toEqual({});
      for (const words of ["two", "three"]) {
        const turn = await prompt(agent, client, sessionId, words);
        expect(turn.stopReason).toBe("end_turn");
        expect(turn.notices).toEqual([expect.stringMatching(/^\n\[session not saved: .*EROFS.*\]\n$/)]);
      }
      unmount(dir);
      mounted = undefined;
      expect((await prompt(agent, client, sessionId, "four")).notices).toEqual([]);
    });
    await stop(agent);
    expect(await replayedQuestions(config, sessionId)).toEqual(["one", "two", "three", "four"]);
  });
});

describe("a sessions dir that cannot exist", () => {
  it("a file where the dir should be: session/new works, each turn says the session is not saved, the agent keeps serving", async () => {
    writeFileSync(join(cwd, "not-a-dir"), "");
    const agent = start(configWith("not-a-dir"));
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      for (const words of ["one", "two"]) {
        const turn = await prompt(agent, client, sessionId, words);
        expect(turn.stopReason).toBe("end_turn");
        expect(turn.notices).toEqual([`\n[session not saved: sessions dir is not a directory: ${join(cwd, "not-a-dir")}]\n`]);
      }
    });
    await stop(agent);
    expect(agent.stderr().match(/could not save: sessions dir is not a directory/g)).toHaveLength(1);
    expect(agent.problems).toEqual([]);
  });
});
