/**
 * One `git cat-file --batch-command --buffer` process spoken to in rounds: each round sends `info` or
 * `contents` commands and a `flush`, and reads their answers. The process outlives a call (starting
 * git costs more than reading a few blobs); it holds the event loop only while a round is pending.
 */
import { spawn } from "node:child_process";
import type { GitFailure } from "./run-git.js";

/** What `info` answers: undefined for an object the repository does not hold. */
export type ObjectInfo = { readonly type: string; readonly size: number } | undefined;
/** What `contents` answers. */
export type ObjectContents = { readonly type: string; readonly bytes: Buffer } | undefined;

export type CatFile = {
  /** Types and sizes of objects (ids); every round is answered before `deadline` (ms since the epoch) or fails. */
  readonly info: (ids: readonly string[], deadline: number) => Promise<ObjectInfo[] | GitFailure>;
  readonly contents: (ids: readonly string[], deadline: number) => Promise<ObjectContents[] | GitFailure>;
  /** False once the process failed or was closed: start another. */
  readonly usable: () => boolean;
  readonly close: () => void;
};

type Round = {
  readonly count: number;
  readonly withContents: boolean;
  readonly answers: (ObjectContents | ObjectInfo)[];
  readonly done: (answers: (ObjectContents | ObjectInfo)[] | GitFailure) => void;
};

export const isFailure = <T>(value: T | GitFailure): value is GitFailure =>
  typeof value === "object" && value !== null && !Array.isArray(value) && "message" in value && "timedOut" in value;

/** Starts cat-file in the repository at `cwd` (git's environment `env`). */
export const startCatFile = (git: string, cwd: string, env: NodeJS.ProcessEnv): CatFile => {
  const child = spawn(git, ["cat-file", "--batch-command", "--buffer"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let buffer: Buffer = Buffer.alloc(0);
  let round: Round | undefined;
  let failure: GitFailure | undefined;
  let stderr = "";
  const holdLoop = (hold: boolean): void => {
    for (const handle of [child, child.stdout, child.stderr] as unknown as { ref: () => void; unref: () => void }[]) {
      if (hold) handle.ref();
      else handle.unref();
    }
  };
  holdLoop(false);

  const fail = (message: string, timedOut = false): void => {
    failure ??= { timedOut, message: `git cat-file: ${message}` };
    const waiting = round;
    round = undefined;
    waiting?.done(failure);
    child.kill("SIGKILL");
  };

  /** Takes one complete answer off the buffer; false when more bytes are needed. */
  const parseOne = (current: Round): boolean => {
    const lineEnd = buffer.indexOf(0x0a);
    if (lineEnd < 0) return false;
    const fields = buffer.toString("utf8", 0, lineEnd).split(" ");
    const last = fields[fields.length - 1];
    if (last === "missing" || last === "ambiguous") {
      current.answers.push(undefined);
      buffer = buffer.subarray(lineEnd + 1);
      return true;
    }
    const type = fields[1] ?? "";
    const size = Number(fields[2]);
    if (!current.withContents) {
      current.answers.push({ type, size });
      buffer = buffer.subarray(lineEnd + 1);
      return true;
    }
    const end = lineEnd + 1 + size;
    if (buffer.length < end + 1) return false;
    current.answers.push({ type, bytes: Buffer.from(buffer.subarray(lineEnd + 1, end)) });
    buffer = buffer.subarray(end + 1);
    return true;
  };

  child.stdout.on("data", (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const current = round;
    if (current === undefined) return;
    while (current.answers.length < current.count && parseOne(current));
    if (current.answers.length === current.count) {
      round = undefined;
      current.done(current.answers);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString("utf8");
  });
  child.stdin.on("error", () => undefined);
  child.on("error", (error) => fail(error.message));
  child.on("close", (code) => fail(stderr.split("\n").find((line) => line.trim() !== "") ?? `exit ${code ?? "by signal"}`));

  const ask = (command: "info" | "contents", ids: readonly string[], deadline: number): Promise<(ObjectContents | ObjectInfo)[] | GitFailure> => {
    if (failure !== undefined) return Promise.resolve(failure);
    if (ids.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      holdLoop(true);
      const timer = setTimeout(() => fail("over the deadline", true), Math.max(0, deadline - Date.now()));
      round = {
        count: ids.length,
        withContents: command === "contents",
        answers: [],
        done: (answers) => {
          clearTimeout(timer);
          holdLoop(false);
          resolve(answers);
        },
      };
      child.stdin.write(`${ids.map((id) => `${command} ${id}\n`).join("")}flush\n`);
    });
  };

  return {
    info: (ids, deadline) => ask("info", ids, deadline) as Promise<ObjectInfo[] | GitFailure>,
    contents: (ids, deadline) => ask("contents", ids, deadline) as Promise<ObjectContents[] | GitFailure>,
    usable: () => failure === undefined,
    close: () => {
      failure ??= { timedOut: false, message: "git cat-file: closed" };
      child.stdin.end();
    },
  };
};
