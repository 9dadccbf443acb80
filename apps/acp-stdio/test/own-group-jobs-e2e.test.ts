/**
 * A background job that moves to a process group of its own inside the command's session ends with
 * mm too (issue 37): GNU `timeout` calls `setpgid`, and `set -m` gives every job its own group. On
 * the old code both ran on after the command returned, through a clean exit (stdin closed) and
 * through the editor's SIGKILL, with the sandbox off: mm killed groups, and their groups were not the
 * command's. Now mm and its reaper follow the command's session.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";

const root = mkdtempSync(join(tmpdir(), "mm-own-group-"));
const bwrap = (await bwrapSkipReason(root)) === undefined;
let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = mkdtempSync(join(root, "case-"));
});
/** Markers of this file's jobs: whatever a failing run leaves behind is killed, by pid. */
const markers: string[] = [];
afterEach(() => {
  server.close();
  for (const marker of markers.splice(0)) for (const pid of running(marker)) killQuietly(Number(pid));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const killQuietly = (pid: number): void => {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already.
  }
};

const isZombie = (pid: string): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
};

/** The pids of live processes whose command line holds `marker`. */
const running = (marker: string): string[] => {
  try {
    return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter((line) => line !== "" && !isZombie(line));
  } catch {
    return [];
  }
};

const gone = async (marker: string, ms: number): Promise<boolean> => {
  for (const start = Date.now(); Date.now() - start < ms; await new Promise((r) => setTimeout(r, 25))) if (running(marker).length === 0) return true;
  return running(marker).length === 0;
};

/** The process group and session of `pid`, from /proc (fields 5 and 6 of stat). */
const groupAndSession = (pid: string): { readonly group: number; readonly session: number } => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { group: Number(fields[2]), session: Number(fields[3]) };
};

/** The live processes of `marker` in a group other than their session's: jobs that moved out of bash's group. */
const movedJobs = (marker: string): string[] =>
  running(marker).filter((pid) => {
    try {
      const { group, session } = groupAndSession(pid);
      return group !== session;
    } catch {
      return false;
    }
  });
const movedJob = (marker: string): string | undefined => movedJobs(marker)[0];

const jobs = [
  ["`timeout … &`", (marker: string) => `timeout 500 sleep ${marker} >/dev/null 2>&1 & echo started`],
  ["a `set -m` job", (marker: string) => `set -m; sleep ${marker} >/dev/null 2>&1 & echo started`],
] as const;
const endings = [
  ["a clean exit (stdin closed)", "clean"],
  ["SIGKILL of the agent", "kill"],
] as const;
const cases = jobs.flatMap(([what, command]) => endings.map(([how, ending]) => [what, how, command, ending] as const));

/**
 * Runs `command` in a bash call (awaiting the turn's end when `returns`), checks its job runs in a
 * group of its own, ends the agent the `ending` way, and answers whether every `sleep marker` is gone.
 */
const jobEndsWithAgent = async (
  command: string,
  marker: string,
  ending: "clean" | "kill",
  sandbox: "off" | "workspace",
  returns: boolean,
): Promise<boolean> => {
  markers.push(marker);
  server.enqueue(toolCalls([{ name: "bash", arguments: { command } }]), text("done"));
  const config = join(cwd, "mm.json");
  writeFileSync(config, JSON.stringify({ tools: { sandbox } }));
  const agent = spawnAgent({ cwd, args: ["--config", config], env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: cwd } });
  const end = async (): Promise<void> => {
    if (ending === "clean") agent.child.stdin.end();
    else agent.child.kill("SIGKILL");
    await agent.exited;
  };
  // A prompt still running (the sandboxed call) is ended with the agent, inside the connection: the
  // connection then closes under `run`, which is what it says.
  const ran = await agent
    .run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const answer = client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).then(
        (response) => response.stopReason,
        () => "ended with the agent",
      );
      if (returns) expect(await answer).toBe("end_turn");
      for (let waited = 0; movedJob(`sleep ${marker}`) === undefined && waited < 10_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
      expect(movedJob(`sleep ${marker}`)).toBeDefined();
      if (!returns) {
        await end();
        expect(await answer).toBe("ended with the agent");
      }
      return "ran";
    })
    .catch((error: unknown) => (!returns && String(error).includes("ACP connection closed") ? "ran" : Promise.reject(error)));
  expect(ran).toBe("ran");
  if (returns) await end();
  if (ending === "clean") expect((await agent.exited).code).toBe(0);
  return gone(`sleep ${marker}`, 5000);
};

const newMarker = (): string => `${1200 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;

describe("a job in a process group of its own, left running by a command that returned (sandbox off)", () => {
  it.each(cases)("%s ends with the agent: %s", async (_what, _how, command, ending) => {
    const marker = newMarker();
    expect(await jobEndsWithAgent(command(marker), marker, ending, "off", true)).toBe(true);
  });
});

// With the sandbox on, bwrap's init holds the command's output until its jobs end (so the call runs
// on), stays in the command's group, and the PID namespace dies with it: these rows passed on the old
// code too, and guard that following the session keeps it so.
describe("a job in a process group of its own in a sandboxed command", () => {
  it.each(cases)("%s ends with the agent: %s", async (_what, _how, command, ending) => {
    if (!bwrap) return;
    const marker = newMarker();
    expect(await jobEndsWithAgent(command(marker), marker, ending, "workspace", false)).toBe(true);
  });
});

// Cancel (as timeout) ends the command's whole session while the agent runs on: on the old code TERM
// went to bash's group only, and both jobs ran on.
describe("session/cancel of a running command", () => {
  it("ends its jobs in groups of their own too, the agent still running", async () => {
    const marker = newMarker();
    markers.push(marker);
    const command = `set -m; sleep ${marker} >/dev/null 2>&1 & timeout 500 sleep ${marker} >/dev/null 2>&1 & wait`;
    server.enqueue(toolCalls([{ name: "bash", arguments: { command } }]), text("never"));
    const agent = spawnAgent({ cwd, env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: cwd } });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const answer = client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
      // The `set -m` sleep, `timeout 500 sleep …` and timeout's sleep: two groups, neither bash's.
      for (let waited = 0; movedJobs(`sleep ${marker}`).length < 3 && waited < 10_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
      expect(movedJobs(`sleep ${marker}`)).toHaveLength(3);
      await client.notify("session/cancel", { sessionId });
      expect((await answer).stopReason).toBe("cancelled");
      expect(await gone(`sleep ${marker}`, 5000)).toBe(true);
      expect(agent.child.exitCode).toBeNull();
    });
    agent.child.stdin.end();
    await agent.exited;
  });
});
