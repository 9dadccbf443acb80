/**
 * The compatibility corpus: answers in the wire shapes of real servers (chat-servers.ts,
 * chat-loose-servers.ts, responses-servers.ts), each played by the fake server as `frames(entry.frames)` and run through the
 * built agent end to end (apps/acp-stdio/test/corpus-e2e.test.ts).
 */
import { CHAT_LOOSE_SERVERS } from "./chat-loose-servers.js";
import { CHAT_SERVERS } from "./chat-servers.js";
import type { CorpusEntry } from "./entry.js";
import { RESPONSES_SERVERS } from "./responses-servers.js";

export type { CorpusEntry } from "./entry.js";
export { ERROR_BODIES, type ErrorBodyEntry } from "./error-bodies.js";

export const CORPUS: readonly CorpusEntry[] = [...CHAT_SERVERS, ...CHAT_LOOSE_SERVERS, ...RESPONSES_SERVERS];
