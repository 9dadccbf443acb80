/**
 * Questions on a line-based terminal: each prompt on stderr, each answer one line of stdin (typed, or
 * piped in by a script or a test). An empty answer takes the default; a refused one is asked again.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Result } from "neverthrow";

export type Prompter = {
  /** The answer, `fallback` for an empty line (none offered when ""); undefined at end of input. */
  readonly ask: (label: string, fallback: string, check: (value: string) => Result<string, string>) => Promise<string | undefined>;
  /** A yes/no question, no by default; undefined at end of input. */
  readonly confirm: (label: string) => Promise<boolean | undefined>;
  readonly say: (line: string) => void;
  readonly close: () => void;
};

/** `echo`: write each answer after its prompt, so a transcript of piped answers reads like a typed one. */
export const linePrompter = (input: Readable, write: (text: string) => void, options: { readonly echo: boolean }): Prompter => {
  const lines = createInterface({ input, terminal: false, crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string | undefined> => {
    const next = await iterator.next();
    if (next.done === true && options.echo) write("\n");
    return next.done === true ? undefined : String(next.value).trim();
  };
  const ask = async (label: string, fallback: string, check: (value: string) => Result<string, string>): Promise<string | undefined> => {
    for (;;) {
      write(fallback === "" ? `${label}: ` : `${label} [${fallback}]: `);
      const line = await nextLine();
      if (line === undefined) return undefined;
      const checked = check(line === "" ? fallback : line);
      // A refused answer is not echoed: it may be a key pasted where its variable's name belongs.
      if (options.echo) write(checked.isOk() ? `${line}\n` : "\n");
      if (checked.isOk()) return checked.value;
      write(`  ${checked.error}\n`);
    }
  };
  const confirm = async (label: string): Promise<boolean | undefined> => {
    write(`${label} [y/N]: `);
    const line = await nextLine();
    if (line !== undefined && options.echo) write(`${line}\n`);
    return line === undefined ? undefined : /^y(es)?$/i.test(line);
  };
  return { ask, confirm, say: (line) => write(`${line}\n`), close: () => lines.close() };
};
