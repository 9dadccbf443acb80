/** `session/prompt`: runs the prompt through the core, streaming its events as session updates. */
import type * as acp from "@agentclientprotocol/sdk";
import { fullSurface, type AppState } from "../state/app-state.js";
import { liveOutput } from "../live-output/live-output.js";
import { permissionsArguments, runPermissionsCommand } from "../permissions/permissions-command.js";
import { messageIds } from "../translate/message-ids.js";
import { wantsNotices } from "../editor/tell-user.js";
import { promptBlocksOf } from "../translate/prompt-blocks.js";
import { wantsTerminalOutput } from "../translate/terminal.js";
import { agentText, type UpdateOptions } from "../translate/turn-event.js";
import { turnEventSender } from "../translate/send-turn-event.js";
import type { JsonRpcId } from "../stdio/json-rpc-id.js";
import { internalError, invalidSessionParams } from "./errors.js";

const updateOptions = (app: AppState, sessionId: string): UpdateOptions => {
  const cwd = app.agent.session(sessionId)?.cwd;
  return {
    compactionUpdates: app.peer.capabilities?.session?.compaction != null,
    compactionId: app.nextCompactionId,
    sandboxed: app.config.tools.sandbox === "workspace",
    sessionInfo: fullSurface(app),
    notices: wantsNotices(app),
    toolNames: fullSurface(app),
    ...(wantsTerminalOutput(app.peer.capabilities) ? { terminal: cwd !== undefined ? { cwd } : {} } : {}),
  };
};

export const prompt = async (app: AppState, params: acp.PromptRequest, requestId?: JsonRpcId): Promise<acp.PromptResponse> => {
  const { sessionId } = params;
  const options = updateOptions(app, sessionId);
  // Full surface: one id per message on its chunks (the text before a tool call and after it are two).
  const ids = fullSurface(app) ? messageIds() : undefined;
  const send = (update: acp.SessionUpdate): void => app.notify(sessionId, ids === undefined ? update : ids.stamp(update));
  const live = liveOutput({ terminal: options.terminal !== undefined, maxBytes: app.config.tools.maxOutputBytes, send });
  const emit = turnEventSender(options, live, send);
  const rules = app.rules;
  const typed = rules === undefined ? undefined : permissionsArguments(params.prompt.map((b) => (b.type === "text" ? b.text : "")).join(""));
  const cwd = app.agent.session(sessionId)?.cwd;
  if (rules !== undefined && typed !== undefined && cwd !== undefined) {
    // `/permissions` (full surface): answered here, no model step, nothing in the history.
    const reply = await runPermissionsCommand(rules.book, rules.configured, cwd, typed, rules.where);
    app.info(`session ${sessionId}: /permissions ${typed}`.trimEnd());
    send(agentText(reply));
    live.close();
    return { stopReason: "end_turn" };
  }
  try {
    const result = await app.agent.prompt(sessionId, promptBlocksOf(params.prompt), emit);
    if (result.isErr()) throw invalidSessionParams(sessionId, result.error.kind === "unknown-session" ? "unknown session" : result.error.reason);
    // The session file made whole (its journal folded in) once the answer is on its way to the editor, not before.
    if (requestId !== undefined) app.afterResponse(requestId, () => setImmediate(() => app.agent.foldSession(sessionId)));
    // The failure's words can quote a secret (a model server's error echoing the key, a URL's credentials).
    if (result.value.stopReason === "failed") throw internalError(app.secrets?.redact(result.value.error) ?? result.value.error);
    const { stopReason } = result.value;
    // The spec surface knows no `max_tokens` / `refusal`: the turn ends `end_turn`, after the notice chunk saying why.
    if ((stopReason === "max_tokens" || stopReason === "refusal") && !fullSurface(app)) return { stopReason: "end_turn" };
    return { stopReason };
  } finally {
    live.close();
  }
};
