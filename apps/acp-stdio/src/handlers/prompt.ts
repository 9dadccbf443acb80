/** `session/prompt`: runs the prompt through the core, streaming its events as session updates. */
import type * as acp from "@agentclientprotocol/sdk";
import { promptSession, type PromptResult, type TurnEvent } from "@mm/core";
import type { AppState } from "../app-state.js";
import { promptBlocksOf } from "../translate/prompt-blocks.js";
import { updatesOf, type UpdateOptions } from "../translate/turn-event.js";
import { internalError, invalidSessionParams } from "../wire/errors.js";

let compactions = 0;

const updateOptions = (app: AppState): UpdateOptions => ({
  compactionUpdates: app.peer.capabilities?.session?.compaction != null,
  compactionId: () => `compaction_${++compactions}`,
  sandboxed: app.config.tools.sandbox === "workspace",
});

export const prompt = async (app: AppState, params: acp.PromptRequest): Promise<acp.PromptResponse> => {
  const session = app.agent.sessions.get(params.sessionId);
  if (session === undefined) throw invalidSessionParams(params.sessionId, "unknown session");
  const options = updateOptions(app);
  const emit = (event: TurnEvent): void => {
    if (event.type === "text") {
      app.notify(session.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
      return;
    }
    for (const update of updatesOf(event, options)) app.notify(session.id, update);
  };
  const result = await promptSession(app.agent, session, promptBlocksOf(params.prompt), emit).catch(
    (error: unknown): PromptResult => ({ stopReason: "failed", error: `mm failed: ${error instanceof Error ? error.message : String(error)}` }),
  );
  if (result.stopReason === "failed") throw internalError(result.error);
  return { stopReason: result.stopReason };
};
