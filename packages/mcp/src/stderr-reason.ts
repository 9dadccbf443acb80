/**
 * The line of a server's stderr that says why it stopped. Node ends an uncaught exception's report with
 * its version line (`Node.js v22.23.5`), and Python with the exception after a traceback, so the
 * last line is not always the reason. This takes the first line that names an error, and otherwise
 * the last line that is not a runtime's version, a stack frame or a source excerpt. For the log, the
 * tail: the last few lines, each and all capped.
 */

const ERROR_LINE = /^(\w*(Error|Exception)\b|error\b|fatal\b|panic\b)|\b(cannot|can't|could not|failed|not set|not found|denied|ENOENT|EACCES|EADDRINUSE)\b/i;
const NOISE = /^(Node\.js v\d|at\s|\^+$|Traceback \(most recent call last\)|File ")/;
const MAX_CHARS = 200;

/** The reason line of `tail` (trimmed, capped), or undefined when it holds nothing worth saying. */
export const stderrReason = (tail: string): string | undefined => {
  const lines = tail
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !NOISE.test(line));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines.at(-1);
  return line?.slice(0, MAX_CHARS);
};

const TAIL_LINES = 6;
const TAIL_CHARS = 800;

/** The last lines of `tail` for the log, joined with ` | `, each line and the whole capped; "" when it is empty. */
export const stderrTail = (tail: string): string => {
  const lines = tail
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(-TAIL_LINES)
    .map((line) => (line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS)}…` : line));
  const joined = lines.join(" | ");
  return joined.length > TAIL_CHARS ? `…${joined.slice(-TAIL_CHARS)}` : joined;
};
