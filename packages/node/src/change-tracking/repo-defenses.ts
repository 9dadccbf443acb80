/**
 * What a repository could make the tracker's `git add` run: the clean (and process) command of a
 * filter driver its configuration defines and its `.gitattributes` name, a diff driver's textconv.
 * Before each batch of git steps the drivers configured are listed (reading configuration runs
 * nothing) and each is turned off with empty commands, as command-line settings above the
 * repository's; then the settings git would use are read back and checked: any program left is a
 * refusal (the cwd's changes are then not reported), never a run.
 */
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { FORCED_SETTINGS, gitEnvironment, runGit, type GitFailure, type GitSetting } from "./run-git.js";

/** Settings that name a program git would run. */
const PROGRAM_KEYS =
  /^(filter\..+\.(clean|smudge|process)|diff\..+\.(textconv|command)|diff\.external|core\.fsmonitor|core\.hookspath|core\.sshcommand|core\.askpass)$/i;
const DRIVERS = /^(filter|diff)\.(.+)\.[^.]+$/i;

/**
 * A setting's name as git matches it: section and key are case-insensitive, the subsection (a
 * driver's name) is not, so `filter.EVIL.clean` and `filter.evil.clean` are two drivers.
 */
export const settingName = (name: string): string => {
  const first = name.indexOf(".");
  const last = name.lastIndexOf(".");
  if (first === -1 || first === last) return name.toLowerCase();
  return `${name.slice(0, first).toLowerCase()}${name.slice(first, last)}${name.slice(last).toLowerCase()}`;
};

/** `name\nvalue` entries of `git config -z --get-regexp`, the last value of each name (the one git uses). */
export const lastValues = (listing: string): Map<string, string> => {
  const values = new Map<string, string>();
  for (const entry of listing.split("\0")) {
    if (entry === "") continue;
    const newline = entry.indexOf("\n");
    values.set(settingName(newline === -1 ? entry : entry.slice(0, newline)), newline === -1 ? "" : entry.slice(newline + 1));
  }
  return values;
};

/** The settings that turn off every filter and diff driver of `listing`. */
export const driverSettings = (listing: string): GitSetting[] => {
  const drivers = new Set<string>();
  for (const name of lastValues(listing).keys()) {
    const match = DRIVERS.exec(name);
    if (match !== null) drivers.add(`${match[1]?.toLowerCase()}.${match[2]}`);
  }
  return [...drivers].flatMap((driver): GitSetting[] =>
    driver.startsWith("filter.")
      ? [
          [`${driver}.clean`, ""],
          [`${driver}.smudge`, ""],
          [`${driver}.process`, ""],
          [`${driver}.required`, "false"],
        ]
      : [
          [`${driver}.textconv`, ""],
          [`${driver}.command`, ""],
        ],
  );
};

/** A program still named once the settings apply, or undefined. */
export const programLeft = (listing: string): string | undefined => {
  const harmless = new Map(FORCED_SETTINGS.map(([name, value]) => [settingName(name), value]));
  for (const [name, value] of lastValues(listing)) {
    if (!PROGRAM_KEYS.test(name) || value === "" || value === harmless.get(name) || value === "false") continue;
    return `${name}=${value}`;
  }
  return undefined;
};

const listConfig = (git: string, top: string, base: NodeJS.ProcessEnv, settings: readonly GitSetting[], timeoutMs: number): ResultAsync<string, GitFailure> =>
  runGit({
    git,
    args: ["config", "-z", "--get-regexp", "^(filter|diff|core)\\."],
    cwd: top,
    env: gitEnvironment(base, undefined, settings),
    timeoutMs,
    alsoOk: [1],
  }).map((out) => out.toString("utf8"));

/** The settings that keep the repository at `top` from running anything, checked; a refusal names what would still run. */
export const repositoryDefenses = (git: string, top: string, base: NodeJS.ProcessEnv, timeoutMs: number): ResultAsync<readonly GitSetting[], GitFailure> =>
  listConfig(git, top, base, [], timeoutMs).andThen((listing) => {
    const settings = driverSettings(listing);
    return listConfig(git, top, base, settings, timeoutMs).andThen((checked) => {
      const left = programLeft(checked);
      return left === undefined
        ? okAsync(settings)
        : errAsync({ timedOut: false, message: `the repository's configuration would run a program (${left.slice(0, 120)}): its changes are not tracked` });
    });
  });

/**
 * Why git's object store at `objects` would carry the tracker's writes out of the work tree at `top`,
 * or undefined. A command may replace `.git/objects`, or one of its fan-out directories, with a link
 * (a sandboxed one too: `.git` is in its writable cwd); the tracker's `git add` on the host would then
 * write objects wherever it points, past the sandbox. An `info/alternates` would make git read
 * another repository's objects. Checked before every batch of git steps (a readdir and about 260
 * `lstat`s, well under a millisecond); the cwd's changes are then not tracked, never written out.
 */
export const objectStoreEscape = (objects: string, top: string): string | undefined => {
  try {
    const store = lstatSync(objects, { throwIfNoEntry: false });
    if (store === undefined) return undefined;
    if (!store.isDirectory()) return `${objects} is not a directory (a link?)`;
    const inside = relative(realpathSync(top), realpathSync(objects));
    if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`)) return `${objects} lies outside the work tree`;
    for (const name of readdirSync(objects, { withFileTypes: true })) if (name.isSymbolicLink()) return `${join(objects, name.name)} is a link`;
    if (lstatSync(join(objects, "info", "alternates"), { throwIfNoEntry: false }) !== undefined)
      return `${objects} borrows another repository's objects (info/alternates)`;
    return undefined;
  } catch (error) {
    return `${objects} could not be checked: ${error instanceof Error ? error.message : String(error)}`;
  }
};
