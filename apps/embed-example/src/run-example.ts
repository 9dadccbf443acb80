/**
 * Embedding @mm/core: a program that drives Bob's turns itself, with its own ports. Here the model
 * is scripted and the file system in memory, so it runs anywhere; swap in `aiSdkModel` (@mm/ai-model)
 * and `nodeFileSystem`/`bashShell` (@mm/node) for the real thing.
 */
import { createAgent, promptSession, startSession, type TurnEvent } from "@mm/core";
import {
  counterHex,
  inMemoryFileSystem,
  inMemorySkillCatalogue,
  manualClock,
  scriptedGate,
  scriptedModel,
  scriptedShell,
  textReply,
  toolReply,
} from "@mm/core/testing";

export type ExampleRun = { readonly transcript: string; readonly file: string | undefined; readonly stopReason: string };

export const runExample = async (): Promise<ExampleRun> => {
  const fs = inMemoryFileSystem({ "/project/greeting.txt": "Hello, world\n" });
  const agent = createAgent(
    {
      model: scriptedModel(
        toolReply([{ name: "edit_file", input: { path: "greeting.txt", old_text: "world", new_text: "Bob" } }], "Editing the greeting. "),
        textReply("Done: the greeting now says hello to Bob."),
      ),
      fs,
      shell: scriptedShell(),
      gate: scriptedGate((request) => (request.call.kind === "edit" ? "allow" : "reject")),
      skills: inMemorySkillCatalogue(),
      clock: manualClock(),
      random: counterHex(),
      store: undefined,
      log: () => undefined,
    },
    {
      maxSteps: 10,
      loopRepeats: 3,
      limits: { bashTimeoutMs: 30_000, maxOutputBytes: 30_000 },
      contextWindow: 128_000,
      compactThreshold: 100_000,
      keepLastTurns: 2,
      os: "embedded",
    },
  );
  const session = await startSession(agent, "/project");
  let transcript = "";
  const onEvent = (event: TurnEvent): void => {
    if (event.type === "text") transcript += event.text;
    if (event.type === "tool-done") transcript += `\n[${event.call.title} → ${event.status}]\n`;
  };
  const result = await promptSession(agent, session, [{ type: "text", text: "Greet Bob instead of the world" }], onEvent);
  return { transcript, file: fs.files.get("/project/greeting.txt"), stopReason: result.stopReason };
};
