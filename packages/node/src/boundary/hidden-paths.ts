/**
 * "Is this path hidden?" for the host-side helpers that walk a cwd (the change trackers): the
 * sandbox's hidden set (`hiddenPathsFor`: the built-in credentials, `tools.hidden`, mm's state dir),
 * each path also at what it leads to (the sandbox masks a hidden link at its target), with the
 * sandbox on or off. A stamp of a hidden path tells that it changed without reading what it holds.
 */
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { isWithin } from "../sandbox/sandbox-view.js";

/** Entries a hidden directory's stamp looks at, at most: past them, later entries are not compared. */
const MAX_STAMPED_ENTRIES = 2000;

const realOrUndefined = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/**
 * The hidden paths at or under `dir` (absolute `hidden`, as `hiddenPathsFor` answers), relative to
 * `dir`, with what they lead to; "" when `dir` itself is hidden (or inside a hidden path).
 */
export const hiddenUnder = (hidden: readonly string[], dir: string): readonly string[] => {
  if (hidden.length === 0) return [];
  const roots = [...new Set([dir, realOrUndefined(dir) ?? dir])];
  const targets = [...new Set([...hidden, ...hidden.map(realOrUndefined).filter((path): path is string => path !== undefined)])];
  const found = new Set<string>();
  for (const root of roots) {
    for (const path of targets) {
      if (isWithin(root, path)) found.add("");
      else if (isWithin(path, root)) found.add(relative(root, path));
    }
  }
  return [...found].sort();
};

/** Whether `path` (relative to the same directory as `hidden`, from {@link hiddenUnder}) is or lies under one of them. */
export const isHiddenRelative = (hidden: readonly string[], path: string): boolean =>
  hidden.some((dir) => dir === "" || path === dir || path.startsWith(`${dir}/`));

const stampOf = (path: string): string => {
  try {
    const info = lstatSync(path, { bigint: true });
    return `${info.mode}:${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
  } catch {
    return "absent";
  }
};

const isDirectory = (path: string): boolean => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * What tells that a hidden path changed, content never read: its `lstat` (links not followed) and,
 * for a directory, those of the entries under it (the first {@link MAX_STAMPED_ENTRIES}).
 */
export const hiddenStamp = (path: string): string => {
  const top = stampOf(path);
  if (top === "absent" || !isDirectory(path)) return top;
  const parts = [top];
  const dirs = [path];
  for (let dir = dirs.pop(); dir !== undefined && parts.length < MAX_STAMPED_ENTRIES; dir = dirs.pop()) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (parts.length >= MAX_STAMPED_ENTRIES) break;
      const child = join(dir, name);
      const stamp = stampOf(child);
      parts.push(`${relative(path, child)}=${stamp}`);
      if (isDirectory(child)) dirs.push(child);
    }
  }
  return parts.join("|");
};
