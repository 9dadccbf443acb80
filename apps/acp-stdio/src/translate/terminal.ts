/**
 * Live command output as a display-only terminal, the `_meta` convention of claude-agent-acp and
 * codex-acp that Zed renders: `terminal_info` on the `tool_call`, `terminal_output` updates carrying
 * the new text, `terminal_exit` on the final update. Only for clients that opt in with
 * `clientCapabilities._meta.terminal_output: true`, and only for calls that stream output.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { CommandExit, ToolCallView } from "@mm/core";

/** Whether the client asked for live output as a terminal. */
export const wantsTerminalOutput = (capabilities: acp.ClientCapabilities | undefined): boolean => capabilities?._meta?.terminal_output === true;

/** Whether `call` is shown as a terminal to a client that may want one. */
export const showsTerminal = (call: ToolCallView, capabilities: acp.ClientCapabilities | undefined): boolean =>
  call.streamsOutput === true && wantsTerminalOutput(capabilities);

/** The call's terminal as tool-call content: its id is the call's. */
export const terminalContent = (call: ToolCallView): acp.ToolCallContent => ({ type: "terminal", terminalId: call.id });

/** `_meta` of the `tool_call` that makes the client create the display-only terminal. */
export const terminalInfoMeta = (call: ToolCallView, cwd: string | undefined): Record<string, unknown> => ({
  terminal_info: { terminal_id: call.id, ...(cwd !== undefined ? { cwd } : {}) },
});

/** More output for the terminal: `data` is appended (plain UTF-8 text, escapes included). */
export const terminalOutputUpdate = (call: ToolCallView, data: string): acp.SessionUpdate => ({
  sessionUpdate: "tool_call_update",
  toolCallId: call.id,
  _meta: { terminal_output: { terminal_id: call.id, data } },
});

/** `_meta` of the final update: how the command ended (exit code and signal null when it never ran). */
export const terminalExitMeta = (call: ToolCallView, exit: CommandExit | undefined): Record<string, unknown> => ({
  terminal_exit: {
    terminal_id: call.id,
    exit_code: exit !== undefined && exit.code !== null && exit.code >= 0 ? exit.code : null,
    signal: exit?.signal ?? null,
  },
});
