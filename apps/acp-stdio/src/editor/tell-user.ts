/**
 * A line of mm's own for the user, outside any turn's answer (an MCP server failed, a session's file
 * not trusted): a `notice` update on the "full" surface to a client showing notices, else answer text
 * as before.
 */
import type { NoticeSeverity } from "@mm/core";
import { fullSurface, type AppState } from "../state/app-state.js";
import { noticeOf, showsNotices } from "../translate/notice.js";

/** Whether this client gets mm's own lines as notices. */
export const wantsNotices = (app: AppState): boolean => fullSurface(app) && showsNotices(app.peer.capabilities);

/** Tells the user `line` in session `sessionId` (as a notice titled `title` when given, see `noticeOf`). */
export const tellUser = (app: AppState, sessionId: string, line: string, severity: NoticeSeverity, title?: string): void =>
  app.notify(
    sessionId,
    wantsNotices(app) ? noticeOf(line, severity, title) : { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${line}\n` } },
  );
