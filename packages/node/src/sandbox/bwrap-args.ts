/**
 * bwrapArgs: the bubblewrap options that confine one command — the host read-only, the session's
 * cwd and the writable directories read-write, a private /tmp, the hidden paths masked, its own
 * user, PID, IPC and (unless allowed) network namespaces, no capabilities. Pure.
 */
import { isWithin, SANDBOX_TMP } from "./sandbox-view.js";

/** A hidden path that exists, and what masks it: an empty unreadable directory or file. */
export type HiddenMount = { readonly path: string; readonly kind: "dir" | "file" };

/** Everything one command's sandbox is made of; every path absolute and existing. */
export type BwrapLayout = {
  readonly cwd: string;
  /** Writable directories besides the cwd. */
  readonly writable: readonly string[];
  /** Directories under /tmp shown read-only through the private one (the home, when it lives there). */
  readonly readOnly: readonly string[];
  /** Existing paths inside the writable ones shown read-only (the cwd's `.mm`, the sessions directory). */
  readonly protectedPaths?: readonly string[];
  /** The host directory mounted as /tmp. */
  readonly privateTmp: string;
  readonly network: boolean;
  readonly hidden: readonly HiddenMount[];
  /** Mode-000 stand-ins bound over hidden directories and files. */
  readonly masks: { readonly dir: string; readonly file: string };
};

const depth = (path: string): number => path.split("/").filter((part) => part !== "").length;

type Bind = { readonly path: string; readonly writable: boolean };

const byDepth = (binds: readonly Bind[]): readonly Bind[] =>
  [...binds].sort((a, b) => depth(a.path) - depth(b.path) || Number(a.writable) - Number(b.writable));

const bindArgs = (binds: readonly Bind[]): readonly string[] =>
  byDepth(binds).flatMap((bind) => [bind.writable ? "--bind" : "--ro-bind", bind.path, bind.path]);

/**
 * The options to put before `-- command…`. Mount order matters: directories under /tmp are bound
 * after the private /tmp, and the masks last, so nothing later uncovers a hidden path.
 *
 * No `--new-session`: bwrap and the command stay in the process group bashShell signals. No
 * `--die-with-parent` either: bwrap's own process dies of the group's SIGTERM, and with that flag it
 * would SIGKILL the command at once, taking away the grace a command gets to clean up (TERM, then
 * KILL after 2 s, as unsandboxed). The group's SIGKILL still ends everything: the sandbox's init is
 * in the group, and the PID namespace dies with it.
 */
export const bwrapArgs = (layout: BwrapLayout): readonly string[] => {
  const writable = [...new Set([layout.cwd, ...layout.writable])];
  const underTmp = (path: string): boolean => isWithin(path, SANDBOX_TMP);
  const readOnly = layout.readOnly.filter((dir) => underTmp(dir) && !writable.some((rw) => isWithin(dir, rw)));
  const visible = (path: string): boolean => !underTmp(path) || [...writable, ...readOnly].some((dir) => underTmp(dir) && isWithin(path, dir));
  const guarded = (layout.protectedPaths ?? []).filter((path) => writable.some((rw) => isWithin(path, rw)));
  return [
    "--ro-bind",
    "/",
    "/",
    ...bindArgs([
      ...writable.filter((dir) => !underTmp(dir)).map((path) => ({ path, writable: true })),
      ...guarded.filter((p) => !underTmp(p)).map((path) => ({ path, writable: false })),
    ]),
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    layout.privateTmp,
    SANDBOX_TMP,
    ...bindArgs([
      ...readOnly.map((path) => ({ path, writable: false })),
      ...writable.filter(underTmp).map((path) => ({ path, writable: true })),
      ...guarded.filter(underTmp).map((path) => ({ path, writable: false })),
    ]),
    ...layout.hidden
      .filter((hidden) => visible(hidden.path))
      .flatMap((hidden) => ["--ro-bind", hidden.kind === "dir" ? layout.masks.dir : layout.masks.file, hidden.path]),
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    ...(layout.network ? [] : ["--unshare-net"]),
    "--cap-drop",
    "ALL",
    "--setenv",
    "TMPDIR",
    SANDBOX_TMP,
    "--chdir",
    layout.cwd,
  ];
};
