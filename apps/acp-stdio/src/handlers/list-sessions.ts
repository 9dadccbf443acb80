/**
 * `session/list` ("full" surface, sessions kept): the stored sessions of a cwd (the process's when the
 * request names none), newest first, 50 a page; the cursor is the last item's place in that order.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { StoredSessionSummary } from "@mm/core";
import type { AppState } from "../state/app-state.js";
import { storeErrorText } from "./errors.js";

const PAGE_SIZE = 50;

type Place = { readonly updatedAt: number; readonly id: string };

const cursorOf = (s: Place): string => Buffer.from(JSON.stringify([s.updatedAt, s.id])).toString("base64url");

const placeOf = (cursor: string): Place | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(value) || typeof value[0] !== "number" || typeof value[1] !== "string") return undefined;
    return { updatedAt: value[0], id: value[1] };
  } catch {
    return undefined;
  }
};

/** Newest first: a later update, else a greater id. */
const after =
  (place: Place) =>
  (s: StoredSessionSummary): boolean =>
    s.updatedAt < place.updatedAt || (s.updatedAt === place.updatedAt && s.id < place.id);

export const listSessions = async (app: AppState, params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> => {
  const cwd = params.cwd ?? app.processCwd;
  if (!cwd.startsWith("/")) throw acp.RequestError.invalidParams({ cwd, error: "cwd must be an absolute path" });
  const place = params.cursor == null ? undefined : placeOf(params.cursor);
  if (params.cursor != null && place === undefined) throw acp.RequestError.invalidParams({ cursor: params.cursor, error: "not a cursor of this agent" });
  const listed = await app.agent.listSessions(cwd);
  if (listed.isErr()) {
    const error = storeErrorText(listed.error);
    throw acp.RequestError.invalidParams({ cwd, error });
  }
  const rest = place === undefined ? listed.value : listed.value.filter(after(place));
  const page = rest.slice(0, PAGE_SIZE);
  for (const s of page) app.knownCwds.set(s.id, s.cwd);
  const last = page.at(-1);
  return {
    sessions: page.map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title ?? null, updatedAt: new Date(s.updatedAt).toISOString() })),
    ...(rest.length > PAGE_SIZE && last !== undefined ? { nextCursor: cursorOf(last) } : {}),
  };
};
