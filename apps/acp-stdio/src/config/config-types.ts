/**
 * The shape of mm's configuration once loaded: every key resolved to a value, plus where it came
 * from. Plain data, no methods; the API key is only ever held, never rendered.
 */

import type { ChatProvider } from "@mm/ai-model";

/** The wire API spoken to the model server. */
export type ModelApi = "chat" | "responses";

/**
 * What the ACP front end offers: `spec` is docs/acp-surface.md to the letter; `full` adds what
 * contradicts one of its lines (today: a `terminal` auth method that runs `mm-acp --setup`).
 */
export type AcpSurface = "spec" | "full";

/** How `bash` commands run: as they are (`off`) or under bubblewrap, confined to the workspace. */
export type SandboxMode = "off" | "workspace";

/** mm's whole configuration, defaults filled in and environment applied. */
export type MmConfig = {
  readonly model: {
    readonly name: string;
    readonly baseURL: string;
    /** Name of the environment variable the key was read from. */
    readonly apiKeyEnv: string;
    /** The key itself; undefined when that variable is unset. Never print or persist it. */
    readonly apiKey: string | undefined;
    readonly api: ModelApi;
    /** The AI SDK provider spoken to a chat-completions server; `auto`: by the base URL's host. */
    readonly provider: ChatProvider;
    readonly contextWindow: number;
    /** Models a picker offers when the server does not list its own (besides `name`). */
    readonly choices: readonly string[];
    /** The model reads images: prompts may carry them, and `read_file` returns image files as images. */
    readonly vision: boolean;
    /** The tag around reasoning inside the answer (`think`: `<think>…</think>`); empty: none is read. */
    readonly reasoningTag: string;
    /** The model takes a reasoning effort (the full surface's `thought_level` option); absent: by its id (o-series, gpt-5). */
    readonly reasoning?: boolean;
    /** The model's prices in US dollars per million tokens, for a session's cost when the server reports none. */
    readonly pricing?: { readonly input: number; readonly cachedInput?: number; readonly output: number };
  };
  readonly sessions: {
    readonly enabled: boolean;
    /** Where session files go; a relative dir is relative to each session's cwd. */
    readonly dir: string;
  };
  readonly context: {
    /** Input tokens at which a history is compacted automatically. */
    readonly threshold: number;
    readonly keepLastTurns: number;
  };
  /** Skill folders, absolute, in the order they are searched. */
  readonly skills: { readonly dirs: readonly string[] };
  readonly tools: {
    readonly bashTimeoutSeconds: number;
    readonly maxOutputBytes: number;
    /** Bytes of images (decoded) one tool result keeps; past it, placeholders. */
    readonly maxImageBytes: number;
    /** Bytes of images (decoded) a session's history holds in all; past it, placeholders. */
    readonly maxSessionImageBytes: number;
    readonly sandbox: SandboxMode;
    /** Directories a sandboxed command may write besides the session's cwd and its private /tmp; absolute. */
    readonly writable: readonly string[];
    /** Whether a sandboxed command has the network. */
    readonly network: boolean;
    /** Paths masked from sandboxed commands and file tools, besides the built-in secrets; `~` expanded, relative ones against each session's cwd. */
    readonly hidden: readonly string[];
    /** Variables removed from every command's environment (the model key always is). */
    readonly hiddenEnv: readonly string[];
  };
  readonly turn: { readonly maxSteps: number };
  readonly loop: { readonly repeats: number };
  readonly acp: { readonly surface: AcpSurface };
  /**
   * Permission rules (the full surface): rule words a command's words begin with, `edits` and `reads`
   * for the file tools. `allow` only from the user's own file; a project's file adds to `ask` and `deny`.
   */
  readonly permissions: { readonly allow: readonly string[]; readonly ask: readonly string[]; readonly deny: readonly string[] };
};

/** The result of loading: the configuration and the file it came from (null when none was used). */
/**
 * The configuration and where it came from: `source` names the files read (null: defaults only);
 * `notices` are lines for stderr at start-up (what a project's file may not set, and was ignored).
 */
export type LoadedConfig = { readonly config: MmConfig; readonly source: string | null; readonly notices: readonly string[] };

/**
 * Why the configuration could not be loaded. `message` is one line fit for stderr, naming the file
 * (or argument, or variable), the key and what is wrong, e.g.
 * `mm-acp: /x/config.json: model.contextWindow: expected a positive integer, got "abc"`.
 */
export type ConfigError = {
  readonly kind: "bad-argument" | "missing-file" | "unreadable-file" | "invalid-json" | "invalid-value";
  readonly message: string;
};
