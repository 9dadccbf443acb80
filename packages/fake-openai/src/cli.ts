/**
 * Runs the fake server standalone (`corepack pnpm exec tsx packages/fake-openai/src/cli.ts [--port N]
 * [--text WORDS] [--models a,b]`): every request is answered "ok" (or WORDS in word-sized chunks), and
 * `GET /v1/models` lists `--models`. Prints its base URL on stderr, then a line per model request (its
 * `model` field and message count); Ctrl-C stops it.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { text } from "./replies.js";
import { startFakeOpenAI } from "./server.js";

const flag = (args: readonly string[], name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

export const main = async (args: readonly string[] = process.argv.slice(2)): Promise<void> => {
  const words = flag(args, "--text");
  const server = await startFakeOpenAI([], {
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
  process.stderr.write(`fake-openai listening on ${server.url}\n`);
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
