/**
 * What confines a sandboxed command and the file tools under `tools.sandbox: "workspace"`: the
 * settings taken from the configuration, and the secrets every sandbox hides.
 */
import { isAbsolute, resolve } from "node:path";

/** Always hidden: credentials in the home directory, and the Docker socket (root on the host). */
export const BUILT_IN_HIDDEN: readonly string[] = ["~/.ssh", "~/.aws", "~/.config/gcloud", "~/.gnupg", "~/.netrc", "/run/docker.sock", "/var/run/docker.sock"];

/**
 * Always read-only, relative to each session's cwd: mm's own directory there (`.mm`: sessions, undo
 * data, the project's config and skills). Made before a command when absent, so its binding always
 * exists: a command can neither write in it nor rename it (a mount point cannot be renamed), nor make
 * one of its own (issue 36: `mv .mm .mm-x && mkdir -p .mm/sessions` and a forged document).
 */
export const BUILT_IN_READ_ONLY: readonly string[] = [".mm"];

/** The sandbox's settings, paths already expanded where they can be. */
export type SandboxSettings = {
  /** The home directory; `~` in hidden paths means it. */
  readonly home: string;
  /** Directories writable besides the session's cwd and the private /tmp; absolute. */
  readonly writable: readonly string[];
  /** Whether commands have the network (else their own, empty, network namespace). */
  readonly network: boolean;
  /** `tools.hidden`: absolute, `~/…`, or relative to each session's cwd. */
  readonly hidden: readonly string[];
  /**
   * Paths shown read-only even inside a writable directory (the sessions directory: a command must not
   * forge what `session/load` replays as the user's, nor plant a lock); absolute, `~/…`, or relative to
   * each session's cwd.
   */
  readonly readOnly?: readonly string[];
};

const expanded = (path: string, home: string, cwd: string): string => {
  if (path === "~" || path.startsWith("~/")) return resolve(home, `.${path.slice(1)}`);
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
};

/** The read-only paths of a session in `cwd`: the built-in ones, then the settings'; absolute, no duplicates. */
export const readOnlyPathsFor = (settings: SandboxSettings, cwd: string): readonly string[] => [
  ...new Set([...BUILT_IN_READ_ONLY, ...(settings.readOnly ?? [])].map((path) => expanded(path, settings.home, cwd))),
];

/** The read-only directories made before each command of a session in `cwd` when absent (the cwd's `.mm`); absolute. */
export const madeReadOnlyFor = (cwd: string): readonly string[] => BUILT_IN_READ_ONLY.map((path) => resolve(cwd, path));

/** The hidden paths of a session in `cwd`: the built-in ones, then `tools.hidden`; absolute, no duplicates. */
export const hiddenPathsFor = (settings: SandboxSettings, cwd: string): readonly string[] => [
  ...new Set([...BUILT_IN_HIDDEN, ...settings.hidden].map((path) => expanded(path, settings.home, cwd))),
];
