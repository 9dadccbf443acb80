/** `session/prompt`: runs the prompt through the core, streaming its events as session updates. */
import type * as acp from "@agentclientprotocol/sdk";
import type { TurnEvent } from "@mm/core";
import type { AppState } from "../app-state.js";
import { promptBlocksOf } from "../translate/prompt-blocks.js";
import { updatesOf, type UpdateOptions } from "../translate/turn-event.js";
import { internalError, invalidSessionParams } from "../wire/errors.js";

const updateOptions = (app: AppState): UpdateOptions => ({
  compactionUpdates: app.peer.capabilities?.session?.compaction != null,
  compactionId: app.nextCompactionId,
  sandboxed: app.config.tools.sandbox === "workspace",
});

export const prompt = async (app: AppState, params: acp.PromptRequest): Promise<acp.PromptResponse> => {
  const { sessionId } = params;
  const options = updateOptions(app);
  const emit = (event: TurnEvent): void => {
    if (event.type === "text") {
      app.notify(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
      return;
    }
    for (const update of updatesOf(event, options)) app.notify(sessionId, update);
  };
  const result = await app.agent.prompt(sessionId, promptBlocksOf(params.prompt), emit);
  if (result.isErr()) throw invalidSessionParams(sessionId, result.error.kind === "unknown-session" ? "unknown session" : result.error.reason);
  if (result.value.stopReason === "failed") throw internalError(result.value.error);
  return { stopReason: result.value.stopReason };
};
