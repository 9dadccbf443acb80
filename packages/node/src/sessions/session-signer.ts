/**
 * The user's key as jsonSessionStore signs and proves a session's power settings with it: read only
 * when a session has something to sign, and a key that cannot be had said once in the log.
 */
import type { StoredSession } from "@mm/core";
import type { UndoKeyLoader } from "../undo/undo-key.js";
import { processUndoKey } from "../undo/undo-key.js";
import { hasPowerSettings } from "./settings-signature.js";

/** `keyOf` the user's key (or undefined), `signerFor` a session: the key only when it has something to sign. */
export const sessionSigner = (key: UndoKeyLoader | undefined, warn: ((line: string) => void) | undefined) => {
  const keyLoader = key ?? processUndoKey();
  let keyWarned = false;
  /** The user's key, or undefined (said once in the log) when it cannot be had: the settings are then written unsigned. */
  const keyOf = async (): Promise<Uint8Array | undefined> => {
    const loaded = await keyLoader();
    if (loaded.isOk()) return loaded.value;
    if (!keyWarned) warn?.(`${loaded.error}: sessions are saved without proof of their mode and model, and load in "ask"`);
    keyWarned = true;
    return undefined;
  };
  /** The key when `session` has something to sign (a mode other than ask, a model, an effort), else undefined without reading it. */
  const signerFor = (session: StoredSession): Promise<Uint8Array | undefined> => (hasPowerSettings(session) ? keyOf() : Promise.resolve(undefined));
  return { keyOf, signerFor };
};
