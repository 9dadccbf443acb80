/**
 * `mm-acp`, the composition root: command line → configuration → real adapters → ACP on stdio.
 * stdout carries protocol messages only; everything else goes to stderr.
 */
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { aiSdkModel } from "@mm/ai-model";
import { bashShell, jsonSessionStore, loadDiskSkillCatalogue, loadProcessConfig, nodeFileSystem } from "@mm/node";
import { bannerLines } from "./banner.js";
import { cliAction } from "./cli-args.js";
import { installLifecycle } from "./lifecycle.js";
import { serve } from "./serve.js";

const stderrLine = (line: string): void => void process.stderr.write(`${line}\n`);

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
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
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
      shell: bashShell(),
      skills,
      store: config.sessions.enabled ? jsonSessionStore({ dir: config.sessions.dir }) : undefined,
      clock: { now: Date.now },
      random: { hex: (n) => randomBytes(Math.ceil(n / 2)).toString("hex").slice(0, n) },
    },
    stream,
    { home: homedir(), os: `${process.platform} ${process.arch}`, log: stderrLine },
  );
  installLifecycle(served, stderrLine);
};

main().catch((error: unknown) => {
  stderrLine(`mm: fatal: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
