/**
 * confinedReadText: how mm reads, on the host, a file that a project, a command or a model could
 * have written, to put it before the model on its own (AGENTS.md, a skill's SKILL.md). Only a regular
 * file inside `root` (the directory it belongs to) is read:
 *
 * - the path is walked component by component with `lstat` (resolve-in-view.ts, the walk the
 *   sandbox's file tools use), so a link is followed only while where it leads stays inside `root`:
 *   `AGENTS.md -> ~/.ssh/id_rsa` or `-> ../../.aws/credentials` is refused, `AGENTS.md -> docs/agents.md`
 *   (inside the root) is read;
 * - with the sandbox on, absolute link targets are taken as a sandboxed command sees them
 *   (`/tmp/…` is the sandbox's private /tmp);
 * - a hidden path (the built-in credentials and `tools.hidden`, with the sandbox on or off) is never
 *   read, whether named directly or reached through a link;
 * - the file found is opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO cannot hang the read, a link
 *   swapped in at the end is not followed), and on Linux the opened descriptor's own path is compared
 *   with the one decided on (a directory swapped for a link between the walk and the open is caught);
 * - it must be a regular file with one name (a hard link's other name may be a hidden path or lie
 *   outside `root`: no path check can see it), of at most `maxBytes`, and text (no NUL byte).
 */
import { open, readlink } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { FsError } from "../core-types.js";
import { fsErrorOf } from "../files/fs-error.js";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";
import { resolveInView } from "../sandbox/resolve-in-view.js";
import { isWithin, type SandboxView } from "../sandbox/sandbox-view.js";
import { realPathOf } from "./real-path.js";

/** Default cap of a confined read: 1 MiB (instructions, not data). */
export const DEFAULT_CONFINED_READ_BYTES = 1024 * 1024;

/** One confined read. */
export type ConfinedRead = {
  /** The directory the file belongs to (absolute): nothing outside it is read. */
  readonly root: string;
  /** The file: absolute, or relative to `root`. */
  readonly path: string;
  /** Paths never read (absolute; `hiddenPathsFor`'s answer). */
  readonly hidden: readonly string[];
  /** How paths are seen when the sandbox is on (its private /tmp); the host's own when absent. */
  readonly view?: SandboxView | undefined;
  /** Larger files fail `too-large`. Default {@link DEFAULT_CONFINED_READ_BYTES}. */
  readonly maxBytes?: number;
};

/** The words of a refusal, each naming what was refused and why. */
export const OUTSIDE_ROOT = (root: string) => `refused: it leads out of ${root} (a link leaving the directory it belongs to is never followed)`;
export const HIDDEN_PATH = "refused: a hidden path (a secret: the built-in list or tools.hidden)";
const LINK_LOOP = "refused: too many levels of symbolic links";

/** A view in which every path is the host's own: no private /tmp. */
const hostView = (root: string): SandboxView => ({ cwd: root, writable: [], home: "/", privateTmp: "/tmp" });

type Decided = { readonly host: string };

/** Where `read.path` leads on the host, or why it is refused. */
const decide = async (read: ConfinedRead, asked: string): Promise<Result<Decided, FsError>> => {
  const view = read.view ?? hostView(read.root);
  const [root, target, hidden] = await Promise.all([
    resolveInView(view, read.root),
    resolveInView(view, asked),
    Promise.all(read.hidden.map((path) => realPathOf(path))),
  ]);
  if (root.kind !== "path") return err({ kind: "not-found", path: asked });
  if (target.kind === "loop") return err({ kind: "io", path: asked, message: LINK_LOOP });
  if (target.kind === "dangling") return err({ kind: "not-found", path: asked });
  const host = target.host;
  const named = [asked, host];
  if (named.some((path) => read.hidden.some((dir) => isWithin(path, dir)) || hidden.some((dir) => isWithin(path, dir)))) {
    return err({ kind: "io", path: asked, message: HIDDEN_PATH });
  }
  if (!isWithin(host, root.host)) return err({ kind: "io", path: asked, message: OUTSIDE_ROOT(read.root) });
  return ok({ host });
};

const notRegular = (info: { isFile(): boolean; isDirectory(): boolean; isFIFO(): boolean }, path: string): FsError | undefined => {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return { kind: "is-directory", path };
  return { kind: "io", path, message: `refused: not a regular file (${info.isFIFO() ? "a FIFO" : "a special file"})` };
};

/** The path the kernel says an open descriptor is at; undefined where /proc cannot say. */
const openedPath = async (fd: number): Promise<string | undefined> => readlink(`/proc/self/fd/${fd}`).catch(() => undefined);

const readDecided = async (asked: string, host: string, maxBytes: number): Promise<Result<string, FsError>> => {
  const handle = await open(host, SAFE_READ_FLAGS);
  try {
    const opened = await openedPath(handle.fd);
    if (opened !== undefined && opened !== host) return err({ kind: "io", path: asked, message: "refused: it changed while being opened (a link swapped in)" });
    const info = await handle.stat();
    const special = notRegular(info, asked);
    if (special !== undefined) return err(special);
    // A hard link is another name of the same file: no check of the path can tell that it is
    // `~/.ssh/id_rsa` or a hidden `.env`, so a file with more than one name is not read.
    if (info.nlink > 1)
      return err({ kind: "io", path: asked, message: `refused: a hard link (the file has ${info.nlink} names; another may be hidden or outside)` });
    if (info.size > maxBytes) return err({ kind: "too-large", path: asked, size: info.size });
    const buffer = Buffer.alloc(maxBytes + 1);
    let total = 0;
    while (total < buffer.length) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > maxBytes) return err({ kind: "too-large", path: asked, size: total });
    const bytes = buffer.subarray(0, total);
    return bytes.includes(0) ? err({ kind: "binary", path: asked }) : ok(bytes.toString("utf8"));
  } finally {
    await handle.close();
  }
};

/** The text of a regular file inside `read.root`, read through the boundary described above; never throws or rejects. */
export const confinedReadText = (read: ConfinedRead): ResultAsync<string, FsError> => {
  const asked = isAbsolute(read.path) ? resolve(read.path) : resolve(read.root, read.path);
  const run = async (): Promise<Result<string, FsError>> => {
    const decided = await decide(read, asked);
    if (decided.isErr()) return err(decided.error);
    return readDecided(asked, decided.value.host, read.maxBytes ?? DEFAULT_CONFINED_READ_BYTES);
  };
  return new ResultAsync(run().catch((error: unknown) => err(fsErrorOf(asked, error, "read"))));
};

/** Whether `path` (absolute) stays, link by link, inside `root` and out of `hidden`: for listing a folder's files without pointing past it. */
export const staysInside = async (root: string, path: string, hidden: readonly string[], view?: SandboxView): Promise<boolean> =>
  (await decide({ root, path, hidden, view }, resolve(path))).isOk();
