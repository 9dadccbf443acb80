/** The Shell port: `bash -c` in a process group of its own, output bounded, optionally wrapped (the sandbox). */
export { bashShell, REDACTED, type BashShell, type BashShellOptions } from "./bash-shell.js";
export { boundedOutput, type OutputBuffer } from "./output-buffer.js";
export type { CommandWrapper } from "./command-wrapper.js";
export { NO_REAPER, startReaper, type Reaper } from "./reaper.js";
