/**
 * A session's model and mode as the "full" surface answers them in `session/new`, `load` and `resume`
 * (and announces them later when the server's model list arrives after the answer).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { isReasoningModelId } from "@mm/ai-model";
import type { SessionInfo } from "@mm/core";
import type { AppState } from "../state/app-state.js";
import { configOptionsOf, modeStateOf, type SessionChoices } from "../translate/session-config.js";

/** How long `session/new` waits for the server's model list before answering with the configured one. */
const MODELS_WAIT_MS = 300;

/**
 * Whether `model` takes a reasoning effort: `model.reasoning` says so for every model of the server
 * where set, else the server's model list (an entry whose `supported_parameters` name reasoning, as
 * OpenRouter's do) or OpenAI's reasoning models by id (o-series, gpt-5 and later).
 */
export const takesEffort = (app: AppState, model: string): boolean =>
  app.config.model.reasoning ?? (app.models.reasoning().has(model) || isReasoningModelId(model));

/**
 * `session` without a reasoning effort its model no longer takes (the configuration changed since it
 * was chosen): dropped, so no server is sent an effort it would refuse. Waits for the server's model
 * list only when there is an effort to check.
 */
export const withoutStaleEffort = async (app: AppState, session: SessionInfo): Promise<SessionInfo> => {
  if (session.effort === undefined) return session;
  await app.models.settled();
  if (takesEffort(app, session.model ?? app.config.model.name)) return session;
  app.info(`session ${session.id}: reasoning effort ${session.effort} dropped: its model takes none`);
  const changed = await app.agent.changeSettings(session.id, { effort: null });
  return changed.isOk() ? changed.value : session;
};

/** The choices of `session` with the given model list. */
export const choicesOf = (
  app: AppState,
  session: Pick<SessionInfo, "model" | "mode"> & { readonly effort?: string | undefined },
  models: readonly string[],
): SessionChoices => {
  const model = session.model ?? app.config.model.name;
  return {
    model,
    mode: session.mode,
    models,
    ...(app.sandboxMode?.offered === true ? { sandbox: true } : {}),
    ...(takesEffort(app, model) ? { effort: session.effort ?? "default" } : {}),
  };
};

/** `configOptions` and `modes` for a response; `later` runs once that response is out. */
export const settingsReply = async (
  app: AppState,
  session: SessionInfo,
): Promise<{ readonly reply: Pick<acp.NewSessionResponse, "configOptions" | "modes">; readonly later: () => void }> => {
  const { models, pending } = await app.models.now(MODELS_WAIT_MS);
  // The sandbox mode is listed once bubblewrap's check has said it runs (a trial run, done at start-up).
  await app.sandboxMode?.ready;
  const reply = { configOptions: configOptionsOf(choicesOf(app, session, models)), modes: modeStateOf(session.mode, app.sandboxMode?.offered === true) };
  const later = (): void => {
    if (session.title !== undefined) app.notify(session.id, { sessionUpdate: "session_info_update", title: session.title });
    if (!pending) return;
    void app.models.settled().then((final) => {
      const now = app.agent.session(session.id);
      if (now !== undefined) app.notify(session.id, { sessionUpdate: "config_option_update", configOptions: configOptionsOf(choicesOf(app, now, final)) });
    });
  };
  return { reply, later };
};
