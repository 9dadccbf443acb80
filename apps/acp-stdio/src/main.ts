/**
 * `mm-acp`, the composition root: command line → configuration → real adapters → ACP on stdio.
 * stdout carries protocol messages only; everything else goes to stderr.
 */
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { format } from "node:util";
import type * as acp from "@agentclientprotocol/sdk";
import { aiSdkModel, describeProxy, listModelCatalogue, proxySettings } from "@mm/ai-model";
import {
  bashShell,
  boundaryContextFiles,
  changeTracker,
  cryptoRandomHex,
  hiddenFor,
  jsonSessionStore,
  undoKeyFile,
  loadDiskSkillCatalogue,
  nodeFileSystem,
  platformLine,
  secretSet,
  sessionRedactor,
  urlSecrets,
  startReaper,
  systemClock,
} from "@mm/node";
import { type LoadedConfig, loadProcessConfig, userStateDir } from "./config/index.js";
import { bannerLines } from "./cli/banner.js";
import { cliAction, HELP } from "./cli/cli-args.js";
import { installLifecycle } from "./wiring/lifecycle.js";
import { chosenLogLevel, leveledLog, type LogLevel } from "./wiring/log.js";
import { startSandbox } from "./wiring/sandbox-setup.js";
import { sandboxMode } from "./permissions/sandbox-mode.js";
import { agentCommand, once, terminalHint } from "./cli/terminal-hint.js";
import { serve, type AppPorts } from "./wiring/serve.js";
import { runSetup } from "./setup/run-setup.js";
import { batchedStdout } from "./stdio/batched-stdout.js";
import { responseWatch } from "./stdio/after-response.js";
import { ndJsonStream } from "./stdio/nd-json-stream.js";

/** One line on stderr. */
const stderrLine = (line: string): void => void process.stderr.write(`${line}\n`);

/** The ACP stream on stdio: the hardened line reader over stdin, and stdout batched (stdio/); `onNotJson` after a line that is not JSON. */
const stdioStream = (written: (message: acp.AnyMessage) => void, warn: (line: string) => void, onNotJson: () => void): acp.Stream =>
  ndJsonStream(batchedStdout(), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, { warn, onWritten: written, onNotJson });

/** What every stray console line goes through once the secrets are known (main): they never reach the log. */
let redactConsole = (text: string): string => text;

const keepStdoutForProtocol = (): void => {
  const toStderr = (...args: unknown[]) => void process.stderr.write(`${redactConsole(format(...args))}\n`);
  console.error = toStderr;
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
};

/** The command line, the log level and the configuration, or undefined once they are dealt with (printed, set up, refused). */
const fromCommandLine = async (): Promise<{ level: LogLevel; loaded: LoadedConfig } | undefined> => {
  const action = cliAction(process.argv.slice(2));
  if (action.kind === "print") {
    process.stdout.write(action.text);
    return undefined;
  }
  if (action.kind === "usage-error") {
    stderrLine(action.message);
    process.stderr.write(`\n${HELP}`);
    process.exitCode = 2;
    return undefined;
  }
  if (action.kind === "setup") {
    process.exitCode = await runSetup({
      input: process.stdin,
      write: (text) => void process.stderr.write(text),
      env: process.env,
      home: homedir(),
      cwd: process.cwd(),
      interactive: process.stdin.isTTY === true,
    });
    return undefined;
  }
  const level = chosenLogLevel(action.logLevel, process.env);
  const loaded = loadProcessConfig();
  if (level.isErr() || loaded.isErr()) {
    stderrLine(level.isErr() ? level.error : loaded.isErr() ? loaded.error.message : "");
    process.exit(2);
  }
  return { level: level.value, loaded: loaded.value };
};

