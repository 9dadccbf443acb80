/**
 * What a turn changes on disk, recorded for `/undo` as the turn goes: before a file tool writes, what
 * its files hold; after each call, the files it changed (its diffs: a file tool's, or the change
 * tracker's for a command) with their before-state kept as a blob and what the call left. The log is
 * saved after every call that changed a file, before the turn goes on, so a crash loses nothing.
 */
import type { History } from "../history/message.js";
import { landingPath, type FileSystem } from "../ports/file-system.js";
import {
  describeUndoStoreError,
  type FileNow,
  type UndoFile,
  type UndoFileState,
  type UndoLimits,
  type UndoPlace,
  type UndoStore,
  type UndoTurn,
} from "../ports/undo-store.js";
import { sizeText } from "../tools/size-text.js";
import type { ToolOutcome } from "../tools/tool.js";
import { carriedOver, lastTurnIndex, questionKey, withinBudget } from "./undo-log.js";

/** The recorder of one turn (see the module comment). Its methods never throw. */
export type TurnFiles = {
  /** Before a call that names the files it writes (a file tool): keeps what they hold now. */
  readonly beforeCall: (paths: readonly string[]) => Promise<void>;
  /** After a call: records the files it changed (its diffs, and the named files that differ now), and saves. */
  readonly afterCall: (named: readonly string[], outcome: ToolOutcome) => Promise<void>;
  /**
   * At the turn's end: puts the record at its prompt's place in the final history, and saves. Answers
   * why the turn's record is not kept when its last save failed (then `/undo` must not read the
   * missing record as a turn that changed nothing).
   */
  readonly finish: (history: History) => Promise<string | undefined>;
};

export type TurnFilesDeps = {
  readonly store: UndoStore;
  /** The session's file system: where paths land (links resolved, within the sandbox's view). */
  readonly fs: FileSystem;
  readonly limits: UndoLimits;
  readonly warn: (line: string) => void;
  /** Wall-clock time, ms since the epoch: when the turn starts, to tell files older than it. */
  readonly now?: () => number;
};

const sameNow = (a: FileNow, b: FileNow): boolean => {
  if (a.kind === "absent" || b.kind === "absent") return a.kind === b.kind;
  if (a.kind !== "bytes" || b.kind !== "bytes" || a.bytes.length !== b.bytes.length) return false;
  if (a.mode !== undefined && b.mode !== undefined && a.mode !== b.mode) return false;
  return a.bytes.every((byte, i) => byte === b.bytes[i]);
};

/** The mode field of a state, when the mode was seen. */
const modeOf = (mode: number | undefined): { readonly mode?: number } => (mode === undefined ? {} : { mode });

/** What a file holds now, as the undo log keeps it: absent, its bytes' hash, size and mode, or why it cannot be read. */
export const stateOfNow = (store: Pick<UndoStore, "hash">, now: FileNow): UndoFileState =>
  now.kind === "absent"
    ? now
    : now.kind === "bytes"
      ? { kind: "blob", hash: store.hash(now.bytes), size: now.bytes.length, ...modeOf(now.mode) }
      : { kind: "unknown", reason: now.reason };

/**
 * Where the entry at `path` is, its directory's links resolved but not its own: a changed entry the
 * change tracker names is the entry itself (a link the command made is the link, not what it points to).
 */
const entryPath = async (fs: FileSystem, path: string): Promise<string> => {
  const slash = path.lastIndexOf("/");
  if (slash <= 0) return path;
  const dir = await landingPath(fs, path.slice(0, slash));
  return `${dir === "/" ? "" : dir}/${path.slice(slash + 1)}`;
};

const notKept = (note: string | undefined): UndoFileState => ({
  kind: "unknown",
  reason: `its content before the turn was not kept${note === undefined ? "" : ` (${note})`}`,
});

/** What the record holds of a hidden path: nothing of its content. */
const HIDDEN: UndoFileState = { kind: "unknown", reason: "a hidden path: /undo never reads nor keeps it" };

