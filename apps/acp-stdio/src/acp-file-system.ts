/**
 * A session's FileSystem through the editor, when it advertises `fs.readTextFile` /
 * `fs.writeTextFile`: reads see unsaved buffers, writes land in the editor (its buffers and review
 * UI follow). What the editor cannot do, or fails at, falls back to the local file system. A path
 * with nothing on disk is not asked for (the editor would answer with an error, which some show the
 * user): it reads as not found, like bash sees it.
 */
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { FileSystem } from "@mm/core";
import type { Peer } from "./app-state.js";

export const acpFileSystem = (peer: Peer, sessionId: string, local: FileSystem): FileSystem => ({
  readText: (path) => {
    const client = peer.client;
    if (client === undefined || peer.capabilities?.fs?.readTextFile !== true) return local.readText(path);
    const onDisk = local
      .stat(path)
      .map(() => undefined)
      .orElse((error) => (error.kind === "not-found" ? errAsync(error) : okAsync(undefined)));
    return onDisk.andThen(() =>
      ResultAsync.fromPromise(client.request("fs/read_text_file", { sessionId, path }), () => "failed")
        .orElse(() => local.readText(path).map((content) => ({ content })))
        .map((response) => response.content),
    );
  },
  writeText: (path, text) => {
    const client = peer.client;
    if (client === undefined || peer.capabilities?.fs?.writeTextFile !== true) return local.writeText(path, text);
    // The editor is sent the file the write lands in: it would follow a link (one to nothing among them).
    const target = local.realPath === undefined ? okAsync(path) : local.realPath(path);
    return target.andThen((landing) =>
      ResultAsync.fromPromise(client.request("fs/write_text_file", { sessionId, path: landing, content: text }), () => "failed")
        .map(() => undefined)
        .orElse(() => local.writeText(landing, text)),
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
