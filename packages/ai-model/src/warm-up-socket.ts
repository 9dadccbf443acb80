/**
 * A private local socket for the warm-up step, so that it runs the HTTP client's whole connection
 * path (the keep-alive agent's `addRequest`, a real `net.Socket` connecting and being read, the
 * agent's bookkeeping of a kept connection) that the first real request otherwise runs cold: a Unix
 * domain socket served by this process, answering what is written to it with the canned frames (one
 * per event-loop turn, keep-alive). Nothing goes on the network. On Linux the socket is an abstract
 * one (a random name, no file: nothing is left behind even by a process killed during its warm-up);
 * elsewhere it is a file in a fresh 0700 temporary directory, removed as soon as the agent's
 * connection is made. Whoever else connects gets the canned frames, nothing more; the name cannot
 * be taken from under us (a name in use fails the listen, and the warm-up then stays in memory).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answerWithFrames } from "./warm-up.js";

/** Where to connect, and how to take it all down. */
export type WarmUpSocket = { readonly path: string; readonly connect: () => Socket; readonly close: () => void };

/** Answers each request on `socket` with `frames` as a chunked 200 event stream, keeping the connection. */
const answer = (socket: Socket, frames: readonly string[]): void => {
  let busy = false;
  socket.on("data", () => {
    if (busy) return;
    busy = true;
    answerWithFrames({ write: (text) => socket.write(text), gone: () => socket.destroyed, done: () => (busy = false) }, frames, true);
  });
  socket.on("error", () => undefined);
};

/** The socket serving `frames`, or undefined where one cannot be made (then the warm-up stays in memory). */
export const warmUpSocket = async (frames: readonly string[], platform: NodeJS.Platform = process.platform): Promise<WarmUpSocket | undefined> => {
  let dir: string | undefined;
  let server: Server | undefined;
  const open = new Set<Socket>();
  /** The directory goes as soon as a connection is made (the socket works on without its path), or when the process exits. */
  const removeDir = (): void => {
    process.off("exit", removeDir);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  };
  const close = (): void => {
    for (const socket of open) socket.destroy();
    server?.close();
    removeDir();
  };
  try {
    let path: string;
    if (platform === "linux") path = `\0mm-warm-up-${process.pid}-${randomBytes(8).toString("hex")}`;
    else {
      dir = mkdtempSync(join(tmpdir(), "mm-warm-up-"));
      process.once("exit", removeDir);
      path = join(dir, "s");
    }
    const listening = createServer((socket) => {
      removeDir();
      open.add(socket);
      socket.once("close", () => open.delete(socket));
      answer(socket, frames);
    });
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen(path, () => resolve());
    });
    listening.unref();
    return { path, connect: () => connect(path), close };
  } catch {
    close();
    return undefined;
  }
};
