import { describe, expect, it } from "vitest";
import { agentCommand, once, terminalHint } from "./terminal-hint.js";

describe("the terminal hint", () => {
  it("names the agent command acpx should run", () => {
    expect(agentCommand("/usr/local/bin/mm-acp")).toBe("mm-acp");
    expect(agentCommand(undefined)).toBe("mm-acp");
    expect(agentCommand("/home/me/mm/apps/acp-stdio/bin/mm-acp.js")).toBe("node /home/me/mm/apps/acp-stdio/bin/mm-acp.js");
    expect(agentCommand("/home/me/my mm/bin/mm-acp.js")).toBe('node "/home/me/my mm/bin/mm-acp.js"');
  });

  it("is one line: what this is, how to try it, how to end it", () => {
    const line = terminalHint("node /x/bin/mm-acp.js");
    expect(line).not.toContain("\n");
    expect(line).toMatch(/^mm-acp: this is an ACP agent for editors: it speaks JSON-RPC 2\.0 on stdin\/stdout/);
    expect(line).toContain('npx acpx --agent "node /x/bin/mm-acp.js" exec "hello"');
    expect(line).toContain("Ctrl-D or Ctrl-C ends it.");
  });

  it("is said once however often it is asked for", () => {
    let count = 0;
    const say = once(() => {
      count += 1;
    });
    for (let i = 0; i < 5; i += 1) say();
    expect(count).toBe(1);
  });
});
