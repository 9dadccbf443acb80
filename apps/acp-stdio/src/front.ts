/**
 * The start-up front: the entry of mm-acp's small start-up bundle (build.mjs), which answers the
 * editor's first `initialize` before the agent's own bundle is even loaded, then loads it, in the
 * time the editor takes to read that answer and send its next request.
 *
 * Every process starts with `initialize`, and its answer depends on the configuration alone
 * (initialize-answer.ts): loading, compiling and running the whole agent first (its 500 kB bundle,
 * the SDK's connection, the ports) cost about a third of mm's start-up above a bare node process.
 * The front reads the command line, the configuration and the first message; when that message is
 * an `initialize` request whose params the SDK's own check would take unchanged (wire/
 * initialize-params.ts's `fastInitializeParams`), it writes the answer the agent would have written,
 * byte for byte (front.test.ts), and hands the agent the stream with that request put back first
 * (wire/front-handoff.ts): the SDK then counts the connection as initialized and the handler records
 * the client's capabilities and logs it, as without the front. Anything else (another command line,
 * a bad configuration, another first message, params the fast check declines) goes to the agent
 * as it came, and the agent answers it exactly as it always did.
 */
import type { LoadedConfig, MmConfig } from "@mm/node";
import { loadProcessConfig } from "@mm/node/config";
import type * as acp from "@agentclientprotocol/sdk";
import { cliAction } from "./cli-args.js";
import { initializeAnswer } from "./initialize-answer.js";
import { chosenLogLevel, leveledLog, type LogLevel } from "./log.js";
import { batchedStdout } from "./startup/batched-stdout.js";
import { earlyLifecycle } from "./startup/early-lifecycle.js";
import { stderrLine } from "./startup/stderr-line.js";
import { nodeByteSource } from "./startup/stdin-source.js";
import type { FrontRead } from "./wire/front-handoff.js";
import { fastInitializeParams } from "./wire/initialize-params.js";
import { ndJsonStream } from "./wire/nd-json-stream.js";

/** What the front hands the agent: what it read and made, so nothing is read or made twice. */
export type FrontHandoff = {
  readonly level: LogLevel;
  readonly loaded: LoadedConfig;
  /** The ACP stream on stdio; the front may have read its first message (`read`). */
  readonly stream: acp.Stream;
  readonly read: FrontRead;
  /** Sets what hears of each message written to the stream (the agent's response watch). */
  readonly onWritten: (hook: (message: acp.AnyMessage) => void) => void;
  /** The agent's lifecycle is installed: the front's own handlers of signals and failures go (startup/early-lifecycle.ts). */
  readonly takeOver: () => void;
};

/** The agent's bundle (src/main.ts), as the front loads it. */
export type AgentEntry = {
  /** The whole agent, from the command line on. */
  readonly start: () => void;
  /** The agent on what the front read and made. */
  readonly startAfterFront: (handoff: FrontHandoff) => void;
};

/** The editor's first message as the front answers it: an `initialize` request (not a notification) it can answer. */
const answerable = (message: acp.AnyMessage): { id: string | number; params: acp.InitializeRequest } | undefined => {
  if (!("method" in message) || message.method !== "initialize") return undefined;
  const id = (message as { id?: unknown }).id;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const params = fastInitializeParams((message as { params?: unknown }).params);
  return params === undefined ? undefined : { id, params };
};

/**
 * Reads the first message of `stream` and answers it when it is an `initialize` the front can answer
 * for `config`; then calls `handoff` with what it read: at once when it answered nothing, else on the
 * next turn, once the answer is flushed (stdout is written then, startup/batched-stdout.ts).
 */
export const answerFirst = (stream: acp.Stream, config: MmConfig, handoff: (read: FrontRead) => void): void => {
  stream.readable
    .getReader()
    .read()
    .then(
      ({ done, value }) => {
        if (done || value === undefined) return handoff({ kind: "none" });
        let answer: acp.AnyMessage | undefined;
        let first: ReturnType<typeof answerable>;
        try {
          first = answerable(value);
          if (first !== undefined) answer = { jsonrpc: "2.0", id: first.id, result: initializeAnswer(config, first.params) } as acp.AnyMessage;
        } catch {
          // Whatever went wrong here, the agent answers the message as it always did.
          first = undefined;
        }
        if (first === undefined || answer === undefined) return handoff({ kind: "unread", message: value });
        const params = first.params;
        void stream.writable.getWriter().write(answer);
        setImmediate(() => handoff({ kind: "answered", params }));
      },
      // The input failed: the agent's read meets the same failure, and ends the connection as it does.
      () => handoff({ kind: "none" }),
    );
};

/** Serves on stdio; `loadAgent` loads the agent's bundle (synchronously) when the front is done with it. */
export const start = (loadAgent: () => AgentEntry): void => {
  const action = cliAction(process.argv.slice(2));
  if (action.kind !== "serve") return loadAgent().start();
  const level = chosenLogLevel(action.logLevel, process.env);
  const loaded = loadProcessConfig();
  // The agent says what is wrong, as it always has.
  if (level.isErr() || loaded.isErr()) return loadAgent().start();
  const log = leveledLog(level.value, stderrLine);
  const takeOver = earlyLifecycle(log);
  let written: (message: acp.AnyMessage) => void = () => undefined;
  const stream = ndJsonStream(batchedStdout(), nodeByteSource(process.stdin), { log: log.warn, onWritten: (message) => written(message) });
  answerFirst(stream, loaded.value.config, (read) => {
    try {
      loadAgent().startAfterFront({ level: level.value, loaded: loaded.value, stream, read, onWritten: (hook) => void (written = hook), takeOver });
    } catch (error) {
      stderrLine(`mm: fatal: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  });
};
