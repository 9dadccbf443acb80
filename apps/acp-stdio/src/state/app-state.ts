/**
 * What the ACP request handlers share: the core agent, the configuration, the client peer and its
 * capabilities, and the ways to send updates and log. A record passed to each handler.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Agent, PermissionRules } from "@mm/core";
import type { McpServerSpec } from "@mm/mcp";
import type { Secrets } from "@mm/node";
import type { MmConfig } from "../config/index.js";
import type { McpSessions } from "../mcp/servers-per-session.js";
import type { ModelChoices } from "../session-settings/model-choices.js";
import type { RuleBook } from "../permissions/rule-book.js";
import type { AfterResponse } from "../stdio/after-response.js";

export type Peer = {
  client: acp.AgentContext | undefined;
  capabilities: acp.ClientCapabilities | undefined;
};

export type AppState = {
  readonly agent: Agent;
  /** Why a cwd cannot be a session's (it does not exist, or is no directory); absent, none is checked. */
  readonly cwdProblem?: (cwd: string) => Promise<string | undefined>;
  readonly config: MmConfig;
  readonly peer: Peer;
  readonly afterResponse: AfterResponse;
  /** Sends one `session/update`; never throws (a vanished editor is the lifecycle's business). */
  readonly notify: (sessionId: string, update: acp.SessionUpdate) => void;
  /** One `[acp] …` line on stderr at the info level (dropped by `--log-level quiet`). */
  readonly info: (line: string) => void;
  /** One `[acp] …` warning on stderr: kept even in a quiet log. */
  readonly warn: (line: string) => void;
  /** A fresh id for a `compaction_update`, unique in this process. */
  readonly nextCompactionId: () => string;
  /** The models the "full" surface's picker offers. */
  readonly models: ModelChoices;
  /** The cwd of each session this process has seen (created, loaded, listed): `session/delete` names only the id. */
  readonly knownCwds: Map<string, string>;
  /** The process's cwd: `session/list` without a `cwd` lists the sessions of this one. */
  readonly processCwd: string;
  /** The permission rules ("full" surface): those remembered per project, and the configuration's. */
  readonly rules?: { readonly book: RuleBook; readonly configured: PermissionRules; readonly where?: string };
  /** The `sandbox` permission mode ("full" surface): `offered` once bubblewrap's check said it runs; `ready` when that check is done. */
  readonly sandboxMode?: { offered: boolean; readonly ready: Promise<void> };
  /** The sessions' MCP servers ("full" surface). */
  readonly mcp: McpSessions;
  /** The secrets mm holds (boundary/secrets.ts), when the host keeps them: what is told of MCP servers is redacted. */
  readonly secrets?: Secrets;
  /** Adds the secrets of the MCP servers an editor gives a session, before they start. */
  readonly mcpSecrets?: (specs: readonly McpServerSpec[]) => void;
};

/** Whether the "full" surface is on (`acp.surface: "full"`): today's ACP beyond docs/acp-surface.md. */
export const fullSurface = (app: AppState): boolean => app.config.acp.surface === "full";

/** `compaction_1`, `compaction_2`, … */
export const compactionIds = (): (() => string) => {
  let last = 0;
  return () => `compaction_${++last}`;
};

export const createNotify =
  (peer: Peer) =>
  (sessionId: string, update: acp.SessionUpdate): void => {
    const client = peer.client;
    if (client === undefined) return;
    client.notify("session/update", { sessionId, update }).catch(() => undefined);
  };
