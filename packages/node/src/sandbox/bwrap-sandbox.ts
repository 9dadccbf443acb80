/**
 * bwrapSandbox: `tools.sandbox: "workspace"` on bubblewrap. Makes the sandbox's room, checks once
 * that bwrap can confine a command here, then wraps every bash command in it (or refuses it, saying
 * why and what to install, when it cannot: never a silent fallback to running unconfined), appends
 * a hint when the sandbox refused what a command tried, and confines the file tools the same way.
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { CommandWrapper } from "../shell/command-wrapper.js";
import type { FileSystem, ShellError } from "../core-types.js";
import { bwrapArgs } from "./bwrap-args.js";
import { probeBwrap, unavailableMessage, type SandboxUnavailable } from "./probe.js";
import { withSandboxHints } from "./sandbox-hint.js";
import { layoutFor, makeReadOnlyDirs } from "./sandbox-layout.js";
import { createSandboxRoom, type SandboxRoom } from "./sandbox-room.js";
import { hiddenPathsFor, type SandboxSettings } from "./sandbox-settings.js";
import { sandboxedFileSystem } from "./sandboxed-file-system.js";

/** Options of {@link bwrapSandbox}. */
export type BwrapSandboxOptions = SandboxSettings & {
  /** The bwrap program; looked up on PATH when not absolute. Default `bwrap`. */
  readonly bwrapPath?: string;
  /** Where the sandbox's room is made. Default the system temp dir. */
  readonly roomParent?: string;
};

/** A started sandbox: the shell wrapper, the file systems' boundary, and its cleanup. */
export type BwrapSandbox = {
  /** Settles once the start-up check is done: ok, or why commands cannot run sandboxed. */
  readonly ready: Promise<Result<void, SandboxUnavailable>>;
  /** For `bashShell({ wrapper })`. */
  readonly wrapper: CommandWrapper;
  /** A session's file system confined like its commands; `cwd` answers the session's cwd, `roots` its additional directories. */
  readonly confine: (inner: FileSystem, cwd: () => string | undefined, roots?: () => readonly string[]) => FileSystem;
  /** Removes the room (the private /tmp with it); synchronous, for an `exit` handler. */
  readonly dispose: () => void;
  /** The host directory of the sandbox's private /tmp and masks, when it was made (to remove if the agent dies). */
  readonly roomDir: string | undefined;
  /** The host directory commands see as /tmp (the boundary's view of links into /tmp); a path nothing is at when the room could not be made. */
  readonly privateTmp: string;
};

const refused = (why: SandboxUnavailable): ShellError => ({ kind: "spawn", message: unavailableMessage(why) });

/** The trial run works in `/`: a cwd under /tmp would leave its mount point in the private /tmp. */
const startChecked = (bwrapPath: string, settings: SandboxSettings, room: SandboxRoom): Promise<Result<void, SandboxUnavailable>> =>
  layoutFor(settings, room, "/").then((layout) => probeBwrap(bwrapPath, bwrapArgs(layout)));

/** Sets the sandbox up; the check runs in the background and every command waits for it. */
export const bwrapSandbox = (options: BwrapSandboxOptions): BwrapSandbox => {
  const bwrapPath = options.bwrapPath ?? "bwrap";
  const settings: SandboxSettings = {
    home: options.home,
    writable: options.writable,
    network: options.network,
    hidden: options.hidden,
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
  };
  const made = createSandboxRoom(options.roomParent);
  const room: SandboxRoom | undefined = made.isOk() ? made.value : undefined;
  const ready: Promise<Result<void, SandboxUnavailable>> = made.match(
    (room) => startChecked(bwrapPath, settings, room),
    (message) =>
      Promise.resolve(
        err({ reason: `its private /tmp could not be made (${message})`, remedy: 'make the system temp directory writable, or set tools.sandbox to "off"' }),
      ),
  );
  const wrapper: CommandWrapper = {
    wrap: (bashArgv, request) =>
      new ResultAsync(
        ready.then(async (checked): Promise<Result<readonly string[], ShellError>> => {
          if (checked.isErr()) return err(refused(checked.error));
          if (room === undefined) return err({ kind: "spawn", message: "the sandbox has no room" });
          // The cwd's `.mm` made first when absent: it is bound read-only, so the command cannot make its own.
          const roots = request.writable ?? [];
          await makeReadOnlyDirs(request.cwd, roots);
          const layout = await layoutFor(settings, room, request.cwd, roots);
          return ok([bwrapPath, ...bwrapArgs(layout), "--", ...bashArgv]);
        }),
      ),
    finish: (result, request) =>
      result.timedOut || result.cancelled
        ? result
        : {
            ...result,
            output: withSandboxHints(result.output, {
              network: settings.network,
              hidden: hiddenPathsFor(settings, request.cwd),
              cwd: request.cwd,
              home: settings.home,
            }),
          },
  };
  return {
    ready,
    wrapper,
    confine: (inner, cwd, roots) =>
      sandboxedFileSystem(inner, { settings, privateTmp: room?.privateTmp ?? "/nonexistent/mm-sandbox-tmp", cwd, ...(roots !== undefined ? { roots } : {}) }),
    privateTmp: room?.privateTmp ?? "/nonexistent/mm-sandbox-tmp",
    dispose: () => room?.remove(),
    roomDir: room?.dir,
  };
};
