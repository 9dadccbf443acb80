/**
 * What a person who runs `mm-acp` by hand reads on stderr: that it is an ACP agent for editors (it
 * speaks JSON-RPC on stdin/stdout, so typing at it gets `Parse error`), how to try a prompt without
 * an editor (acpx, as the README's "Try it without a model" shows), and how to end it.
 * Printed at start when stdin is a terminal, and beside the first `Parse error` whatever stdin is.
 */
import { basename } from "node:path";

/** The command acpx's `--agent` runs to start this agent: `mm-acp` when run under that name, else `node <script>`. */
export const agentCommand = (script: string | undefined): string => {
  if (script === undefined || basename(script) === "mm-acp") return "mm-acp";
  return `node ${/[\s"'$`\\]/.test(script) ? JSON.stringify(script) : script}`;
};

/** The one line, for an agent started with `agent`. */
export const terminalHint = (agent: string): string =>
  `mm-acp: this is an ACP agent for editors: it speaks JSON-RPC 2.0 on stdin/stdout, one message a line, so typed text gets "Parse error". ` +
  `To try a prompt without an editor: npx acpx --agent ${JSON.stringify(agent)} exec "hello" (acpx needs Node 22.13+). Ctrl-D or Ctrl-C ends it.`;

/** `say`, at most once however often it is called (a flood of non-JSON lines prints one hint). */
export const once = (say: () => void): (() => void) => {
  let said = false;
  return () => {
    if (said) return;
    said = true;
    say();
  };
};
