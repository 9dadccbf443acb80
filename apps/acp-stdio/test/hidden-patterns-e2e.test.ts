/**
 * `tools.hidden` takes paths, not patterns (issue 36, attacker's review), through the built binary. A
 * user who writes `"*.pem"` means every key file; on the old code the entry was taken as the literal
 * path `<cwd>/*.pem`, nothing was hidden and nothing said so. Now the configuration is refused in one
 * line naming the key, as any bad value is (exit code 2).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent } from "./spawned-agent.js";

afterEach(() => removeTempDirs());

describe("tools.hidden with a pattern", () => {
  it.each(["*.pem", "secrets/id_?sa", "keys/[ab].txt"])("%s: refused in one line naming the key, exit code 2", async (entry) => {
    const cwd = tempDir("hidden-patterns");
    const config = join(cwd, "mm.json");
    writeFileSync(config, JSON.stringify({ tools: { hidden: [".env", entry] } }));
    const agent = spawnAgent({
      cwd,
      args: ["--config", config],
      env: { MM_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: cwd },
    });
    // On a build that takes the file, stdin's end lets it exit (0): the test then fails on the code.
    agent.child.stdin.end();
    const { code } = await agent.exited;
    expect(code).toBe(2);
    expect(agent.stderr().trim().split("\n")).toHaveLength(1);
    expect(agent.stderr()).toContain("tools.hidden[1]");
    expect(agent.stderr()).toContain("not a pattern");
    expect(agent.stdoutLines).toEqual([]);
  });
});
