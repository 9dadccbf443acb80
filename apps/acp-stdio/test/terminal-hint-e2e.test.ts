/**
 * The built `mm-acp` run by hand: on a terminal it says at once what it is, how to try it and how to
 * end it; a line that is not JSON gets `Parse error` on stdout and the same hint on stderr, once.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./spawned-agent.js";

const HINT =
  /^mm-acp: this is an ACP agent for editors: it speaks JSON-RPC 2\.0 on stdin\/stdout.*npx acpx --agent ".*mm-acp\.js" exec "hello".*Ctrl-D or Ctrl-C ends it\.$/;

/** Runs the agent on `input` (stdin a pipe, so no terminal), to its end. */
const run = (input: string): Promise<{ stdout: string; stderr: string; code: number | null }> =>
  new Promise((resolve) => {
    const home = mkdtempSync(join(tmpdir(), "mm-hint-"));
    const child = spawn(process.execPath, [BIN], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: home } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(input);
  });

const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("mm-acp run by hand", () => {
  it("answers typed text with Parse error on stdout and the hint on stderr, once for a flood", async () => {
    const { stdout, stderr, code } = await run(`hello\n${"not json\n".repeat(200)}`);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(201);
    for (const line of lines) expect(JSON.parse(line)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    const hints = stderr.split("\n").filter((line) => line.startsWith("mm-acp: this is an ACP agent"));
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatch(HINT);
  });

  it("says nothing of the kind to an editor (stdin a pipe) that speaks JSON", async () => {
    const { stderr } = await run(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })}\n`);
    expect(stderr).not.toContain("ACP agent for editors");
  });

  it.skipIf(!hasScript)("prints the hint at start when stdin is a terminal, before any input", async () => {
    const home = mkdtempSync(join(tmpdir(), "mm-hint-"));
    // script(1) runs the agent on a pseudo-terminal; its output is the agent's stdout and stderr.
    const child = spawn("script", ["-qc", `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`, "/dev/null"], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: home, TERM: "dumb" },
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    const closed = new Promise((resolve) => child.on("close", resolve));
    const deadline = Date.now() + 10_000;
    while (!output.includes("Ctrl-D or Ctrl-C ends it.") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(output.split(/\r?\n/).some((line) => HINT.test(line))).toBe(true);
    child.stdin.write("\u0004");
    child.stdin.end();
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
    child.kill();
  });
});
