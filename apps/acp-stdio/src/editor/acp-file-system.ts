/**
 * A session's FileSystem through the editor, when it advertises `fs.readTextFile` /
 * `fs.writeTextFile`: reads see unsaved buffers, writes land in the editor (its buffers and review
 * UI follow). The editor's "no" is honoured: a request it answers with an error fails the tool call
 * with the editor's reason, told to the model; the local file system is used only when the editor
 * lacks the capability or does not know the method (JSON-RPC -32601). A path with nothing on disk is
 * not asked for (the editor would answer with an error, which some show the user): it reads as not
 * found, like bash sees it.
 */
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { FileSystem, FsError } from "@mm/core";
import type { Peer } from "../state/app-state.js";

/** JSON-RPC's "method not found": the editor does not serve the method after all. */
const METHOD_NOT_FOUND = -32601;

/** The longest reason of the editor's kept in a refusal. */
const MAX_REASON = 300;

/** What the editor's error answer says, in one line. */
const reasonOf = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error);
  const { message, data } = error as { message?: unknown; data?: unknown };
  const detail = typeof data === "string" ? data : data !== undefined && data !== null ? JSON.stringify(data) : undefined;
  const text = [typeof message === "string" ? message : undefined, detail].filter((part) => part !== undefined && part !== "").join(": ");
  const line = (text === "" ? "no reason given" : text).replace(/\s+/g, " ");
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
};

const methodNotFound = (error: unknown): boolean => typeof error === "object" && error !== null && (error as { code?: unknown }).code === METHOD_NOT_FOUND;

/** The editor's answer to `method`, or its refusal as an FsError; `unknown-method` when it does not know the method (the local disk then). */
const askEditor = <T>(method: string, path: string, asked: Promise<T>): ResultAsync<{ readonly answer: T } | "unknown-method", FsError> =>
  ResultAsync.fromPromise(asked, (error) => error)
    .map((answer) => ({ answer }))
    .orElse((error) =>
      methodNotFound(error)
        ? okAsync("unknown-method" as const)
        : errAsync({ kind: "io", path, message: `the editor refused ${method} (${reasonOf(error)})` } as const),
    );

export const acpFileSystem = (peer: Peer, sessionId: string, local: FileSystem): FileSystem => ({
  readText: (path) => {
    const client = peer.client;
    if (client === undefined || peer.capabilities?.fs?.readTextFile !== true) return local.readText(path);
    const onDisk = local
      .stat(path)
      .map(() => undefined)
      .orElse((error) => (error.kind === "not-found" ? errAsync(error) : okAsync(undefined)));
    return onDisk.andThen(() =>
      askEditor("fs/read_text_file", path, client.request("fs/read_text_file", { sessionId, path })).andThen((response) =>
        response === "unknown-method" ? local.readText(path) : okAsync(response.answer.content),
      ),
    );
  },
  writeText: (path, text) => {
    const client = peer.client;
    if (client === undefined || peer.capabilities?.fs?.writeTextFile !== true) return local.writeText(path, text);
    // The editor is sent the file the write lands in: it would follow a link (one to nothing among them).
    const target = local.realPath === undefined ? okAsync(path) : local.realPath(path);
    return target.andThen((landing) =>
      askEditor("fs/write_text_file", landing, client.request("fs/write_text_file", { sessionId, path: landing, content: text })).andThen((response) =>
        response === "unknown-method" ? local.writeText(landing, text) : okAsync(undefined),
      ),
    );
  },
  stat: (path) => local.stat(path),
  ...(local.realPath !== undefined ? { realPath: local.realPath } : {}),
  ...(local.readBytes !== undefined ? { readBytes: local.readBytes } : {}),
});

/** The per-session FileSystem factory: the editor's when it offers either capability, else none. */
export const editorFileSystems =
  (peer: Peer, local: FileSystem) =>
  ({ id: sessionId }: { readonly id: string }): FileSystem | undefined =>
    peer.capabilities?.fs?.readTextFile === true || peer.capabilities?.fs?.writeTextFile === true ? acpFileSystem(peer, sessionId, local) : undefined;
