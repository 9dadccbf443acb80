/** `ask_user` on a scripted model: the question reaches the port, each way it ends reaches the model; offered only when the port is available. */
import { describe, expect, it } from "vitest";
import { builtinTools } from "../src/tools/builtin-tools.js";
import { askUserTool, choicesOf, DECLINED, DISMISSED } from "../src/tools/ask-user-tool.js";
import { hangingReply, scriptedQuestions, textReply, toolReply } from "../src/testing/index.js";
import type { ScriptedQuestions } from "../src/testing/index.js";
import { harness } from "./harness.js";

const say = (t: string) => [{ type: "text" as const, text: t }];
const ask = (input: unknown) => toolReply([{ name: "ask_user", input }]);

const run = async (questions: ScriptedQuestions, input: unknown = { question: "Which database?", choices: ["postgres", "sqlite"] }) => {
  const h = harness({ replies: [ask(input), textReply("ok")], tools: [...builtinTools, askUserTool(questions)] });
  const s = await h.start("/w");
  const result = await h.prompt(s, say("set it up"));
  const toolResult = s.history.find((m) => m.role === "tool");
  return { h, s, result, toolResult };
};

describe("ask_user", () => {
  it("asks the port with the session, the call and the choices, never the permission gate, and gives the model the answer", async () => {
    const questions = scriptedQuestions({ kind: "answered", answer: "sqlite" });
    const { h, s, result, toolResult } = await run(questions);
    expect(result.stopReason).toBe("end_turn");
    expect(questions.questions).toMatchObject([{ sessionId: s.id, callId: "call_1", question: "Which database?", choices: ["postgres", "sqlite"] }]);
    expect(h.gate.requests).toEqual([]);
    expect(toolResult).toMatchObject({ status: "completed", output: "The user answered: sqlite", shown: { title: "ask_user: Which database?" } });
  });

  it("tells the model a declined and a dismissed form as such", async () => {
    expect((await run(scriptedQuestions({ kind: "declined" }))).toolResult).toMatchObject({ status: "failed", output: DECLINED });
    expect((await run(scriptedQuestions({ kind: "cancelled" }))).toolResult).toMatchObject({ status: "failed", output: DISMISSED });
    expect((await run(scriptedQuestions({ kind: "failed", message: "no form" }))).toolResult).toMatchObject({
      status: "failed",
      output: "[the question could not be asked: no form]",
    });
  });

  it("a free question carries no choices; the answer is bounded", async () => {
    const questions = scriptedQuestions({ kind: "answered", answer: "x".repeat(5000) });
    const { toolResult } = await run(questions, { question: "Name?" });
    expect(questions.questions[0]).not.toHaveProperty("choices");
    expect((toolResult as { output: string }).output.length).toBe("The user answered: ".length + 2000);
  });

  it("withdraws the question when the turn is cancelled while it waits", async () => {
    let asked!: () => void;
    const waiting = new Promise<void>((r) => (asked = r));
    const questions = scriptedQuestions(() => {
      asked();
      return new Promise(() => undefined);
    });
    const h = harness({ replies: [ask({ question: "Go?" }), hangingReply()], tools: [...builtinTools, askUserTool(questions)] });
    const s = await h.start("/w");
    const prompting = h.prompt(s, say("go"));
    await waiting;
    s.cancel();
    expect((await prompting).stopReason).toBe("cancelled");
    expect(questions.questions[0]?.signal.aborted).toBe(true);
  });

  it("is not offered (nor in the system prompt) when the port is unavailable", async () => {
    const h = harness({ replies: [textReply("hi")], tools: [...builtinTools, askUserTool(scriptedQuestions({ kind: "declined" }, false))] });
    const s = await h.start("/w");
    await h.prompt(s, say("hi"));
    expect(h.model.requests[0]?.tools.map((t) => t.name)).not.toContain("ask_user");
    expect(JSON.stringify(s.history[0])).not.toContain("ask_user");
  });

  it("waiting for the user holds up no other session's tools in the same cwd (sessions side by side)", async () => {
    let answer!: (a: { kind: "answered"; answer: string }) => void;
    let asked!: () => void;
    const waiting = new Promise<void>((r) => (asked = r));
    const questions = scriptedQuestions(
      () =>
        new Promise((resolve) => {
          answer = resolve;
          asked();
        }),
    );
    const h = harness({
      replies: [ask({ question: "Go?" }), toolReply([{ name: "bash", input: { command: "ls" } }]), textReply("listed"), textReply("going")],
      tools: [...builtinTools, askUserTool(questions)],
      settings: { sessionsSideBySide: true },
    });
    const a = await h.start("/w");
    const b = await h.start("/w");
    const asking = h.prompt(a, say("ask me"));
    await waiting;
    expect((await h.prompt(b, say("list"))).stopReason).toBe("end_turn");
    answer({ kind: "answered", answer: "yes" });
    expect((await asking).stopReason).toBe("end_turn");
  });

  it("offers distinct, trimmed, non-empty choices", () => {
    expect(choicesOf([" a ", "a", "", "b"])).toEqual(["a", "b"]);
  });
});
