/**
 * Builds the ACP agent on a stream from a configuration and the ports: the core agent, the
 * permission gate over the connection, the handlers. Used by `main.ts` on stdio and by tests on
 * in-memory streams.
 */
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import {
  askUserTool,
  builtinTools,
  planTool,
  createAgent,
  type AgentDeps,
  type ChangeTracker,
  type Clock,
  type ContextFiles,
  type FileSystem,
  type Model,
  type RandomHex,
  type SessionStore,
  type Shell,
  type SkillCatalogue,
  type UndoLimits,
  type UndoStore,
} from "@mm/core";
import { envSecrets, headerSecrets, MEMORY_UNDO_LIMITS, memoryUndoStore, nodeUndoStore, undoKeyFile, urlSecrets, type Secrets } from "@mm/node";
import type { McpServerSpec } from "@mm/mcp";
import type { MmConfig } from "../config/index.js";
import { editorFileSystems } from "../editor/acp-file-system.js";
import { acpUserQuestions } from "../editor/acp-user-questions.js";
import { compactionIds, createNotify, type AppState, type Peer } from "../state/app-state.js";
import { AGENT_INFO } from "../editor/agent-info.js";
import { mcpSessions } from "../mcp/servers-per-session.js";
import { ownFilesUnreported } from "./own-files-unreported.js";
import { modelChoices, type ModelLister } from "../session-settings/model-choices.js";
import { permissionsFor } from "../permissions/gate-for.js";
import { sandboxModeState, type SandboxMode } from "../permissions/sandbox-mode.js";
import { registerHandlers } from "./register-handlers.js";
import { withAfterResponse, type Transport } from "../stdio/after-response.js";

export type AppPorts = {
  readonly model: Model;
  readonly fs: FileSystem;
  /** What mm reads on its own for the model (AGENTS.md): the host's boundary (`@mm/node`'s `boundaryContextFiles`); `fs` kept to the cwd when absent. */
  readonly contextFiles?: ContextFiles;
  readonly shell: Shell;
  /** What bash calls change on disk; absent, bash results carry no diffs. */
  readonly changes?: ChangeTracker;
  readonly skills: SkillCatalogue;
  readonly store: SessionStore | undefined;
  readonly clock: Clock;
  readonly random: RandomHex;
  /** The environment MCP servers start from (the commands' one: without the model's key). */
  readonly commandEnv?: Readonly<Record<string, string | undefined>>;
  /** The server's model ids for the "full" surface's picker (undefined when it cannot say). */
  readonly listModels?: ModelLister;
  /** Why a cwd cannot be a session's (the real disk's answer; in-memory tests leave it out). */
  readonly cwdProblem?: (cwd: string) => Promise<string | undefined>;
  /** Told of every MCP server's process group, started (true) and killed (false): the reaper's. */
  readonly onProcessGroup?: (pgid: number, alive: boolean) => void;
  /** Under `tools.sandbox: "workspace"`: confines a session's file system to the sandbox's boundary, given that session's cwd. */
  readonly confineFiles?: (inner: FileSystem, cwd: () => string | undefined, roots?: () => readonly string[]) => FileSystem;
  /**
   * What `/undo` keeps (the "full" surface only). When absent, ports on the real disk (those with
   * `cwdProblem`) get the one in the sessions dir with `sessions.enabled`, one in memory without it;
   * in-memory ports get none.
   */
  readonly undo?: UndoStore;
  /** The `sandbox` permission mode's confined shell and files ("full" surface, permissions/sandbox-mode.ts). */
  readonly sandboxMode?: SandboxMode;
  /**
   * The secrets mm holds (boundary/secrets.ts): replaced in every tool result, diff and live output, and
   * kept out of undo data; the editor's MCP servers' headers and environment values join them.
   */
  readonly secrets?: Secrets;
};

/**
 * `/undo`'s store, only on the "full" surface: kept with the session in the sessions dir when sessions
 * are on disk (so it outlives the process), else in this process's memory, within a smaller budget.
 */
const undoOf = (config: MmConfig, ports: AppPorts, stateDir: string | undefined): { readonly store: UndoStore; readonly limits?: UndoLimits } | undefined => {
  if (config.acp.surface !== "full") return undefined;
  if (ports.undo !== undefined) return { store: ports.undo };
  if (ports.cwdProblem === undefined) return undefined;
  return config.sessions.enabled && ports.store !== undefined
    ? {
        store: nodeUndoStore({
          dir: config.sessions.dir,
          ...(stateDir !== undefined ? { key: undoKeyFile(join(stateDir, "undo.key")) } : {}),
          ...(ports.secrets !== undefined ? { holdsSecret: ports.secrets.heldIn } : {}),
        }),
      }
    : { store: memoryUndoStore(), limits: MEMORY_UNDO_LIMITS };
};

/** Adds the secrets of the editor's MCP servers: their headers, their URLs' passwords, their environment's values (see `envSecrets`). */
const mcpSecretsOf =
  (secrets: Secrets, own: Readonly<Record<string, string | undefined>>) =>
  (specs: readonly McpServerSpec[]): void =>
    secrets.add(
      specs.flatMap((spec) =>
        spec.kind === "stdio" ? envSecrets(spec.env, own) : [...Object.values(spec.headers).flatMap(headerSecrets), ...urlSecrets(spec.url)],
      ),
    );

