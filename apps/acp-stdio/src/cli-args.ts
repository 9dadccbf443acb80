/** The command line of `mm-acp`: serve by default; `--help` / `--version` print and exit. */
import { AGENT_INFO } from "./agent-info.js";

export type CliAction = { readonly kind: "serve" } | { readonly kind: "print"; readonly text: string };

export const HELP = `mm-acp ${AGENT_INFO.version} — Bob, a bash-first coding agent, over the Agent Client Protocol.

Usage: mm-acp [--config FILE] [-acp]
  Speaks ACP (JSON-RPC 2.0, one message a line) on stdin/stdout; logs go to stderr.
  --config FILE   configuration file (else $MM_CONFIG, ./.mm/config.json, ~/.config/mm/config.json)
  -acp, --acp     accepted and ignored (the original was \`mm -acp\`)
  --help          this text
  --version       the version
Environment: MM_MODEL, MM_BASE_URL (or OPENAI_BASE_URL), OPENAI_API_KEY (or model.apiKeyEnv), MM_CONFIG.
`;

export const cliAction = (argv: readonly string[]): CliAction => {
  if (argv.includes("--help") || argv.includes("-h")) return { kind: "print", text: HELP };
  if (argv.includes("--version")) return { kind: "print", text: `${AGENT_INFO.version}\n` };
  return { kind: "serve" };
};
