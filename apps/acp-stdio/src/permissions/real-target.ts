/**
 * Where a path a call names really lands: its deepest existing ancestor resolved through links, the
 * rest appended. A link the project holds (one a command or a cloned repository planted) may point
 * out of it; the rules judge "inside the project" on this path, never on the text alone.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { movedBy, resolvePath, UNKNOWN_DIR, type CommandShape, type Place, type Redirect, type SimpleCommand } from "@mm/core";

/** `path` (as written, against `cwd`) through the links that exist; `~…` is left as written (outside whatever). */
export const realTarget = async (cwd: string, path: string, home?: string): Promise<string> => {
  if (path.startsWith("~")) return path;
  const absolute = resolvePath(cwd, path, home);
  const rest: string[] = [];
  let dir = absolute;
  for (;;) {
    const real = await realpath(dir).catch(() => undefined);
    if (real !== undefined) return join(real, ...rest.reverse());
    if (dir === "/") return absolute;
    rest.push(basename(dir));
    dir = dirname(dir);
  }
};

/**
 * The shape with each plain redirection target replaced by where it really lands, relative ones from
 * where the command runs (after a `cd` before it); after a move the rules cannot follow, relative
 * targets are left as written (outside whatever, core's `movedBy`).
 */
export const withRealTargets = async (shape: CommandShape, cwd: string, home?: string): Promise<CommandShape> => {
  if (!shape.parsed) return shape;
  const commands: SimpleCommand[] = [];
  let here: Place = { cwd, home };
  for (const command of shape.commands) {
    const dir = here.at ?? here.cwd;
    const real = async (r: Redirect): Promise<Redirect> => {
      if (!r.literal || r.target === "/dev/null") return r;
      if (dir === UNKNOWN_DIR && !r.target.startsWith("/")) return r;
      return { ...r, target: await realTarget(dir, r.target, home) };
    };
    commands.push({ ...command, redirects: await Promise.all(command.redirects.map(real)) });
    here = movedBy(command, here);
  }
  return { ...shape, commands };
};
