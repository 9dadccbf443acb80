/** The name and version every session file carries (docs/session-file.md). */

/** The `format` every session file carries. */
export const SESSION_FORMAT = "mm-session";
/** The newest version this code writes and reads; a file with a higher one is refused, never misread. */
export const SESSION_VERSION = 1;
