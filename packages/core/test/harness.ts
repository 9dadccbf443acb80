/** Builds an agent from in-memory adapters, with a recorder of everything it emits and logs. */
import type { AgentSettings } from "../src/agent/agent-state.js";
import { createAgent, type SessionInfo } from "../src/agent/create-agent.js";
import type { PromptResult } from "../src/agent/prompt-session.js";
import type { PermissionDecision, PermissionRequest } from "../src/ports/permission-gate.js";
import type { PromptBlock } from "../src/prompt/prompt-blocks.js";
import type { Tool } from "../src/tools/tool.js";
import type { Emit, TurnEvent } from "../src/turn/events.js";
import {
  counterHex,
  inMemoryFileSystem,
  inMemorySessionStore,
  inMemorySkillCatalogue,
  manualClock,
  scriptedGate,
  scriptedModel,
  scriptedShell,
  type InMemorySessionStore,
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
  /** The session store (implies `sessions`); a fresh in-memory one by default. */
  store?: InMemorySessionStore;
  settings?: Partial<AgentSettings>;
  tools?: readonly Tool[];
};

export const harness = (options: HarnessOptions = {}) => {
  const model = scriptedModel(...(options.replies ?? []));
  const fs = inMemoryFileSystem(options.files ?? {});
  const shell = scriptedShell(options.shell);
  const gate = scriptedGate(options.gate ?? "allow");
  const store = options.store ?? (options.sessions ? inMemorySessionStore() : undefined);
  const logs: string[] = [];
  const events: TurnEvent[] = [];
  const clock = manualClock();
  const agent = createAgent(
    {
      model,
      fs,
      shell,
      gate,
      skills: inMemorySkillCatalogue(options.skills ?? []),
      clock,
      random: counterHex(),
      store,
      ...(options.tools !== undefined ? { tools: options.tools } : {}),
      log: (line) => logs.push(line),
    },
    { os: "linux x64", ...options.settings },
  );
  const emit: Emit = (e) => events.push(e);
  const text = () => events.flatMap((e) => (e.type === "text" || e.type === "notice" ? [e.text] : e.type === "compaction" ? [e.line] : [])).join("");
  /** A test's view of a session: its id, and what the agent holds of it now. */
  const handle = (info: SessionInfo) => {
    const now = (): SessionInfo => agent.session(info.id) ?? info;
    return {
      id: info.id,
      get history() {
        return now().history;
      },
      get lastInputTokens() {
        return now().lastInputTokens;
      },
      get running() {
        return now().running;
      },
      cancel: () => agent.cancel(info.id),
    };
  };
  type Handle = ReturnType<typeof handle>;
  const start = async (cwd: string): Promise<Handle> => handle(await agent.startSession(cwd));
  const prompt = async (s: Handle, blocks: readonly PromptBlock[], to: Emit = emit): Promise<PromptResult> =>
    (await agent.prompt(s.id, blocks, to))._unsafeUnwrap();
  return { agent, model, fs, shell, gate, store, logs, events, emit, text, clock, start, prompt, handle };
};
