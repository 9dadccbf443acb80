/**
 * The reaper outlives an agent killed with SIGKILL: the groups it was told of die, the directories it
 * was given are removed. Driven through a real agent-like process (a child running `startReaper`),
 * killed the way an editor kills it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isGroupAlive } from "./process-group.js";

const reaperModule = fileURLToPath(new URL("./reaper.ts", import.meta.url));
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const waitFor = async (check: () => boolean, ms: number): Promise<boolean> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
};

describe("startReaper", () => {
  it("kills the groups and removes the directories (spaces kept) of an agent killed with SIGKILL", async () => {
    const root = mkdtempSync(join(tmpdir(), "mm-reaper-"));
    made.push(root);
    const dir = join(root, "room ");
    mkdirSync(dir);
    const sleeper = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
    const pgid = sleeper.pid as number;
    sleeper.unref();
    const script = [
      `import { startReaper } from ${JSON.stringify(reaperModule)};`,
      "const reaper = startReaper();",
      `reaper.track(${pgid});`,
      `reaper.removeAtEnd(${JSON.stringify(dir)});`,
      "setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300);",
    ].join("\n");
    const agent = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeout: 20_000 });
    expect(agent.signal).toBe("SIGKILL");
    expect(await waitFor(() => !isGroupAlive(pgid) && !existsSync(dir), 5_000)).toBe(true);
    expect(existsSync(root)).toBe(true);
  });

  it("kills every process of a listed session, one that moved to a group of its own included", async () => {
    // A command's leader (a session of its own, as Node's `detached` makes it) whose job left its group.
    const leader = spawn("bash", ["-c", "set -m; sleep 61 >/dev/null 2>&1 & echo $!; sleep 62"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    const sid = leader.pid as number;
    leader.unref();
    const job = Number(await new Promise<string>((resolve) => leader.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString()))));
    const stat = readFileSync(`/proc/${job}/stat`, "utf8");
    const [pgrp, session] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .slice(2, 4)
      .map(Number);
    expect(pgrp).not.toBe(sid);
    expect(session).toBe(sid);
    const script = [
      `import { startReaper } from ${JSON.stringify(reaperModule)};`,
      "const reaper = startReaper();",
      `reaper.track(${sid});`,
      "setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300);",
    ].join("\n");
    const agent = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeout: 20_000 });
    expect(agent.signal).toBe("SIGKILL");
    expect(await waitFor(() => !isGroupAlive(sid) && !isGroupAlive(job), 5_000)).toBe(true);
  });

  it("starts its bash at the first group it is told of, not before", () => {
    const script = [
      `import { startReaper } from ${JSON.stringify(reaperModule)};`,
      'import { readdirSync, readFileSync } from "node:fs";',
      // This process's children whose command line carries the reaper's mark.
      "const ours = (p) => { try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('mm-reaper') && readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(process.pid); } catch { return false; } };",
      "const reapers = () => readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p) && ours(p)).length;",
      "const reaper = startReaper();",
      "const before = reapers();",
      "reaper.untrack(1);",
      "const afterUntrack = reapers();",
      "reaper.track(999999);",
      "setTimeout(() => { console.log(JSON.stringify([before, afterUntrack, reapers()])); process.exit(0); }, 200);",
    ].join("\n");
    const agent = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeout: 20_000, encoding: "utf8" });
    expect(JSON.parse(agent.stdout)).toEqual([0, 0, 1]);
  });
});
