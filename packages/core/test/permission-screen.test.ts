/**
 * The engine with a gate that screens (the full surface's permission rules, issue 38): `run` goes
 * through unasked, `deny` never runs and tells the model so, `ask` asks even where a grant or the
 * mode would not; without `screen` the engine is as before. A session in the `sandbox` mode runs its
 * commands on the confined shell.
 */
import { describe, expect, it } from "vitest";
import { createAgent } from "../src/agent/create-agent.js";
import type { PermissionGate, Screening } from "../src/ports/permission-gate.js";
import {
  counterHex,
  inMemoryFileSystem,
  inMemorySkillCatalogue,
  manualClock,
  scriptedModel,
  scriptedShell,
  textReply,
  toolReply,
} from "../src/testing/index.js";

const run = async (screening: (command: string) => Screening, mode?: "ask" | "all" | "sandbox") => {
  const asked: string[] = [];
  const screened: string[] = [];
  const gate: PermissionGate = {
    ask: async ({ call }) => {
      asked.push((call.input as { command: string }).command);
      return "allow_always";
    },
    screen: async ({ call, mode: m }) => {
      screened.push(`${m}:${(call.input as { command: string }).command}`);
      return screening((call.input as { command: string }).command);
    },
  };
  const shell = scriptedShell(() => ({ output: "plain" }));
  const confined = scriptedShell(() => ({ output: "confined" }));
  const agent = createAgent(
    {
      model: scriptedModel(
        toolReply([{ name: "bash", input: { command: "a" } }]),
        toolReply([{ name: "bash", input: { command: "b" } }]),
        toolReply([{ name: "bash", input: { command: "c" } }]),
        textReply("done"),
      ),
      fs: inMemoryFileSystem({}),
      shell,
      confined: { shell: confined, fs: (inner) => inner },
      gate,
      skills: inMemorySkillCatalogue([]),
      clock: manualClock(),
      random: counterHex(),
      store: undefined,
    },
    { os: "linux x64" },
  );
  const session = await agent.startSession("/w");
  if (mode !== undefined) await agent.changeSettings(session.id, { mode });
  const outputs: string[] = [];
  await agent.prompt(session.id, [{ type: "text", text: "go" }], (e) => {
    if (e.type === "tool-done") outputs.push(e.output.split("\n")[0]!);
  });
  return { asked, screened, outputs, plain: shell.requests.length, confinedRuns: confined.requests.length };
};

describe("a screening gate", () => {
  it("runs, denies and asks as the rules say; an allow_always then grants nothing the rules do not", async () => {
    const verdicts: Record<string, Screening> = { a: "run", b: "deny", c: "ask" };
    const result = await run((command) => verdicts[command] ?? "default");
    expect(result.asked).toEqual(["c"]);
    expect(result.outputs).toEqual(["plain", "[command denied by the user's rules]", "plain"]);
  });

  it("`default` leaves it to the mode and the session's grants", async () => {
    const result = await run(() => "default");
    // The gate answered allow_always for `a`: the spec's grant by tool name covers b and c.
    expect(result.asked).toEqual(["a"]);
    expect(result.screened).toEqual(["ask:a", "ask:b", "ask:c"]);
  });

  it("the sandbox mode runs its commands on the confined shell", async () => {
    const result = await run(() => "run", "sandbox");
    expect(result.screened).toEqual(["sandbox:a", "sandbox:b", "sandbox:c"]);
    expect({ plain: result.plain, confined: result.confinedRuns }).toEqual({ plain: 0, confined: 3 });
    expect(result.outputs).toEqual(["confined", "confined", "confined"]);
  });
});
