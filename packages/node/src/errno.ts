/** The one reading of a Node system error: its errno code (`ENOENT`, `EACCES`…), if it has one. */

/** The `code` of an error thrown by node:fs, node:child_process or process.kill, if it is a string. */
export const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;

/** The error's reason in a few words: its code, else its message. */
export const reasonOf = (error: unknown): string => errorCode(error) ?? (error instanceof Error ? error.message : String(error));
