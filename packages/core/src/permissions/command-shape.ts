/**
 * A bash command as the permission rules see it: what a shell parser (behind the `CommandParser`
 * port) found in it. The core matches rules over this value and never parses shell itself.
 */

/** Where a redirection sends or takes data; `target` as written, `literal` false when it holds an expansion. */
export type Redirect = { readonly target: string; readonly literal: boolean; readonly writes: boolean };

/** One simple command: its words (quotes removed) and its redirections. */
export type SimpleCommand = {
  readonly words: readonly string[];
  /** How many leading words are plain text (no `$x`, no glob): only those can match a rule's words. */
  readonly literalWords: number;
  readonly redirects: readonly Redirect[];
};

/**
 * A parsed command: every simple command it runs, in order, and what in it can never ride on a rule
 * (a command substitution, a function definition…), named for the log. Unparsed: why not.
 */
export type CommandShape =
  | { readonly parsed: true; readonly commands: readonly SimpleCommand[]; readonly opaque: readonly string[] }
  | { readonly parsed: false; readonly reason: string };

/** The port: parses a command line; never rejects (what it cannot read is `parsed: false`). */
export type CommandParser = { readonly parse: (command: string) => Promise<CommandShape> };
