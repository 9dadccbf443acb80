/** A Shell for tests: answers commands from a script and records what it was asked. */
import { okAsync } from "neverthrow";
import type { Shell, ShellRequest, ShellResult } from "../ports/shell.js";

/** A Shell recording every request. */
export type ScriptedShell = Shell & { readonly requests: ShellRequest[] };

/** What a scripted command ends with (exit code 0 and no output unless said). */
export type ShellScript = (request: ShellRequest) => Partial<ShellResult> | Promise<Partial<ShellResult>>;

/** A Shell answering from `script`. */
export const scriptedShell = (script: ShellScript = () => ({ output: "" })): ScriptedShell => {
  const requests: ShellRequest[] = [];
  return {
    requests,
    run: (request) => {
      requests.push(request);
      return okAsync(null).map(async () => {
        const partial = await script(request);
        const result: ShellResult = {
          output: "",
          exitCode: 0,
          signal: null,
          timedOut: false,
          cancelled: request.signal.aborted,
          ...partial,
        };
        return result;
      });
    },
  };
};
