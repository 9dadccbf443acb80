/** The bash sandbox: bubblewrap around each command, and the file tools kept to the same boundary. */
export { bwrapSandbox, type BwrapSandbox, type BwrapSandboxOptions } from "./bwrap-sandbox.js";
export { BUILT_IN_HIDDEN, type SandboxSettings } from "./sandbox-settings.js";
export type { SandboxUnavailable } from "./probe.js";