export type ServeOptions = {
  readonly home?: string;
  /** The user's state dir for mm (`$XDG_STATE_HOME/mm`): where the key that signs undo logs is kept. */
  readonly stateDir?: string;
  readonly os: string;
  /** The process's cwd (`session/list` without a cwd); `/` when absent. */
  readonly cwd?: string;
  /** Receives each info line (already prefixed `[acp] `). */
  readonly info: (line: string) => void;
  /** Receives each warning, a line even in a quiet log (prefixed too); `info` when absent. */
  readonly warn?: (line: string) => void;
};

export type Served = { readonly connection: acp.AgentConnection; readonly app: AppState };

/** Serves on `transport`: a plain stream is wrapped to know when a response is out. */
export const serve = (config: MmConfig, ports: AppPorts, transport: acp.Stream | Transport, options: ServeOptions): Served => {
  const peer: Peer = { client: undefined, capabilities: undefined };
  const info = (line: string) => options.info(`[acp] ${line}`);
  const warnTo = options.warn ?? options.info;
  const warn = (line: string) => warnTo(`[acp] ${line}`);
  const editorFs = editorFileSystems(peer, ports.fs);
  const confine = ports.confineFiles;
  const sessionFs: AgentDeps["sessionFs"] =
    confine === undefined ? editorFs : (session) => confine(editorFs(session) ?? ports.fs, () => session.cwd, session.roots);
  const undo = undoOf(config, ports, options.stateDir);
  const permissions = permissionsFor(config, peer, options.stateDir, info, warn, ports.sandboxMode?.unavailable);
  const deps: AgentDeps = {
    model: ports.model,
    fs: ports.fs,
    ...(ports.contextFiles !== undefined ? { contextFiles: ports.contextFiles } : {}),
    shell: ports.shell,
    skills: ports.skills,
    gate: permissions.gate,
    ...(ports.sandboxMode !== undefined ? { confined: ports.sandboxMode.confined } : {}),
    clock: ports.clock,
    random: ports.random,
    store: ports.store,
    undo: undo?.store,
    sessionFs,
    // The "full" surface adds the task list the editor shows as a plan, and questions the editor's form answers (when it shows forms).
    tools: config.acp.surface === "full" ? [...builtinTools, planTool, askUserTool(acpUserQuestions(peer))] : builtinTools,
    ...(ports.changes !== undefined ? { changes: config.sessions.enabled ? ownFilesUnreported(ports.changes, config.sessions.dir) : ports.changes } : {}),
    log: info,
    warn,
  };
  const agent = createAgent(deps, {
    maxSteps: config.turn.maxSteps,
    loopRepeats: config.loop.repeats,
    limits: { bashTimeoutMs: config.tools.bashTimeoutSeconds * 1000, maxOutputBytes: config.tools.maxOutputBytes },
    images: { perResult: config.tools.maxImageBytes, perSession: config.tools.maxSessionImageBytes },
    contextWindow: config.model.contextWindow,
    compactThreshold: config.context.threshold,
    keepLastTurns: config.context.keepLastTurns,
    vision: config.model.vision,
    ...(ports.secrets !== undefined ? { redact: ports.secrets.redact } : {}),
    ...(undo?.limits !== undefined ? { undoLimits: undo.limits } : {}),
    ...(config.model.pricing !== undefined ? { pricing: { ...config.model.pricing, model: config.model.name } } : {}),
    // The "full" surface answers sessions side by side; the spec's keeps one turn at a time for the process.
    sessionsSideBySide: config.acp.surface === "full",
    os: options.os,
    ...(options.home !== undefined ? { home: options.home } : {}),
  });
  const wired = "afterResponse" in transport ? transport : withAfterResponse(transport);
  const app: AppState = {
    agent,
    ...(ports.cwdProblem !== undefined ? { cwdProblem: ports.cwdProblem } : {}),
    config,
    peer,
    afterResponse: wired.afterResponse,
    notify: createNotify(peer),
    info,
    warn,
    nextCompactionId: compactionIds(),
    models: modelChoices(ports.listModels, [config.model.name, ...config.model.choices]),
    knownCwds: new Map(),
    processCwd: options.cwd ?? "/",
    ...(permissions.rules !== undefined ? { rules: permissions.rules } : {}),
    ...(ports.sandboxMode !== undefined ? { sandboxMode: sandboxModeState(ports.sandboxMode) } : {}),
    ...(ports.secrets !== undefined ? { secrets: ports.secrets, mcpSecrets: mcpSecretsOf(ports.secrets, ports.commandEnv ?? {}) } : {}),
    mcp: mcpSessions(ports.commandEnv ?? {}, AGENT_INFO.version, config.tools.bashTimeoutSeconds * 1000, ports.onProcessGroup),
  };
  const connection = registerHandlers(acp.agent({ name: "bob" }), app).connect(wired.stream);
  peer.client = connection.client;
  return { connection, app };
};
