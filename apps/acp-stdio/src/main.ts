/**
 * `mm-acp`, the composition root: command line → configuration → real adapters → ACP on stdio.
 * stdout carries protocol messages only; everything else goes to stderr.
 */
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { aiSdkModel } from "@mm/ai-model";
import { bashShell, changeTracker, jsonSessionStore, loadDiskSkillCatalogue, loadProcessConfig, nodeFileSystem } from "@mm/node";
import { bannerLines } from "./banner.js";
import { cliAction } from "./cli-args.js";
import { installLifecycle } from "./lifecycle.js";
import { serve } from "./serve.js";
import { batchedStdout } from "./startup/batched-stdout.js";
import { stderrLine } from "./startup/stderr-line.js";
import { nodeByteSource } from "./startup/stdin-source.js";
import { warmAfterFirstSession } from "./startup/warm-model.js";
import { responseWatch } from "./wire/after-response.js";
import { ndJsonStream } from "./wire/nd-json-stream.js";


const keepStdoutForProtocol = (): void => {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
};

const main = async (): Promise<void> => {
  keepStdoutForProtocol();
  const action = cliAction(process.argv.slice(2));
  if (action.kind === "print") {
    process.stdout.write(action.text);
    return;
  }
  const loaded = loadProcessConfig();
  if (loaded.isErr()) {
    stderrLine(loaded.error.message);
    process.exit(2);
  }
  const { config, source } = loaded.value;
  const skills = await loadDiskSkillCatalogue(config.skills.dirs, stderrLine);
  for (const line of bannerLines(config, skills.list(), source)) stderrLine(line);
  const watch = responseWatch();
  // The same module @mm/ai-model imports on the first step (build.mjs maps it to the provider file).
  // @ts-ignore: the provider's types are @mm/ai-model's dependency, not this package's
  const warm = warmAfterFirstSession(() => import("@ai-sdk/openai"));
  const stream = ndJsonStream(batchedStdout(), nodeByteSource(process.stdin), {
    log: stderrLine,
    onWritten: (message) => {
      watch.written(message);
      warm(message);
    },
  });
  // Commands run without the variable holding the model's key: whatever a command prints ends up on
  // the wire and in the session file, and the model has no business reading the agent's credentials.
  const { [config.model.apiKeyEnv]: _key, ...commandEnv } = process.env;
  const shell = bashShell({ env: commandEnv });
  const served = serve(
    config,
    {
      model: aiSdkModel({
        model: config.model.name,
        baseURL: config.model.baseURL,
        apiKey: config.model.apiKey,
        api: config.model.api,
      }),
      fs: nodeFileSystem(),
      shell,
      changes: changeTracker(),
      skills,
      store: config.sessions.enabled ? jsonSessionStore({ dir: config.sessions.dir }) : undefined,
      clock: { now: Date.now },
      random: { hex: (n) => randomBytes(Math.ceil(n / 2)).toString("hex").slice(0, n) },
    },
    { stream, afterResponse: watch.afterResponse },
    { home: homedir(), os: `${process.platform} ${process.arch}`, log: stderrLine },
  );
  installLifecycle(served, stderrLine, shell);
};

/**
 * Runs mm-acp. Not run on import: build.mjs bundles this module, and bin/mm-acp.js loads the bundle
 * (with V8's code cache) and calls `start`.
 */
export const start = (): void => {
  main().catch((error: unknown) => {
    stderrLine(`mm: fatal: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
};