/** Serves on stdio, once the command line and the configuration are read. */
const main = async (): Promise<void> => {
  keepStdoutForProtocol();
  const chosen = await fromCommandLine();
  if (chosen === undefined) return;
  const { level: chosenLevel, loaded } = chosen;
  const { config, source, notices } = loaded;
  // The secrets mm holds, in one place (boundary/secrets.ts): the model's key (and a password in its
  // URL), the values of tools.hiddenEnv, later the editor's MCP servers' headers and environment.
  // Every log line, tool result, diff, live output, session file and undo blob goes without them.
  const secrets = secretSet([config.model.apiKey, ...urlSecrets(config.model.baseURL), ...config.tools.hiddenEnv.map((name) => process.env[name])]);
  const log = leveledLog(chosenLevel, (line) => stderrLine(secrets.redact(line)));
  redactConsole = secrets.redact;
  for (const notice of notices) log.warn(notice);
  const stateDir = userStateDir(process.env, homedir());
  // The one boundary of what mm reads on its own for the model (boundary/): never a hidden path (the
  // built-in credentials, tools.hidden, mm's own state), with the sandbox on or off.
  const readBoundary = { home: homedir(), hidden: [...config.tools.hidden, stateDir] };
  const skills = await loadDiskSkillCatalogue(config.skills.dirs, log.warn, readBoundary);
  const proxy = proxySettings(process.env);
  for (const line of bannerLines(config, skills.list(), source, describeProxy(proxy, config.model.baseURL))) log.info(line);
  const watch = responseWatch();
  const model = aiSdkModel({
    model: config.model.name,
    baseURL: config.model.baseURL,
    apiKey: config.model.apiKey,
    apiKeyEnv: config.model.apiKeyEnv,
    api: config.model.api,
    provider: config.model.provider,
    reasoningTag: config.model.reasoningTag,
    proxy,
    log: (line) => log.warn(`mm-acp: ${line}`),
    ...(log.debug !== undefined ? { debug: (line: string) => log.debug?.(`mm-acp: ${line}`) } : {}),
  });
  // A person at a terminal is told what this is at once; whoever sends a line that is not JSON, once.
  const hint = terminalHint(agentCommand(process.argv[1]));
  if (process.stdin.isTTY === true) stderrLine(hint);
  const stream = stdioStream(
    watch.written,
    log.warn,
    once(() => stderrLine(hint)),
  );
  // Commands run without the variable holding the model's key (nor those of tools.hiddenEnv): whatever
  // a command prints ends up on the wire and in the session file, and the model has no business
  // reading the agent's credentials.
  const hiddenEnv = new Set([config.model.apiKeyEnv, ...config.tools.hiddenEnv]);
  const commandEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !hiddenEnv.has(name)));
  const sandbox = startSandbox(config, homedir(), log, stateDir);
  // Ends the process groups mm starts (commands, MCP servers) and removes the sandbox's directory
  // if mm itself is killed (SIGKILL from the editor): nothing mm starts outlives it.
  const reaper = startReaper();
  if (sandbox?.roomDir !== undefined) reaper.removeAtEnd(sandbox.roomDir);
  // The key out of every output too: with the sandbox off a command can read /proc/<agent>/environ.
  const shell = bashShell({ env: commandEnv, redact: secrets.redact, reaper, ...(sandbox !== undefined ? { wrapper: sandbox.wrapper } : {}) });
  // The sandbox permission mode (full surface): the sandbox above, else one of its own.
  const modeSandbox = sandboxMode(
    config,
    homedir(),
    stateDir,
    sandbox !== undefined ? { sandbox, shell } : undefined,
    (wrapper) => bashShell({ env: commandEnv, redact: secrets.redact, reaper, wrapper }),
    log.warn,
  );
  if (modeSandbox?.own?.roomDir !== undefined) reaper.removeAtEnd(modeSandbox.own.roomDir);
  const ports: AppPorts = {
    model,
    fs: nodeFileSystem(),
    contextFiles: boundaryContextFiles({
      ...readBoundary,
      ...(sandbox !== undefined ? { sandbox: { privateTmp: sandbox.privateTmp, writable: config.tools.writable } } : {}),
    }),
    shell,
    // The change tracker leaves the hidden paths alone (the sandbox's set, with the sandbox on or off).
    changes: changeTracker({ hidden: (cwd) => hiddenFor(readBoundary, cwd) }),
    skills,
    // The user's key (the undo log's) signs a session's mode and model: a shipped file cannot set them.
    store: config.sessions.enabled
      ? jsonSessionStore({
          dir: config.sessions.dir,
          key: undoKeyFile(join(stateDir, "undo.key")),
          warn: (line) => log.warn(`mm-acp: ${line}`),
          redact: sessionRedactor(secrets),
        })
      : undefined,
    clock: systemClock,
    random: cryptoRandomHex,
    ...(sandbox !== undefined ? { confineFiles: sandbox.confine } : {}),
    ...(modeSandbox !== undefined ? { sandboxMode: modeSandbox } : {}),
    commandEnv,
    secrets,
    // A session's cwd must exist and be a directory: nothing is ever created outside one.
    cwdProblem: async (cwd) => {
      const info = await stat(cwd).catch(() => undefined);
      if (info === undefined) return `cwd does not exist: ${cwd}`;
      return info.isDirectory() ? undefined : `cwd is not a directory: ${cwd}`;
    },
    onProcessGroup: (pgid, alive) => (alive ? reaper.track(pgid) : reaper.untrack(pgid)),
    listModels: () => listModelCatalogue({ baseURL: config.model.baseURL, apiKey: config.model.apiKey }).unwrapOr(undefined),
  };
  const served = serve(
    config,
    ports,
    { stream, afterResponse: watch.afterResponse },
    { home: homedir(), stateDir, os: platformLine(), cwd: process.cwd(), info: log.info, warn: log.warn },
  );
  installLifecycle(served, log, shell);
  if (sandbox !== undefined) process.on("exit", sandbox.dispose);
  if (modeSandbox?.own !== undefined) process.on("exit", modeSandbox.own.dispose);
};

main().catch((error: unknown) => {
  stderrLine(redactConsole(`mm-acp: fatal: ${error instanceof Error ? error.message : String(error)}`));
  process.exit(1);
});
