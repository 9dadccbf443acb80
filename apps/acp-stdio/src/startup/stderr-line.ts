/**
 * One line on stderr, written straight to file descriptor 2: creating `process.stderr` (a stream over
 * the pipe) costs about 2 ms of start-up here, for a few lines. A line that can't be written now (the
 * pipe full and non-blocking) goes through `process.stderr` after all; one to a closed stderr is
 * dropped, as the editor is gone.
 */
import { writeSync } from "node:fs";

export const stderrLine = (line: string): void => {
  const text = `${line}\n`;
  try {
    writeSync(2, text);
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error && error.code === "EAGAIN") process.stderr.write(text);
  }
};
