import { describe, expect, it } from "vitest";
import { assistantMessage, systemMessage, userMessage, type History, type Message } from "../history/message.js";
import { planCompaction } from "./plan-compaction.js";

const toolTurn = (n: number): Message[] => [
  userMessage(`q${n}`),
  assistantMessage("", [{ id: `call_${n}`, name: "bash", input: { command: "ls" } }]),
  { role: "tool", callId: `call_${n}`, toolName: "bash", status: "completed", output: "a" },
  assistantMessage(`a${n}`),
];

describe("planCompaction", () => {
  const history: History = [systemMessage("s"), ...toolTurn(1), ...toolTurn(2), ...toolTurn(3)];

  it("replaces all but the last turns, cutting only at a user message", () => {
    const plan = planCompaction(history, 2);
    expect(plan.kind).toBe("compact");
    if (plan.kind !== "compact") return;
    expect(plan.replaced).toEqual(toolTurn(1));
    expect(plan.kept).toEqual([...toolTurn(2), ...toolTurn(3)]);
  });

  it("has nothing to do when no turn is older than the kept ones", () => {
    expect(planCompaction(history, 3)).toEqual({ kind: "nothing", messageCount: 12 });
    expect(planCompaction([systemMessage("s")], 0)).toEqual({ kind: "nothing", messageCount: 0 });
  });

  it("replaces everything with keepLastTurns 0", () => {
    const plan = planCompaction(history, 0);
    expect(plan.kind === "compact" && plan.kept.length).toBe(0);
  });
});
