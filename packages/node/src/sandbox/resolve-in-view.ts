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
import { hostPathOf, type SandboxView } from "./sandbox-view.js";

/** Links followed before giving up (Linux's own limit). */
const MAX_LINKS = 40;

/** The host path a path leads to; `dangling` when its last component is a link to nothing. */
export type Resolved =
  | { readonly kind: "path"; readonly host: string; readonly viaLink: boolean }
  | { readonly kind: "dangling"; readonly link: string; readonly target: string }
  | { readonly kind: "loop" };

const lstatOrUndefined = (path: string) => lstat(path).catch(() => undefined);

/** Resolves `path` (absolute, as the model or the sandbox sees it) in `view`. */
export const resolveInView = async (view: SandboxView, path: string): Promise<Resolved> => {
  let pending = posix
    .normalize(hostPathOf(view, path))
    .split("/")
    .filter((part) => part !== "");
  let done = "/";
  let links = 0;
  while (pending.length > 0) {
    const [part, ...rest] = pending as [string, ...string[]];
    const next = posix.join(done, part);
    const info = await lstatOrUndefined(next);
    if (info === undefined) return { kind: "path", host: posix.join(next, ...rest), viaLink: links > 0 };
    if (!info.isSymbolicLink()) {
      done = next;
      pending = rest;
      continue;
    }
    if (++links > MAX_LINKS) return { kind: "loop" };
    const target = await readlink(next);
    const joined = posix.isAbsolute(target) ? hostPathOf(view, target) : posix.join(done, target);
    // A link to nothing, as the last component: writing through it would create its target.
    if (rest.length === 0 && (await lstatOrUndefined(joined)) === undefined) return { kind: "dangling", link: next, target };
    pending = [
      ...posix
        .normalize(joined)
        .split("/")
        .filter((p) => p !== ""),
      ...rest,
    ];
    done = "/";
  }
  return { kind: "path", host: done, viaLink: links > 0 };
};
