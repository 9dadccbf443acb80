/**
 * Embedding @mm/core: a program that drives Bob's turns itself, with its own ports and a tool of its
 * own (word-count-tool.ts). Here the model is scripted and the file system in memory, so it runs
 * anywhere; swap in `aiSdkModel` (@mm/ai-model) and `nodeFileSystem`/`bashShell` (@mm/node) for the
 * real thing.
 */
import { builtinTools, createAgent, type ModelRequest, type TurnEvent } from "@mm/core";
import {
  counterHex,
  inMemoryFileSystem,
  inMemorySkillCatalogue,
  manualClock,
  scriptedGate,
  scriptedModel,
  scriptedShell,
  textReply,
  type ScriptedReply,
  toolReply,
} from "@mm/core/testing";
import { wordCountTool } from "./word-count-tool.js";

export type ExampleRun = {
  readonly transcript: string;
  readonly file: string | undefined;
  readonly stopReason: string;
  /** Why the turn failed, when it did: a failed turn is an Ok result whose reason is in `error`. */
  readonly failure: string | undefined;
  /** What the model was sent, step by step. */
  readonly requests: readonly ModelRequest[];
  /** The titles of the calls the user was asked about. */
  readonly asked: readonly string[];
};

/** The model's side of the example turn: an edit, a word count, the answer. */
export const EXAMPLE_REPLIES: readonly ScriptedReply[] = [
  toolReply([{ name: "edit_file", input: { path: "greeting.txt", old_text: "world", new_text: "Bob" } }], "Editing the greeting. "),
  toolReply([{ name: "word_count", input: { path: "greeting.txt" } }]),
  textReply("Done: the greeting now says hello to Bob, in two words."),
];

export const runExample = async (replies: readonly ScriptedReply[] = EXAMPLE_REPLIES): Promise<ExampleRun> => {
  const fs = inMemoryFileSystem({ "/project/greeting.txt": "Hello, world\n" });
  const model = scriptedModel(...replies);
  const gate = scriptedGate((request) => (request.call.kind === "edit" || request.call.name === "word_count" ? "allow" : "reject"));
  const agent = createAgent(
    {
      model,
      fs,
      shell: scriptedShell(),
      gate,
      skills: inMemorySkillCatalogue(),
      clock: manualClock(),
      random: counterHex(),
      tools: [...builtinTools, wordCountTool],
    },
    { maxSteps: 10, os: "embedded" },
  );
  const session = await agent.startSession("/project");
  let transcript = "";
  const onEvent = (event: TurnEvent): void => {
    if (event.type === "text") transcript += event.text;
    if (event.type === "tool-done") transcript += `\n[${event.call.title} → ${event.status}: ${event.output}]\n`;
  };
  const result = await agent.prompt(session.id, [{ type: "text", text: "Greet Bob instead of the world" }], onEvent);
  return {
    transcript,
    file: fs.files.get("/project/greeting.txt"),
    stopReason: result.match(
      (r) => r.stopReason,
      (e) => e.kind,
    ),
    failure: result.match(
      (r) => (r.stopReason === "failed" ? r.error : undefined),
      (e) => (e.kind === "session-refused" ? e.reason : `no session ${e.sessionId}`),
    ),
    requests: model.requests,
    asked: gate.requests.map((r) => r.call.title),
  };
};
