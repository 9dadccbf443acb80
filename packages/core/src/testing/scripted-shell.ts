/** A Shell for tests: answers commands from a script and records what it was asked. */
import { okAsync } from "neverthrow";
import type { Shell, ShellRequest, ShellResult } from "../ports/shell.js";

/** A Shell recording every request. */
export type ScriptedShell = Shell & { readonly requests: ShellRequest[] };

/**
 * What a scripted command ends with (exit code 0 and no output unless said). `write` prints while
 * the command runs: the request's output listener gets it at once, and the final output is
 * everything written when the script gives none.
 */
export type ShellScript = (request: ShellRequest, write: (text: string) => void) => Partial<ShellResult> | Promise<Partial<ShellResult>>;

/** A Shell answering from `script`. */
export const scriptedShell = (script: ShellScript = () => ({ output: "" })): ScriptedShell => {
  const requests: ShellRequest[] = [];
  return {
    requests,
    run: (request) => {
      requests.push(request);
      return okAsync(null).map(async () => {
        let written = "";
        let running = true;
        const write = (text: string): void => {
          if (!running || text === "") return;
          written += text;
          try {
            request.onOutput?.(text);
          } catch {
            // A listener's failure is not the command's.
          }
        };
        const partial = await (async () => script(request, write))().finally(() => {
          running = false;
        });
        const result: ShellResult = {
          output: written,
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
