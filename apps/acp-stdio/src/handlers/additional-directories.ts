/**
 * `additionalDirectories` of `session/new`, `session/load` and `session/resume` (the "full" surface,
 * `sessionCapabilities.additionalDirectories`): more folders the session's tools may write, watched for
 * changes and covered by `/undo`. Each must be absolute, exist and be a directory, else `invalid params`
 * naming it. On the spec surface the field is not advertised and is ignored (logged).
 */
import { posix } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { fullSurface, type AppState } from "../state/app-state.js";

/** `invalid params` naming the directory: in `data`, and in the message (many clients show it alone). */
const refused = (dir: unknown, error: string): acp.RequestError =>
  acp.RequestError.invalidParams({ additionalDirectories: dir, error }, `additionalDirectories: ${error}`);

/** The session's additional directories from a request's field: checked, normalised, each once, the cwd left out. */
export const additionalDirectories = async (app: AppState, cwd: string, given: readonly string[] | null | undefined): Promise<readonly string[]> => {
  if (given === undefined || given === null || given.length === 0) return [];
  if (!fullSurface(app)) {
    app.info(`additionalDirectories ignored (${given.length}): not offered on the spec surface`);
    return [];
  }
  const roots: string[] = [];
  for (const dir of given) {
    if (typeof dir !== "string" || !dir.startsWith("/")) throw refused(dir, `not an absolute path: ${String(dir)}`);
    const problem = await app.cwdProblem?.(dir);
    if (problem !== undefined) throw refused(dir, problem.replace(/^cwd /, "additional directory "));
    const normal = posix.normalize(dir).replace(/(.)\/$/, "$1");
    if (normal !== posix.normalize(cwd).replace(/(.)\/$/, "$1") && !roots.includes(normal)) roots.push(normal);
  }
  return roots;
};