/**
 * Why a file new at its path is not taken as made by the turn: its inode is older than the turn, so it
 * was moved or linked there from where the change tracker does not look, and may be the only copy.
 */
export const OLDER_THAN_TURN =
  "there before the turn under another name: moved or linked here from where mm does not look (a directory git ignores, node_modules), so it may hold the only copy";

/** Starts recording the turn that runs from `start` (its prompt goes at `start.length` in the history). */
export const turnFiles = async (deps: TurnFilesDeps, place: UndoPlace, start: History, question: string): Promise<TurnFiles> => {
  const { store, fs, limits } = deps;
  const startedAt = deps.now?.();
  const at = start.length;
  const loaded = await store.loadLog(place);
  if (loaded.isErr()) deps.warn(`session ${place.sessionId}: undo data not read, earlier turns cannot be undone: ${describeUndoStoreError(loaded.error)}`);
  const known = loaded.isOk() ? loaded.value.turns : [];
  // A record at or past this prompt's place is stale: the history went back before it (an /undo
  // whose log was not saved, a crash).
  let earlier: readonly UndoTurn[] = known.filter((turn) => turn.at < at);
  let dirty = earlier.length !== known.length || loaded.isErr();
  let turnAt = at;
  const files = new Map<string, UndoFile>();
  const pending = new Map<string, FileNow>();
  let saveProblem: string | undefined;

  const keep = async (now: FileNow): Promise<UndoFileState> => {
    if (now.kind === "absent") return now;
    if (now.kind === "unreadable") return { kind: "unknown", reason: now.reason };
    const size = now.bytes.length;
    if (size > limits.maxFileBytes) return { kind: "unknown", reason: `larger than ${sizeText(limits.maxFileBytes)}, the most /undo keeps of a file` };
    const fits = withinBudget(earlier, [...files.values()], size, limits.maxSessionBytes);
    if (fits === undefined) return { kind: "unknown", reason: `over the ${sizeText(limits.maxSessionBytes)} /undo keeps for a session` };
    if (fits.length !== earlier.length) dirty = true;
    earlier = fits;
    const put = await store.putBlob(place, now.bytes);
    return put.isOk()
      ? { kind: "blob", hash: put.value, size, ...modeOf(now.mode) }
      : { kind: "unknown", reason: `not kept: ${describeUndoStoreError(put.error)}` };
  };

  const save = async (): Promise<void> => {
    const turns = files.size === 0 ? earlier : [...earlier, { at: turnAt, question: questionKey(question), files: [...files.values()] }];
    const saved = await store.saveLog(place, { turns });
    dirty = saved.isErr();
    const problem = saved.isErr() ? describeUndoStoreError(saved.error) : undefined;
    if (problem !== undefined && problem !== saveProblem) deps.warn(`session ${place.sessionId}: undo data not saved: ${problem}`);
    saveProblem = problem;
  };

  /** A file whose inode was made before the turn started (where the file system tells). */
  const olderThanTurn = (now: FileNow): boolean => now.kind === "bytes" && startedAt !== undefined && now.born !== undefined && now.born < startedAt;

  /**
   * Whether the record accounts for what `now` holds anyway: the state before the turn of another file
   * it puts back (a rename of a file the tracker follows), so removing it loses nothing; or a file the
   * turn changed or removed whose state before was not kept (it may be that file renamed: /undo then
   * removes nothing the turn made, and names them).
   */
  const keptElsewhere = (now: FileNow, path: string, outcome: ToolOutcome): boolean => {
    if (now.kind !== "bytes") return false;
    const hash = store.hash(now.bytes);
    for (const file of files.values()) if (file.before.kind === "unknown" || (file.before.kind === "blob" && file.before.hash === hash)) return true;
    for (const diff of outcome.diffs) {
      if (diff.path === path) continue;
      const kept = outcome.before?.(diff.path);
      if (kept === undefined || outcome.hidden?.(diff.path) === true) return true;
      if (kept !== null && kept.bytes.length === now.bytes.length && store.hash(kept.bytes) === hash) return true;
    }
    return false;
  };

  const beforeCall = async (paths: readonly string[]): Promise<void> => {
    for (const path of paths) {
      const landed = await landingPath(fs, path);
      if (!files.has(landed) && !pending.has(landed)) pending.set(landed, await store.read(landed, limits.maxFileBytes));
    }
  };

  const afterCall = async (named: readonly string[], outcome: ToolOutcome): Promise<void> => {
    let changed = false;
    for (const path of new Set([...outcome.diffs.map((d) => d.path), ...named])) {
      // A file tool writes through a link to its target; a diff names the entry that changed.
      const landed = named.includes(path) ? await landingPath(fs, path) : await entryPath(fs, path);
      // Either way: the cwd itself may be reached through a link, and the sessions dir is named under it.
      if (store.owns(place.cwd, path) || store.owns(place.cwd, landed)) continue;
      // A hidden path is never read, nor its hash kept: named as changed, not restorable.
      if (outcome.hidden?.(path) === true) {
        const recorded = files.get(landed);
        pending.delete(landed);
        files.set(landed, { path: landed, before: recorded?.before ?? HIDDEN, after: HIDDEN });
        changed = true;
        continue;
      }
      const now = await store.read(landed, limits.maxFileBytes);
      const recorded = files.get(landed);
      if (recorded !== undefined) {
        files.set(landed, { ...recorded, after: stateOfNow(store, now) });
        changed = true;
        continue;
      }
      const diff = outcome.diffs.find((d) => d.path === path);
      let before = pending.get(landed);
      pending.delete(landed);
      if (before === undefined) {
        const kept = outcome.before?.(path);
        before = kept === undefined ? undefined : kept === null ? { kind: "absent" } : { kind: "bytes", bytes: kept.bytes, ...modeOf(kept.mode) };
      }
      if (diff === undefined && (before === undefined || sameNow(before, now))) continue;
      if (before?.kind === "absent" && olderThanTurn(now) && !keptElsewhere(now, path, outcome)) {
        files.set(landed, { path: landed, before: { kind: "unknown", reason: OLDER_THAN_TURN }, after: stateOfNow(store, now) });
        changed = true;
        continue;
      }
      files.set(landed, { path: landed, before: before === undefined ? notKept(diff?.note) : await keep(before), after: stateOfNow(store, now) });
      changed = true;
    }
    if (changed || dirty) await save();
  };

  const finish = async (history: History): Promise<string | undefined> => {
    // Compacted during the turn when the history no longer starts with the one the turn started
    // from: the earlier records go to their turns' new places, or go. (A turn that ended before any
    // answer leaves the history as it started: the last prompt is then an earlier turn's, perhaps
    // with the same words, and the records stay.)
    const compacted = history.length < start.length || start.some((message, i) => history[i] !== message);
    if (compacted) {
      const last = lastTurnIndex(history);
      const message = last === undefined ? undefined : history[last];
      earlier = carriedOver(earlier, start, history);
      if (last !== undefined && message?.role === "user" && questionKey(message.text) === questionKey(question)) turnAt = last;
      else files.clear();
      dirty = true;
    }
    if (dirty) await save();
    return files.size > 0 ? saveProblem : undefined;
  };

  return {
    beforeCall: (paths) => beforeCall(paths).catch((e: unknown) => deps.warn(`undo: ${String(e)}`)),
    afterCall: (named, outcome) => afterCall(named, outcome).catch((e: unknown) => deps.warn(`undo: ${String(e)}`)),
    finish: (history) =>
      finish(history).catch((e: unknown) => {
        deps.warn(`undo: ${String(e)}`);
        return `undo: ${String(e)}`;
      }),
  };
};
