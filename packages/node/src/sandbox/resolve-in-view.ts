/**
 * Where a path leads, link by link, as a sandboxed command would follow it: each component looked at
 * with `lstat`, each symbolic link's target read and, when absolute, taken as the sandbox sees it
 * (`/tmp/…` is the private /tmp, not the host's). The file tools decide on, and then open, the host
 * path this gives, so a link the model planted cannot lead them where a command could not go: into
 * the host's real /tmp, out of the writable directories, or (a dangling link) to create a file
 * elsewhere.
 */
import { lstat, readlink } from "node:fs/promises";
import { posix } from "node:path";
import { boundUnderTmp, hostPathOf, isWithin, type SandboxView } from "./sandbox-view.js";

/** Links followed before giving up (Linux's own limit). */
const MAX_LINKS = 40;

/** The host path a path leads to; `dangling` when its last component is a link to nothing. */
export type Resolved =
  | { readonly kind: "path"; readonly host: string; readonly viaLink: boolean }
  | { readonly kind: "dangling"; readonly link: string; readonly target: string }
  | { readonly kind: "loop" };

const lstatOrUndefined = (path: string) => lstat(path).catch(() => undefined);

/**
 * Resolves `path` (absolute, as the model or the sandbox sees it) in `view`. The walk is in the
 * sandbox's coordinates, each step looked at through {@link hostPathOf}: a relative target joins the
 * link's sandbox directory, so `/tmp/up -> ../..` climbs the private /tmp as a command would, never
 * the host directory that holds it.
 */
export const resolveInView = async (view: SandboxView, path: string): Promise<Resolved> => {
  const partsOf = (p: string) =>
    posix
      .normalize(p)
      .split("/")
      .filter((part) => part !== "");
  const bound = boundUnderTmp(view);
  let pending = partsOf(path);
  let done = "/";
  let links = 0;
  while (pending.length > 0) {
    const [part, ...rest] = pending as [string, ...string[]];
    const next = posix.join(done, part);
    const host = hostPathOf(view, next);
    const info = await lstatOrUndefined(host);
    if (info === undefined) {
      // Above a directory bound under /tmp the sandbox has directories of its own (the mount points'
      // parents), absent from the private /tmp until a command runs: walked through, not an end.
      if (bound.some((dir) => dir !== next && isWithin(dir, next))) {
        done = next;
        pending = rest;
        continue;
      }
      return { kind: "path", host: hostPathOf(view, posix.join(next, ...rest)), viaLink: links > 0 };
    }
    if (!info.isSymbolicLink()) {
      done = next;
      pending = rest;
      continue;
    }
    if (++links > MAX_LINKS) return { kind: "loop" };
    const target = await readlink(host);
    const joined = posix.isAbsolute(target) ? target : posix.join(done, target);
    // A link to nothing, as the last component: writing through it would create its target.
    if (rest.length === 0 && (await lstatOrUndefined(hostPathOf(view, joined))) === undefined) return { kind: "dangling", link: host, target };
    pending = [...partsOf(joined), ...rest];
    done = "/";
  }
  return { kind: "path", host: hostPathOf(view, done), viaLink: links > 0 };
};
