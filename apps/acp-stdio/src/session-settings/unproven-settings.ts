/**
 * What a loaded session's file asked for and did not get: a mode other than `ask`, a model or a
 * reasoning effort that the store could not prove this user's mm wrote (packages/node/src/sessions/settings-signature.ts,
 * `provenSession`). Said once in the conversation, after the replay, and once in the log.
 */
import type { LoadedSession } from "@mm/core";
import type { AppState } from "../state/app-state.js";
import { tellUser, wantsNotices } from "../editor/tell-user.js";

/** The line for the conversation and the log; undefined when the file asked for nothing it did not get. */
export const unprovenLine = (unproven: LoadedSession["unproven"]): string | undefined => {
  if (unproven === undefined) return undefined;
  const asked = [
    ...(unproven.mode !== undefined ? [`permission mode "${unproven.mode}"`] : []),
    ...(unproven.model !== undefined ? [`model ${JSON.stringify(unproven.model)}`] : []),
    ...(unproven.effort !== undefined ? [`reasoning effort ${JSON.stringify(unproven.effort)}`] : []),
  ];
  if (asked.length === 0) return undefined;
  return `mm: this session's file asks for ${asked.length > 1 ? `${asked.slice(0, -1).join(", ")} and ${asked.at(-1)}` : asked[0]}, but it was not written by your mm (no valid signature: a file a repository ships or a command rewrote), so the session runs in "ask" on the configured model and effort. Its history is loaded.`;
};

/** Tells the conversation and the log, once, what the session's file asked for and did not get. */
export const tellUnproven = (app: AppState, sessionId: string, unproven: LoadedSession["unproven"]): void => {
  const line = unprovenLine(unproven);
  if (line === undefined) return;
  app.warn(`session ${sessionId}: ${line.slice("mm: ".length)}`);
  tellUser(app, sessionId, wantsNotices(app) ? line.slice("mm: ".length) : line, "warning", 'Session loaded in "ask" mode on the configured model');
};
