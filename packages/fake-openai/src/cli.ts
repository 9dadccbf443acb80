/**
 * Runs the fake server standalone (`corepack pnpm exec tsx packages/fake-openai/src/cli.ts [--port N]
 * [--text WORDS] [--models a,b] [--play WORDS] [--script FILE]`): every request is answered "ok" (or WORDS in
 * word-sized chunks), and `GET /v1/models` lists `--models`. `--play` answers the first request with
 * the corpus entry whose server and shape contain WORDS (e.g. `--play "Mistral: a tool call"`); `--script` answers the first requests with
 * the steps of a JSON file (script-file.ts), in order. Prints its base URL on stderr, then a line per model request (its
 * `model` field and message count); Ctrl-C stops it. `--help` prints the usage and exits.
 */
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CORPUS } from "./corpus/index.js";
import { frames, type Reply, text } from "./replies.js";
import { parseScript } from "./script-file.js";
import { startFakeOpenAI } from "./server.js";

/** What `--help` (`-h`) prints. */
export const USAGE = `Usage: fake-openai [--port N] [--text WORDS] [--models a,b] [--play WORDS] [--script FILE]
  A scripted OpenAI-compatible server on 127.0.0.1 (chat completions, responses, GET /v1/models).
  --port N        the port (default: a free one); the base URL is printed on stderr
  --text WORDS    the answer to every request (default "ok"), sent in word-sized chunks
  --models a,b    the ids GET /v1/models lists (default fake-model)
  --play WORDS    answers the first request with the corpus entry whose server and shape contain WORDS
  --script FILE   answers the first requests with the steps of FILE, a JSON array, in order:
                  {"text": "…"} or {"calls": [{"name": "bash", "arguments": {"command": "ls"}}], "text": "…"}
  -h, --help      this text
Ctrl-C stops it.
`;

const flag = (args: readonly string[], name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

export const main = async (args: readonly string[] = process.argv.slice(2)): Promise<void> => {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  const words = flag(args, "--text");
  const play = flag(args, "--play");
  const entry = play === undefined ? undefined : CORPUS.find((e) => `${e.server}: ${e.shape}`.toLowerCase().includes(play.toLowerCase()));
  if (play !== undefined && entry === undefined) throw new Error(`no corpus entry matches ${JSON.stringify(play)}`);
  const scriptFile = flag(args, "--script");
  const script = scriptFile === undefined ? undefined : parseScript(readFileSync(scriptFile, "utf8"));
  if (script !== undefined && "problem" in script) throw new Error(`${scriptFile}: ${script.problem}`);
  const first: Reply[] = entry !== undefined ? [frames(entry.frames, entry.end !== undefined ? { end: entry.end } : {})] : [];
  const server = await startFakeOpenAI([...first, ...(script?.replies ?? [])], {
    port: Number(flag(args, "--port") ?? 0),
    defaultReply: text(words ? words.split(/(?<= )/) : ["ok"]),
    ...(flag(args, "--models") !== undefined ? { models: flag(args, "--models")!.split(",") } : {}),
  });
  let seen = 0;
  setInterval(() => {
    for (; seen < server.requests.length; seen++) {
      const { method, path, body } = server.requests[seen]!;
      const { model, messages, input } = (body ?? {}) as { model?: unknown; messages?: unknown[]; input?: unknown[] };
      process.stderr.write(`${method} ${path}${model !== undefined ? ` model=${String(model)} messages=${(messages ?? input ?? []).length}` : ""}\n`);
    }
  }, 100).unref();
  process.stderr.write(
    `fake-openai listening on ${server.url}${entry !== undefined ? ` (first answer: ${entry.server}: ${entry.shape})` : ""}${script !== undefined ? ` (${script.replies.length} scripted answers from ${scriptFile})` : ""}\n`,
  );
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
};

const isEntry = (): boolean => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
};

if (isEntry()) {
  main().catch((error: unknown) => {
    process.stderr.write(`fake-openai: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
