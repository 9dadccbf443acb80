/**
 * Message ids (full surface): the stable schema's `messageId` on message chunks, one id per message.
 * Consecutive chunks of one kind (`agent_message_chunk`, `agent_thought_chunk`, `user_message_chunk`)
 * are one message; any other update between them (a tool call, a plan, a usage update) or a chunk of
 * another kind starts the next one, so the text before a tool call and the text after it are two
 * messages. The ids are random UUIDs: unique within a session across processes (a loaded session's
 * replay and its next turns never share one).
 */
import { randomUUID } from "node:crypto";
import type * as acp from "@agentclientprotocol/sdk";

type ChunkKind = "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk";

const isChunk = (update: acp.SessionUpdate): update is acp.SessionUpdate & { sessionUpdate: ChunkKind } =>
  update.sessionUpdate === "agent_message_chunk" || update.sessionUpdate === "agent_thought_chunk" || update.sessionUpdate === "user_message_chunk";

/** The message ids of one stream of updates (a turn, a replay). */
export type MessageIds = {
  /** The update, a chunk carrying the id of the message it belongs to. */
  readonly stamp: (update: acp.SessionUpdate) => acp.SessionUpdate;
  /** The next chunk starts a new message, whatever it is (a replayed item is a message of its own). */
  readonly end: () => void;
};

/** Message ids for one stream of updates; `newId` makes each id (random UUIDs by default). */
export const messageIds = (newId: () => string = randomUUID): MessageIds => {
  let current: { readonly kind: ChunkKind; readonly id: string } | undefined;
  return {
    stamp: (update) => {
      if (!isChunk(update)) {
        current = undefined;
        return update;
      }
      if (current?.kind !== update.sessionUpdate) current = { kind: update.sessionUpdate, id: newId() };
      return { ...update, messageId: current.id };
    },
    end: () => {
      current = undefined;
    },
  };
};
