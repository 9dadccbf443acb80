/** A step's output, in characters, past which it is stopped: 4 Mi (about 4 MB of text). */
export const MAX_STEP_OUTPUT_CHARS = 4 * 1024 * 1024;
