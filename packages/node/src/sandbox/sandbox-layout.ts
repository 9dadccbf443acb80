/**
 * The layout of one command's sandbox, from the settings and what exists on disk right now:
 * writable directories and hidden paths that do not exist cannot be mounted, so they are left out
 * (a hidden path that appears later is masked from the next command on).
 */
import { lstat, mkdir, realpath, stat } from "node:fs/promises";
import type { BwrapLayout, HiddenMount } from "./bwrap-args.js";
import type { SandboxRoom } from "./sandbox-room.js";
import { hiddenPathsFor, madeReadOnlyFor, readOnlyPathsFor, type SandboxSettings } from "./sandbox-settings.js";
import { isWithin, SANDBOX_TMP } from "./sandbox-view.js";

type Kind = "dir" | "file" | undefined;

const kindOf = async (path: string): Promise<Kind> => {
  try {
    return (await stat(path)).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
};

const existing = async (paths: readonly string[]): Promise<readonly string[]> => {
  const kinds = await Promise.all(paths.map(kindOf));
  return paths.filter((_, i) => kinds[i] !== undefined);
};

const directories = async (paths: readonly string[]): Promise<readonly string[]> => {
  const kinds = await Promise.all(paths.map(kindOf));
  return paths.filter((_, i) => kinds[i] === "dir");
};

/**
 * A path as what it leads to: a hidden or read-only path that is a link (`~/.ssh -> /elsewhere`, or
 * one the model swapped for a link) is masked at its target, which is what a command would reach;
 * a link to nothing has nothing to mask.
 */
const targets = async (paths: readonly string[]): Promise<readonly string[]> => [
  ...new Set((await Promise.all(paths.map((path) => realpath(path).catch(() => undefined)))).filter((path): path is string => path !== undefined)),
];

/**
 * Makes `dir` (an empty directory) when nothing is at its place, so its read-only binding exists and a
 * command cannot make it its own; anything already there, a link included, is left as it is. A failure
 * is left to the command: it runs with the same rights in that directory.
 */
const made = async (dir: string): Promise<void> => {
  if ((await lstat(dir).catch(() => undefined)) !== undefined) return;
  await mkdir(dir).catch(() => undefined);
};

/**
 * Makes the read-only directories of a session in `cwd` that are absent (the cwd's `.mm`, and that of
 * each of its additional directories, `roots`), before its command's layout.
 */
export const makeReadOnlyDirs = async (cwd: string, roots: readonly string[] = []): Promise<void> => {
  await Promise.all([cwd, ...roots].flatMap(madeReadOnlyFor).map(made));
};

/**
 * The layout for a command run in `cwd` (an existing directory); `roots`, the session's additional
 * directories, are writable like it, with their own `.mm` (and sessions directory) read-only and their
 * `tools.hidden` relative entries hidden, as the cwd's.
 */
export const layoutFor = async (settings: SandboxSettings, room: SandboxRoom, cwd: string, roots: readonly string[] = []): Promise<BwrapLayout> => {
  const guarded = [cwd, ...roots].flatMap((dir) => readOnlyPathsFor(settings, dir));
  // `tools.hidden` relative entries apply in each additional directory as in the cwd (`.env` there too).
  const hiddenAll = [...new Set([cwd, ...roots].flatMap((dir) => hiddenPathsFor(settings, dir)))];
  const [hiddenPaths, protectedTargets] = await Promise.all([targets(hiddenAll), targets(guarded)]);
  const [writable, readOnly, hiddenKinds, protectedPaths] = await Promise.all([
    directories([...settings.writable, ...roots]),
    isWithin(settings.home, SANDBOX_TMP) ? directories([settings.home]) : Promise.resolve([]),
    Promise.all(hiddenPaths.map(kindOf)),
    // Whatever is there, a file included: a `.mm` that is a file must not be swapped for a directory.
    existing(protectedTargets),
  ]);
  const hidden = hiddenPaths.flatMap((path, i): HiddenMount[] => {
    const kind = hiddenKinds[i];
    return kind === undefined ? [] : [{ path, kind }];
  });
  return { cwd, writable, readOnly, protectedPaths, privateTmp: room.privateTmp, network: settings.network, hidden, masks: room.masks };
};
