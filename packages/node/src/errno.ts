/** The one reading of a Node system error: its errno code (`ENOENT`, `EACCES`…), if it has one, and its words. */
import { getSystemErrorMap } from "node:util";

/** The `code` of an error thrown by node:fs, node:child_process or process.kill, if it is a string. */
export const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;

let described: ReadonlyMap<string, string> | undefined;

/** What the system calls an errno code (`no space left on device` for ENOSPC), when it knows it. */
const wordsOf = (code: string): string | undefined => {
  described ??= new Map([...getSystemErrorMap().values()].map(([name, words]) => [name, words]));
  return described.get(code);
};

/** The error's reason in a few words: its code with what it means (`no space left on device (ENOSPC)`), else its message. */
export const reasonOf = (error: unknown): string => {
  const code = errorCode(error);
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  const words = wordsOf(code);
  return words === undefined ? code : `${words} (${code})`;
};
