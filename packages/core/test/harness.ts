/** Builds an agent from in-memory adapters, with a recorder of everything it emits and logs. */
import { createAgent, type Agent, type AgentSettings } from "../src/agent/agent.js";
import type { TurnEvent } from "../src/turn/events.js";
import type { PermissionDecision, PermissionRequest } from "../src/ports/permission-gate.js";
import {
  counterHex,
  inMemoryFileSystem,
  inMemorySessionStore,
  inMemorySkillCatalogue,
  manualClock,
  scriptedGate,
  scriptedModel,
  scriptedShell,
  type InMemorySkill,
  type ScriptedReply,
  type ShellScript,
} from "../src/testing/index.js";

export type HarnessOptions = {
  replies?: ScriptedReply[];
  files?: Record<string, string>;
  shell?: ShellScript;
  gate?: PermissionDecision | ((r: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>);
  skills?: InMemorySkill[];
  sessions?: boolean;
  settings?: Partial<AgentSettings>;
};

export const harness = (options: HarnessOptions = {}) => {
  const model = scriptedModel(...(options.replies ?? []));
  const fs = inMemoryFileSystem(options.files ?? {});
  const shell = scriptedShell(options.shell);
  const gate = scriptedGate(options.gate ?? "allow");
  const store = options.sessions ? inMemorySessionStore() : undefined;
  const logs: string[] = [];
  const events: TurnEvent[] = [];
  const clock = manualClock();
  const agent: Agent = createAgent(
    {
      model,
      fs,
      shell,
      gate,
      skills: inMemorySkillCatalogue(options.skills ?? []),
      clock,
      random: counterHex(),
      store,
      log: (line) => logs.push(line),
    },
    {
      maxSteps: 100,
      loopRepeats: 3,
      limits: { bashTimeoutMs: 120_000, maxOutputBytes: 30_000 },
      contextWindow: 128_000,
      compactThreshold: 102_400,
      keepLastTurns: 2,
      os: "linux x64",
      ...options.settings,
    },
  );
  const emit = (e: TurnEvent) => events.push(e);
  const text = () => events.flatMap((e) => (e.type === "text" || e.type === "notice" ? [e.text] : e.type === "compaction" ? [e.line] : [])).join("");
  return { agent, model, fs, shell, gate, store, logs, events, emit, text, clock };
};
