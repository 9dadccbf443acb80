/** The command line of `mm-acp`: serve by default; `--help` / `--version` print and exit; `--setup` asks and writes the config. */
import { AGENT_INFO } from "./agent-info.js";

export type CliAction = { readonly kind: "serve" } | { readonly kind: "setup" } | { readonly kind: "print"; readonly text: string };

export const HELP = `mm-acp ${AGENT_INFO.version} — Bob, a bash-first coding agent, over the Agent Client Protocol.

Usage: mm-acp [--config FILE] [-acp]
       mm-acp --setup
  Speaks ACP (JSON-RPC 2.0, one message a line) on stdin/stdout; logs go to stderr.
  --config FILE   configuration file (else $MM_CONFIG, ./.mm/config.json, ~/.config/mm/config.json)
  -acp, --acp     accepted and ignored (the original was \`mm -acp\`)
  --setup         asks for the model server, the model and the name of the variable holding its key,
                  and writes them to ~/.config/mm/config.json ($XDG_CONFIG_HOME/mm); never the key
  --help          this text
  --version       the version
Environment: MM_MODEL, MM_BASE_URL (or OPENAI_BASE_URL), OPENAI_API_KEY (or model.apiKeyEnv), MM_CONFIG,
MM_ACP_SURFACE (spec or full).
`;

export const cliAction = (argv: readonly string[]): CliAction => {
  if (argv.includes("--help") || argv.includes("-h")) return { kind: "print", text: HELP };
  if (argv.includes("--version")) return { kind: "print", text: `${AGENT_INFO.version}\n` };
  if (argv.includes("--setup")) return { kind: "setup" };
  return { kind: "serve" };
};
