/**
 * The command line of `mm-acp`: serve by default; `--help` (`-h`) / `--version` (`-v`) print and exit; `--setup`
 * asks and writes the config. Anything it does not know is a usage error (exit 2), never ignored.
 */
import { AGENT_INFO } from "../editor/agent-info.js";
import { badLogLevel, logLevelOf, type LogLevel } from "../wiring/log.js";

export type CliAction =
  | { readonly kind: "serve"; readonly logLevel: LogLevel | undefined }
  | { readonly kind: "setup" }
  | { readonly kind: "print"; readonly text: string }
  | { readonly kind: "usage-error"; readonly message: string };

export const HELP = `mm-acp ${AGENT_INFO.version} — Bob, a bash-first coding agent, over the Agent Client Protocol.

Usage: mm-acp [--config FILE] [--log-level quiet|info|debug] [-acp]
       mm-acp --setup
  Speaks ACP (JSON-RPC 2.0, one message a line) on stdin/stdout; logs go to stderr.
  --config FILE     the one configuration file read (else $MM_CONFIG; else ~/.config/mm/config.json
                    with the project's ./.mm/config.json layered over it, which may only narrow it)
  --log-level LEVEL quiet: warnings and errors only; info (default): also the banner and [acp] lines;
                    debug: also each model request's size and timing ($MM_LOG_LEVEL)
  -acp, --acp       accepted and ignored (the original was \`mm -acp\`)
  --setup           asks for the model server and the name of the variable holding its key, asks the
                    server for its models (GET /models) and offers them, and writes the three to
                    ~/.config/mm/config.json ($XDG_CONFIG_HOME/mm); never the key
  -h, --help        this text
  -v, --version     the version
Environment: MM_MODEL, MM_BASE_URL (or OPENAI_BASE_URL), OPENAI_API_KEY (or model.apiKeyEnv), MM_CONFIG,
MM_ACP_SURFACE (spec or full), MM_LOG_LEVEL.
`;

/** Options taking a value, as `--name VALUE` or `--name=VALUE`. */
const WITH_VALUE = ["--config", "--log-level"] as const;
type WithValue = (typeof WITH_VALUE)[number];

const usageError = (message: string): CliAction => ({ kind: "usage-error", message: `mm-acp: ${message}` });

/** What to do for these arguments (those after the script). */
export const cliAction = (argv: readonly string[]): CliAction => {
  if (argv.includes("--help") || argv.includes("-h")) return { kind: "print", text: HELP };
  if (argv.includes("--version") || argv.includes("-v")) return { kind: "print", text: `${AGENT_INFO.version}\n` };
  const values = new Map<WithValue, string>();
  let setup = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    const named = WITH_VALUE.find((name) => arg === name || arg.startsWith(`${name}=`));
    if (named !== undefined) {
      if (arg !== named) {
        values.set(named, arg.slice(named.length + 1));
        continue;
      }
      const next = argv[index + 1];
      if (next === undefined || next.startsWith("-")) return usageError(`${named}: expected a value after it`);
      values.set(named, next);
      index += 1;
    } else if (arg === "--setup") {
      setup = true;
    } else if (arg !== "-acp" && arg !== "--acp") {
      return usageError(arg.startsWith("-") ? `unknown option ${arg}` : `unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  if (setup) return { kind: "setup" };
  const level = values.get("--log-level");
  if (level === undefined) return { kind: "serve", logLevel: undefined };
  const logLevel = logLevelOf(level);
  return logLevel !== undefined ? { kind: "serve", logLevel } : { kind: "usage-error", message: badLogLevel("--log-level", level) };
};
