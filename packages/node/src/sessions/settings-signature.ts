/**
 * The signature of a session's power settings (`settingsMac`): what lets a load honour a mode other than
 * `ask`, a model or an effort only when this user's mm wrote them (docs/session-file.md).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { PermissionMode, StoredSession } from "@mm/core";
import { asciiJson } from "./ascii-json.js";
import type { DecodedDocument } from "./json-session-document.js";
import { SESSION_VERSION } from "./session-format.js";

const MAC = /^[0-9a-f]{64}$/;

/** Whether `value` has the form of a `settingsMac`: 64 hex digits. */
export const isSettingsMac = (value: unknown): value is string => typeof value === "string" && MAC.test(value);

/**
 * The settings of a session that change what runs unasked, who answers or what it costs: a mode other
 * than `ask`, a model, a reasoning effort.
 */
type PowerSettings = { readonly model?: string; readonly mode?: PermissionMode; readonly effort?: string };

const powerOf = (session: StoredSession): PowerSettings => ({
  ...(session.model !== undefined ? { model: session.model } : {}),
  ...(session.mode !== undefined && session.mode !== "ask" ? { mode: session.mode } : {}),
  ...(session.effort !== undefined ? { effort: session.effort } : {}),
});

/** Whether `session` has settings that are only honoured signed (its store reads the key for them). */
export const hasPowerSettings = (session: StoredSession): boolean => Object.keys(powerOf(session)).length > 0;

/**
 * The HMAC-SHA256 of a session's power settings under the user's key (the one that signs undo logs,
 * packages/node/src/undo/undo-key.ts), bound to the session's id and cwd: a signed `mode` cannot be
 * moved to another session's file. Undefined when there is nothing to sign.
 */
export const settingsMacOf = (session: StoredSession, key: Uint8Array): string | undefined => {
  const power = powerOf(session);
  if (!hasPowerSettings(session)) return undefined;
  // The effort only when there is one: signatures made before efforts were kept still check.
  const effort = power.effort !== undefined ? [power.effort] : [];
  const body = asciiJson(["mm-session-settings", SESSION_VERSION, session.id, session.cwd, power.model ?? null, power.mode ?? null, ...effort]);
  return createHmac("sha256", key).update(body).digest("hex");
};

/**
 * The decoded session with only the settings mm can prove it wrote: its `mode` (other than `ask`),
 * `model` and `effort` are kept when `settingsMac` checks with `key`, else left out (the session runs in `ask`, on
 * the configured model and effort) and named in `unproven`. A file a repository ships, or a command rewrote,
 * cannot carry the user's key. Without a key nothing is proven. `cwd`: where the session is loaded.
 */
export const provenSession = (decoded: DecodedDocument, key: Uint8Array | undefined, cwd = decoded.session.cwd): StoredSession => {
  const { session, settingsMac } = decoded;
  const power = powerOf(session);
  if (!hasPowerSettings(session)) return session;
  // Checked against the cwd the session is loaded in: a signed file copied to another project proves nothing there.
  const expectedMac = key === undefined ? undefined : settingsMacOf({ ...session, cwd }, key);
  if (expectedMac !== undefined && settingsMac !== undefined && timingSafeEqual(Buffer.from(expectedMac, "hex"), Buffer.from(settingsMac, "hex"))) {
    return session;
  }
  const { model: _model, mode: _mode, effort: _effort, ...rest } = session;
  return { ...rest, unproven: power };
};
