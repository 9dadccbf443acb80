/**
 * The `sandbox` permission mode (full surface): its commands run under bubblewrap as with
 * `tools.sandbox: "workspace"` (the cwd and `tools.writable` writable, a private /tmp, secrets and
 * `tools.hidden` hidden, the network only with `tools.network`, the sessions directory read-only), its
 * file tools within the same boundary, whatever `tools.sandbox` says. The process's own sandbox when
 * `tools.sandbox` is "workspace", else one started for this mode. Offered only once bubblewrap is
 * known to run; when it cannot, the log says why and the mode is not listed.
 */
import type { Confined, Shell } from "@mm/core";
import { bwrapSandbox, type BwrapSandbox, type CommandWrapper } from "@mm/node";
import type { MmConfig } from "../config/index.js";

export type SandboxMode = {
  readonly confined: Confined;
  /** Settles once bubblewrap's check is done: undefined when it runs, else why not (with the remedy). */
  readonly unavailable: Promise<string | undefined>;
  /** The mode's own sandbox, when it started one (its room to remove at exit). */
  readonly own?: BwrapSandbox;
};

export const sandboxMode = (
  config: MmConfig,
  home: string,
  stateDir: string,
  processSandbox: { readonly sandbox: BwrapSandbox; readonly shell: Shell } | undefined,
  shellWith: (wrapper: CommandWrapper) => Shell,
  warn: (line: string) => void,
): SandboxMode | undefined => {
  if (config.acp.surface !== "full") return undefined;
  const own =
    processSandbox === undefined
      ? bwrapSandbox({
          home,
          writable: config.tools.writable,
          network: config.tools.network,
          hidden: [...config.tools.hidden, stateDir],
          ...(config.sessions.enabled ? { readOnly: [config.sessions.dir] } : {}),
        })
      : undefined;
  const sandbox = processSandbox?.sandbox ?? own!;
  const shell = processSandbox?.shell ?? shellWith(sandbox.wrapper);
  const unavailable = sandbox.ready.then((checked) => (checked.isErr() ? `${checked.error.reason}; to fix: ${checked.error.remedy}` : undefined));
  void unavailable.then((why) => {
    if (why !== undefined) warn(`mm-acp: the sandbox permission mode is not offered: ${why}`);
  });
  return {
    confined: {
      shell,
      fs: (inner, cwd, roots) =>
        sandbox.confine(
          inner,
          () => cwd,
          () => roots ?? [],
        ),
    },
    unavailable,
    ...(own !== undefined ? { own } : {}),
  };
};

/** What the handlers read: whether the mode is offered, set once the check is done. */
export const sandboxModeState = (mode: SandboxMode): { offered: boolean; readonly ready: Promise<void> } => {
  const state = { offered: false, ready: Promise.resolve() };
  state.ready = mode.unavailable.then((why) => {
    state.offered = why === undefined;
  });
  return state;
};
